/// A sensitivity profile (docs/behaviour.md#sensitivity-profiles): base values, optional per-tier adjustments and
/// optional per-class overrides, possibly inherited from the profile it `extends`.
/// `rule(for:)` gives the effective rule of a class: each field comes from the class
/// override, else the tier adjustment, else the base.
public struct Profile: Sendable {
    public var name: String
    public var description: String
    /// SHA-256 of the profile's JSON text, logged with every decision it makes. A profile
    /// that extends another hashes its own text followed by its parent's SHA-256, so the
    /// hash changes when anything its rules come from changes.
    public var sha256: String
    public var base: RuleFields
    public var tiers: [Tier: RuleFields]
    public var classes: [SoundClass: RuleFields]
    /// The profiles this one starts from, nearest first, as their files or built-in names
    /// (empty for a profile that extends nothing).
    public var ancestors: [String] = []
    /// Which profile set each field a section holds, by key path (`base.on`,
    /// `tiers.critical.debounce_s`, `classes.cough.smoothing`). Absent: this profile.
    public var origins: [String: String] = [:]

    public init(name: String, description: String, sha256: String, base: RuleFields,
                tiers: [Tier: RuleFields], classes: [SoundClass: RuleFields]) {
        self.name = name
        self.description = description
        self.sha256 = sha256
        self.base = base
        self.tiers = tiers
        self.classes = classes
    }

    /// Where an effective field came from, for `somniq profiles show`.
    public enum Source: Equatable, Sendable {
        case base, tier(Tier), classOverride(SoundClass)
        /// The section's key path: `base`, `tiers.critical`, `classes.cough`.
        public var keyPath: String {
            switch self {
            case .base: "base"
            case let .tier(t): "tiers.\(t.rawValue)"
            case let .classOverride(c): "classes.\(c.rawValue)"
            }
        }
    }

    /// The profile that set `field` in `source`: this one or an ancestor.
    public func origin(of field: String, in source: Source) -> String {
        origins["\(source.keyPath).\(field)"] ?? name
    }

    /// Where `field` of a class's rule was set, among that class's `sources(_:)`: the
    /// section, and the key path of the setting (`classes.cough.debounce_s`).
    public static func setting(_ field: String, in sources: [(field: String, source: Source)]) -> (source: Source, keyPath: String) {
        let source = sources.first { $0.field == field }?.source ?? .base
        return (source, "\(source.keyPath).\(field)")
    }

    /// The effective rule of `soundClass`.
    public func rule(for soundClass: SoundClass) -> AlertRule { resolve(soundClass).rule }

    /// The effective rule, and for each field set above the base, where it came from.
    public func resolve(_ c: SoundClass) -> (rule: AlertRule, adjusted: [(field: String, source: Source)]) {
        let all = sources(c)
        return (all.rule, all.sources.filter { $0.source != .base })
    }

    /// The effective rule, and the section every one of its fields came from.
    public func sources(_ c: SoundClass) -> (rule: AlertRule, sources: [(field: String, source: Source)]) {
        let own = classes[c] ?? RuleFields()
        let tier = own.tier ?? c.defaultTier
        let byTier = tiers[tier] ?? RuleFields()
        var sources: [(String, Source)] = []
        if own.tier != nil { sources.append(("tier", .classOverride(c))) }
        func pick<T>(_ field: String, _ k: KeyPath<RuleFields, T?>) -> T {
            if let v = own[keyPath: k] { sources.append((field, .classOverride(c))); return v }
            if let v = byTier[keyPath: k] { sources.append((field, .tier(tier))); return v }
            sources.append((field, .base))
            return base[keyPath: k]!
        }
        let rule = AlertRule(
            tier: tier,
            on: pick("on", \.on), off: pick("off", \.off),
            debounce: pick("debounce_s", \.debounce), cooldown: pick("cooldown_s", \.cooldown),
            smoothing: pick("smoothing", \.smoothing),
            minConfidence: pick("min_confidence", \.minConfidence),
            enabled: pick("enabled", \.enabled),
            alert: pickAlert())
        return (rule, sources)
        // `alert` may be left out of a base (profiles written before it): it alerts.
        func pickAlert() -> Bool {
            if let v = own.alert { sources.append(("alert", .classOverride(c))); return v }
            if let v = byTier.alert { sources.append(("alert", .tier(tier))); return v }
            if let v = base.alert { sources.append(("alert", .base)); return v }
            return true
        }
    }
}

/// Rule fields as written in one section of a profile; nil where the section is silent.
public struct RuleFields: Sendable, Equatable {
    public var tier: Tier?
    public var on: Double?
    public var off: Double?
    public var debounce: Double?
    public var cooldown: Double?
    public var smoothing: Smoothing?
    public var minConfidence: Double?
    public var enabled: Bool?
    public var alert: Bool?
    public init() {}

    /// The JSON names of the fields this section sets.
    public var setFields: [String] {
        [("tier", tier as Any?), ("on", on), ("off", off), ("debounce_s", debounce), ("cooldown_s", cooldown),
         ("smoothing", smoothing), ("min_confidence", minConfidence), ("enabled", enabled), ("alert", alert)]
            .compactMap { $0.1 == nil ? nil : $0.0 }
    }

    /// This section laid over `parent`: each field it sets replaces the parent's, the rest
    /// is the parent's. A smoothing is replaced whole, never merged key by key.
    public func overlaid(on parent: RuleFields) -> RuleFields {
        var f = parent
        if let tier { f.tier = tier }
        if let on { f.on = on }
        if let off { f.off = off }
        if let debounce { f.debounce = debounce }
        if let cooldown { f.cooldown = cooldown }
        if let smoothing { f.smoothing = smoothing }
        if let minConfidence { f.minConfidence = minConfidence }
        if let enabled { f.enabled = enabled }
        if let alert { f.alert = alert }
        return f
    }
}
