extension Profile {
    /// Parses and validates a profile's JSON text. `file` names it in errors.
    ///
    /// Unknown keys, wrong types, values outside [0, 1], negative times, unknown class
    /// or tier names and `off` above `on` (for any class's effective rule) are errors.
    /// A profile may `extends` a built-in profile by name; `ProfileLoader` also finds
    /// parents in files, through `init(json:file:parent:)`.
    public init(json text: String, file: String) throws(ProfileError) {
        try self.init(json: text, file: file) { name throws(ProfileError) in
            guard let builtin = Profile.builtin(name) else {
                throw ProfileError(file: file, keyPath: "extends",
                                   problem: "no built-in profile \"\(name)\" (built-in profiles: \(Profile.builtinNames.joined(separator: ", ")))")
            }
            return builtin
        }
    }

    /// Parses a profile whose `extends` (if any) `parent` turns into the parent profile.
    /// The parent's base, tiers and classes are the starting point; each field this file
    /// names replaces the parent's, and every other field is inherited as it is.
    public init(json text: String, file: String,
                parent: (String) throws(ProfileError) -> Profile) throws(ProfileError) {
        let own = try ProfileDocument(json: text, file: file)
        guard let parentName = own.extends else {
            self.init(name: own.name, description: own.description ?? "", sha256: SHA256.hex(Array(text.utf8)),
                      base: own.base, tiers: own.tiers, classes: own.classes)
            try checkOrder(file: file)
            return
        }
        let from = try parent(parentName)
        var tiers = from.tiers
        for (t, f) in own.tiers { tiers[t] = f.overlaid(on: tiers[t] ?? RuleFields()) }
        var classes = from.classes
        for (c, f) in own.classes { classes[c] = f.overlaid(on: classes[c] ?? RuleFields()) }
        self.init(name: own.name, description: own.description ?? "\(from.name) with changes",
                  sha256: SHA256.hex(Array((text + "\n" + from.sha256).utf8)),
                  base: own.base.overlaid(on: from.base), tiers: tiers, classes: classes)
        ancestors = [parentName] + from.ancestors
        // Everything the parent holds came from it (or from its own ancestors) …
        origins = from.origins
        func inherit(_ section: String, _ fields: RuleFields) {
            for field in fields.setFields where from.origins["\(section).\(field)"] == nil {
                origins["\(section).\(field)"] = from.name
            }
        }
        inherit("base", from.base)
        for (t, f) in from.tiers { inherit("tiers.\(t.rawValue)", f) }
        for (c, f) in from.classes { inherit("classes.\(c.rawValue)", f) }
        // … except what this file names.
        func claim(_ section: String, _ fields: RuleFields) {
            for field in fields.setFields { origins["\(section).\(field)"] = nil }
        }
        claim("base", own.base)
        for (t, f) in own.tiers { claim("tiers.\(t.rawValue)", f) }
        for (c, f) in own.classes { claim("classes.\(c.rawValue)", f) }
        try checkOrder(file: file)
    }

    /// `off ≤ on` (and `off ≤ threshold` for window means) in every effective rule,
    /// reported at the most specific key that broke it.
    private func checkOrder(file: String) throws(ProfileError) {
        for c in SoundClass.allCases {
            let (rule, sources) = self.sources(c)
            func path(_ field: String) -> String { Self.setting(field, in: sources).keyPath }
            func specificity(_ field: String) -> Int {
                switch Self.setting(field, in: sources).source {
                case .classOverride: 2
                case .tier: 1
                case .base: 0
                }
            }
            if rule.off > rule.on {
                if specificity("on") > specificity("off") {
                    throw ProfileError(file: file, keyPath: path("on"), problem: "\(fmt(rule.on)) is below off (\(fmt(rule.off)))")
                }
                throw ProfileError(file: file, keyPath: path("off"), problem: "\(fmt(rule.off)) is above on (\(fmt(rule.on)))")
            }
            if case let .windowMean(_, threshold) = rule.smoothing, rule.off > threshold {
                throw ProfileError(file: file, keyPath: path("smoothing") + ".threshold",
                                   problem: "\(fmt(threshold)) is below off (\(fmt(rule.off)))")
            }
        }
    }
}

/// A profile file as written: the sections it sets and the profile it starts from.
struct ProfileDocument {
    var name: String
    var description: String?
    var extends: String?
    var base: RuleFields
    var tiers: [Tier: RuleFields] = [:]
    var classes: [SoundClass: RuleFields] = [:]

