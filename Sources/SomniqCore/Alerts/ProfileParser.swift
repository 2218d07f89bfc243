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
        let root: JSONValue
        do { root = try JSONValue(parsing: text) } catch {
            throw ProfileError(file: file, keyPath: "", problem: "not valid JSON (\(error))")
        }
        let p = ProfileReader(file: file)
        guard case let .object(members) = root else {
            throw p.fail("", "the profile must be a JSON object, not \(root.typeName)")
        }
        try p.allowOnly(["name", "description", "extends", "base", "tiers", "classes"], in: members, at: "")

        guard let nameValue = root["name"] else { throw p.fail("name", "is missing") }
        name = try p.string(nameValue, at: "name")
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
            throw p.fail("name", "\"\(name)\" must be letters, digits, '_' or '-'")
        }
        description = try root["description"].map { v throws(ProfileError) in try p.string(v, at: "description") }
        extends = try root["extends"].map { v throws(ProfileError) in try p.string(v, at: "extends") }
        if let extends, extends.isEmpty || extends.contains(where: \.isNewline) || extends.utf8.contains(0) {
            throw p.fail("extends", "must name a profile (a built-in or /etc/somniq/profiles name, or a path to a .json file)")
        }

        if let baseValue = root["base"] {
            base = try p.fields(baseValue, at: "base", allowTier: false)
        } else if extends != nil {
            base = RuleFields()
        } else {
            throw p.fail("base", "is missing (or start from another profile with \"extends\": \"balanced\")")
        }
        if extends == nil {
            for key in ["on", "off", "debounce_s", "cooldown_s", "smoothing", "min_confidence", "enabled"]
            where !base.setFields.contains(key) {
                throw p.fail("base.\(key)", "is missing (the base must set every field, unless the profile extends another)")
            }
        }

        if let t = root["tiers"] {
            guard case let .object(entries) = t else { throw p.fail("tiers", "must be an object, not \(t.typeName)") }
            for (key, value) in entries {
                guard let tier = Tier(rawValue: key) else {
                    throw p.fail("tiers.\(key)", "unknown tier (expected one of: \(Tier.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                tiers[tier] = try p.fields(value, at: "tiers.\(key)", allowTier: false)
            }
        }

        if let c = root["classes"] {
            guard case let .object(entries) = c else { throw p.fail("classes", "must be an object, not \(c.typeName)") }
            for (key, value) in entries {
                guard let sc = SoundClass(rawValue: key) else {
                    throw p.fail("classes.\(key)", "unknown class (see `somniq profiles show balanced` for the list)")
                }
                classes[sc] = try p.fields(value, at: "classes.\(key)", allowTier: true)
            }
        }
    }
}

private func fmt(_ x: Double) -> String { JSONValue.format(x) }

private struct ProfileReader {
    let file: String

    func fail(_ keyPath: String, _ problem: String) -> ProfileError {
        ProfileError(file: file, keyPath: keyPath, problem: problem)
    }

    func allowOnly(_ keys: [String], in members: [(String, JSONValue)], at path: String) throws(ProfileError) {
        for (key, _) in members where !keys.contains(key) {
            throw fail(path.isEmpty ? key : "\(path).\(key)",
                       "unknown key (expected one of: \(keys.joined(separator: ", ")))")
        }
    }

    func string(_ v: JSONValue, at path: String) throws(ProfileError) -> String {
        guard case let .string(s) = v else { throw fail(path, "must be a string, not \(v.typeName)") }
        return s
    }

    func number(_ v: JSONValue, at path: String) throws(ProfileError) -> Double {
        guard case let .number(n) = v else { throw fail(path, "must be a number, not \(v.typeName)") }
        return n
    }

    /// `on`, `off`, `min_confidence`, `threshold`: scores and confidences, from 0 to 1.
    func unit(_ v: JSONValue, at path: String) throws(ProfileError) -> Double {
        let n = try number(v, at: path)
        guard (0...1).contains(n) else { throw fail(path, "\(fmt(n)) is outside [0, 1]") }
        return n
    }

    /// `debounce_s`, `cooldown_s`: from 0 to an hour. A class that must sound for longer
    /// than an hour before it alerts, or stays quiet an hour after, alerts once a night.
    static let holdRange = 0.0...3600
    /// `tau_s`, `window_s`: from 0.05 s, a tenth of a decision frame (0.5 s), below which
    /// smoothing does nothing, to an hour, past which a class could not rise in a night.
    static let smoothingRange = 0.05...3600

    func seconds(_ v: JSONValue, at path: String, in range: ClosedRange<Double>) throws(ProfileError) -> Double {
        let n = try number(v, at: path)
        guard range.contains(n) else { throw fail(path, "\(fmt(n)) must be from \(fmt(range.lowerBound)) to \(fmt(range.upperBound)) seconds") }
        return n
    }

    func fields(_ v: JSONValue, at path: String, allowTier: Bool) throws(ProfileError) -> RuleFields {
        guard case let .object(members) = v else { throw fail(path, "must be an object, not \(v.typeName)") }
        var keys = ["on", "off", "debounce_s", "cooldown_s", "smoothing", "min_confidence", "enabled"]
        if allowTier { keys.insert("tier", at: 0) }
        try allowOnly(keys, in: members, at: path)
        var f = RuleFields()
        for (key, value) in members {
            let at = "\(path).\(key)"
            switch key {
            case "tier":
                let name = try string(value, at: at)
                guard let t = Tier(rawValue: name) else {
                    throw fail(at, "unknown tier \"\(name)\" (expected one of: \(Tier.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                f.tier = t
            case "on": f.on = try unit(value, at: at)
            case "off": f.off = try unit(value, at: at)
            case "min_confidence": f.minConfidence = try unit(value, at: at)
            case "debounce_s": f.debounce = try seconds(value, at: at, in: Self.holdRange)
            case "cooldown_s": f.cooldown = try seconds(value, at: at, in: Self.holdRange)
            case "enabled":
                guard case let .bool(b) = value else { throw fail(at, "must be true or false, not \(value.typeName)") }
                f.enabled = b
            case "smoothing": f.smoothing = try smoothing(value, at: at)
            default: break
            }
        }
        return f
    }

    func smoothing(_ v: JSONValue, at path: String) throws(ProfileError) -> Smoothing {
        guard case let .object(members) = v else { throw fail(path, "must be an object, not \(v.typeName)") }
        guard let m = v["method"] else { throw fail("\(path).method", "is missing (\"ema\", \"window_mean\" or \"none\")") }
        let method = try string(m, at: "\(path).method")
        switch method {
        case "none":
            try allowOnly(["method"], in: members, at: path)
            return .none
        case "ema":
            try allowOnly(["method", "tau_s"], in: members, at: path)
            guard let tau = v["tau_s"] else { throw fail("\(path).tau_s", "is missing") }
            return .ema(tau: try seconds(tau, at: "\(path).tau_s", in: Self.smoothingRange))
        case "window_mean":
            try allowOnly(["method", "window_s", "threshold"], in: members, at: path)
            guard let w = v["window_s"] else { throw fail("\(path).window_s", "is missing") }
            guard let t = v["threshold"] else { throw fail("\(path).threshold", "is missing") }
            return .windowMean(window: try seconds(w, at: "\(path).window_s", in: Self.smoothingRange),
                               threshold: try unit(t, at: "\(path).threshold"))
        default:
            throw fail("\(path).method", "unknown method \"\(method)\" (expected \"ema\", \"window_mean\" or \"none\")")
        }
    }
}
