/// A sensitivity profile (SPEC §3): base values, optional per-tier adjustments and
/// optional per-class overrides. `rule(for:)` gives the effective rule of a class:
/// each field comes from the class override, else the tier adjustment, else the base.
public struct Profile: Sendable {
    public var name: String
    public var description: String
    /// SHA-256 of the profile's JSON text, logged with every decision it makes.
    public var sha256: String
    public var base: RuleFields
    public var tiers: [Tier: RuleFields]
    public var classes: [SoundClass: RuleFields]

    /// Where an effective field came from, for `somniq profiles show`.
    public enum Source: Equatable, Sendable {
        case base, tier(Tier), classOverride
        public var keyPath: String {
            switch self {
            case .base: "base"
            case let .tier(t): "tiers.\(t.rawValue)"
            case .classOverride: "classes"
            }
        }
    }

    /// The effective rule of `soundClass`.
    public func rule(for soundClass: SoundClass) -> AlertRule { resolve(soundClass).rule }

    /// The effective rule, and for each field set above the base, where it came from.
    public func resolve(_ c: SoundClass) -> (rule: AlertRule, adjusted: [(field: String, source: Source)]) {
        let own = classes[c] ?? RuleFields()
        let tier = own.tier ?? c.defaultTier
        let byTier = tiers[tier] ?? RuleFields()
        var adjusted: [(String, Source)] = []
        if own.tier != nil { adjusted.append(("tier", .classOverride)) }
        func pick<T>(_ field: String, _ k: KeyPath<RuleFields, T?>) -> T {
            if let v = own[keyPath: k] { adjusted.append((field, .classOverride)); return v }
            if let v = byTier[keyPath: k] { adjusted.append((field, .tier(tier))); return v }
            return base[keyPath: k]!
        }
        let rule = AlertRule(
            tier: tier,
            on: pick("on", \.on), off: pick("off", \.off),
            debounce: pick("debounce_s", \.debounce), cooldown: pick("cooldown_s", \.cooldown),
            smoothing: pick("smoothing", \.smoothing),
            minConfidence: pick("min_confidence", \.minConfidence),
            enabled: pick("enabled", \.enabled))
        return (rule, adjusted)
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
    public init() {}
}