    init(json text: String, file: String) throws(ProfileError) {
        let root = try JSONField<ProfileError>(parsing: text, file: file).object("the profile must be a JSON object")
        try root.allowOnly(["name", "description", "extends", "base", "tiers", "classes"])

        name = try root.required("name", missing: "is missing").string()
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw root.error("name", "\"\(name)\" must be letters, digits, '_' or '-'")
        }
        description = try root["description"]?.string()
        extends = try root["extends"]?.string()
        if let extends, extends.isEmpty || extends.contains(where: \.isNewline) || extends.utf8.contains(0) {
            throw root.error("extends", "must name a profile (a built-in or /etc/somniq/profiles name, or a path to a .json file)")
        }

        if let baseField = root["base"] {
            base = try RuleFields(baseField, allowTier: false)
        } else if extends != nil {
            base = RuleFields()
        } else {
            throw root.error("base", "is missing (or start from another profile with \"extends\": \"balanced\")")
        }
        if extends == nil {
            // `alert` may be left out: a class alerts unless told otherwise.
            for key in RuleFields.keys where key != "alert" && !base.setFields.contains(key) {
                throw root.error("base.\(key)", "is missing (the base must set every field, unless the profile extends another)")
            }
        }

        if let t = root["tiers"] {
            for (key, value) in try t.object().entries {
                guard let tier = Tier(rawValue: key) else {
                    throw value.error("unknown tier (expected one of: \(Tier.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                tiers[tier] = try RuleFields(value, allowTier: false)
            }
        }

        if let c = root["classes"] {
            for (key, value) in try c.object().entries {
                guard let sc = SoundClass(rawValue: key) else {
                    throw value.error("unknown class (see `somniq profiles show balanced` for the list)")
                }
                classes[sc] = try RuleFields(value, allowTier: true)
            }
        }
    }
}

private func fmt(_ x: Double) -> String { JSONValue.format(x) }

extension RuleFields {
    /// The keys of a base or tier section; a class's may also set its `tier`.
    static let keys = ["on", "off", "debounce_s", "cooldown_s", "smoothing", "min_confidence", "enabled", "alert"]

    /// `debounce_s`, `cooldown_s`: from 0 to an hour. A class that must sound for longer
    /// than an hour before it alerts, or stays quiet an hour after, alerts once a night.
    static let holdRange = 0.0...3600

    /// One section of a profile file (`base`, `tiers.high`, `classes.snoring`).
    init(_ field: JSONField<ProfileError>, allowTier: Bool) throws(ProfileError) {
        let section = try field.object()
        try section.allowOnly(allowTier ? ["tier"] + Self.keys : Self.keys)
        self.init()
        for (key, value) in section.entries {
            switch key {
            case "tier":
                let name = try value.string()
                guard let t = Tier(rawValue: name) else {
                    throw value.error("unknown tier \"\(name)\" (expected one of: \(Tier.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                tier = t
            case "on": on = try value.unitInterval()
            case "off": off = try value.unitInterval()
            case "min_confidence": minConfidence = try value.unitInterval()
            case "debounce_s": debounce = try value.number(in: Self.holdRange, unit: "seconds", typeProblem: "must be a number")
            case "cooldown_s": cooldown = try value.number(in: Self.holdRange, unit: "seconds", typeProblem: "must be a number")
            case "enabled": enabled = try value.bool()
            case "alert": alert = try value.bool()
            case "smoothing": smoothing = try Smoothing(value)
            default: break
            }
        }
    }
}

extension Smoothing {
    /// `tau_s`, `window_s`: from 0.05 s, a tenth of a decision frame (0.5 s), below which
    /// smoothing does nothing, to an hour, past which a class could not rise in a night.
    static let secondsRange = 0.05...3600

    /// A section's `smoothing`: `{"method": "ema", "tau_s": 2}` and the like.
    init(_ field: JSONField<ProfileError>) throws(ProfileError) {
        let s = try field.object()
        let method = try s.required("method", missing: "is missing (\"ema\", \"window_mean\" or \"none\")").string()
        func seconds(_ f: JSONField<ProfileError>) throws(ProfileError) -> Double {
            try f.number(in: Self.secondsRange, unit: "seconds", typeProblem: "must be a number")
        }
        switch method {
        case "none":
            try s.allowOnly(["method"])
            self = .none
        case "ema":
            try s.allowOnly(["method", "tau_s"])
            self = .ema(tau: try seconds(s.required("tau_s", missing: "is missing")))
        case "window_mean":
            try s.allowOnly(["method", "window_s", "threshold"])
            let w = try s.required("window_s", missing: "is missing")
            let t = try s.required("threshold", missing: "is missing")
            self = .windowMean(window: try seconds(w), threshold: try t.unitInterval())
        default:
            throw s.error("method", "unknown method \"\(method)\" (expected \"ema\", \"window_mean\" or \"none\")")
        }
    }
}
