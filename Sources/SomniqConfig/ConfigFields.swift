import SomniqCore

/// The configuration's own checks, over the JSON reader profiles share: what config.json,
/// its sinks and its clips ask of a string, a path, a name, a tier or a list of classes.
extension JSONField where Failure == ConfigError {
    /// A string a configuration may hold: not empty, and no `ConfigText.problem` (control
    /// characters, bytes that were not UTF-8).
    func text() throws(ConfigError) -> String {
        let s = try string()
        guard !s.isEmpty else { throw error("must not be empty") }
        if let problem = ConfigText.problem(s) { throw error(problem) }
        return s
    }

    /// An absolute path: "\"x.jsonl\" must be an absolute path", followed by ", or
    /// `alternative`" when another value would do.
    func absolutePath(or alternative: String? = nil) throws(ConfigError) -> String {
        let path = try text()
        guard path.hasPrefix("/") else {
            throw error("\"\(path)\" must be an absolute path" + (alternative.map { ", or \($0)" } ?? ""))
        }
        return path
    }

    /// A `SafeName`; `reason`, when given, says why after a colon.
    func safeName(because reason: String? = nil) throws(ConfigError) -> String {
        let s = try text()
        guard SafeName.isValid(s) else {
            throw error("\"\(s)\" may hold only letters, digits, - and _ (at most 64)" + (reason.map { ": \($0)" } ?? ""))
        }
        return s
    }

    /// A tier's name: `min_tier` of a sink or of clips.
    func tier() throws(ConfigError) -> Tier {
        let t = try text()
        guard let tier = Tier(rawValue: t) else { throw error("\"\(t)\" must be critical, high, medium or low") }
        return tier
    }

    /// A non-empty array of class names: `classes` of a sink or of clips.
    func classes() throws(ConfigError) -> Set<SoundClass> {
        var set = Set<SoundClass>()
        for name in try strings() {
            guard let c = SoundClass(rawValue: name) else {
                throw error("\"\(name)\" is not a class (see `somniq profiles show balanced`)")
            }
            set.insert(c)
        }
        return set
    }
}
