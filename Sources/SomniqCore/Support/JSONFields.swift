/// An error a JSON file's reader makes: which file, which key path (`sinks[0].url`,
/// `classes.snoring.on`; empty for the whole document) and what is wrong there.
///
/// Profiles (`ProfileError`) and the daemon's configuration (SomniqConfig's `ConfigError`)
/// read their JSON with `JSONField` and `JSONFields`, each throwing its own kind.
public protocol FieldError: Error {
    init(file: String, keyPath: String, problem: String)
}

/// One value of a JSON file and where it stands in it: typed reads whose errors name the
/// file and the key path, in the words all of somniq's JSON files are checked with.
///
///     try fields["port"]?.integer(in: 1...65535)   // sinks[0].port: 0 must be from 1 to 65535
public struct JSONField<Failure: FieldError> {
    public var value: JSONValue
    /// `sinks[0].url`, `base.on`; empty for the whole document.
    public var keyPath: String
    public var file: String

    public init(_ value: JSONValue, at keyPath: String, in file: String) {
        self.value = value
        self.keyPath = keyPath
        self.file = file
    }

    /// The whole document `text` (at the empty key path); text that is not JSON is
    /// "not valid JSON (line 1, column 2: …)".
    public init(parsing text: String, file: String) throws(Failure) {
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw Failure(file: file, keyPath: "", problem: "not valid JSON (\(error))")
        }
        keyPath = ""
        self.file = file
    }

    /// `problem` said of this value.
    public func error(_ problem: String) -> Failure {
        Failure(file: file, keyPath: keyPath, problem: problem)
    }

    /// The members of an object; anything else is "`problem`, not" its type ("…, not an array").
    public func object(_ problem: String = "must be an object") throws(Failure) -> JSONFields<Failure> {
        guard case let .object(members) = value else { throw error("\(problem), not \(value.typeName)") }
        return JSONFields(members: members, path: keyPath, file: file)
    }

    /// The items of an array, each at its index (`sinks[1]`); anything else is "`problem`,
    /// not" its type ("…, not a string").
    public func array(_ problem: String = "must be an array") throws(Failure) -> [JSONField<Failure>] {
        guard case let .array(items) = value else { throw error("\(problem), not \(value.typeName)") }
        return items.enumerated().map { JSONField($0.element, at: "\(keyPath)[\($0.offset)]", in: file) }
    }

    /// A string, any string (an empty one too).
    public func string() throws(Failure) -> String {
        guard case let .string(s) = value else { throw error("must be a string, not \(value.typeName)") }
        return s
    }

    public func bool() throws(Failure) -> Bool {
        guard case let .bool(b) = value else { throw error("must be true or false, not \(value.typeName)") }
        return b
    }

    /// A number; anything else is "`problem`, not a string".
    public func number(_ problem: String = "must be a number") throws(Failure) -> Double {
        guard case let .number(n) = value else { throw error("\(problem), not \(value.typeName)") }
        return n
    }

    /// A number of `unit` within `range`: "0 must be from 1 to 3600 seconds". Anything but
    /// a number is "must be a number of seconds, not a string", or `typeProblem` when given
    /// (a profile says "must be a number").
    public func number(in range: ClosedRange<Double>, unit: String, typeProblem: String? = nil) throws(Failure) -> Double {
        let n = try number(typeProblem ?? "must be a number of \(unit)")
        guard range.contains(n) else {
            throw error("\(JSONValue.format(n)) must be from \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound)) \(unit)")
        }
        return n
    }

    /// A score or a confidence, from 0 to 1: "1.5 is outside [0, 1]".
    public func unitInterval() throws(Failure) -> Double {
        let n = try number()
        guard (0...1).contains(n) else { throw error("\(JSONValue.format(n)) is outside [0, 1]") }
        return n
    }

    /// A whole number within `range`: "must be a whole number from 1 to 600, not a string",
    /// "2.5 must be a whole number from 1 to 600", "0 must be from 1 to 600".
    public func integer(in range: ClosedRange<Int>) throws(Failure) -> Int {
        let wanted = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        guard case let .number(n) = value else { throw error("must be \(wanted), not \(value.typeName)") }
        // Beyond Int (12345678901234567890123) is out of range too.
        guard n == n.rounded(), let i = Int(exactly: n) else { throw error("\(JSONValue.format(n)) must be \(wanted)") }
        guard range.contains(i) else { throw error("\(i) must be from \(range.lowerBound) to \(range.upperBound)") }
        return i
    }

    /// A non-empty array of non-empty strings, none with a NUL byte (which would end an
    /// argument or a name early where it reaches C).
    public func strings() throws(Failure) -> [String] {
        guard case let .array(items) = value, !items.isEmpty else { throw error("must be a non-empty array of strings") }
        var out: [String] = []
        for item in items {
            guard case let .string(s) = item, !s.isEmpty, !s.utf8.contains(0) else {
                throw error("must be a non-empty array of non-empty strings")
            }
            out.append(s)
        }
        return out
    }
}

/// One JSON object and where it stands: its members read by key, and its keys checked
/// against those it may have. Key paths join with a dot (`sinks[0]` and `url` make
/// `sinks[0].url`); at the top of a document a key is its own path.
public struct JSONFields<Failure: FieldError> {
    public var members: [(String, JSONValue)]
    /// The object's own key path; empty for the whole document.
    public var path: String
    public var file: String

    public init(members: [(String, JSONValue)], path: String, file: String) {
        self.members = members
        self.path = path
        self.file = file
    }

    public func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// `problem` said of the member `key`, whether or not the object has it.
    public func error(_ key: String, _ problem: String) -> Failure {
        Failure(file: file, keyPath: keyPath(key), problem: problem)
    }

    /// The member `key`, or nil when the object has none.
    public subscript(key: String) -> JSONField<Failure>? {
        members.first { $0.0 == key }.map { JSONField($0.1, at: keyPath($0.0), in: file) }
    }

    /// The member `key`, which must be there. When it is not, the object "needs \"url\"";
    /// or, given `missing`, the key itself has that problem (`base: is missing`).
    public func required(_ key: String, missing: String? = nil) throws(Failure) -> JSONField<Failure> {
        if let field = self[key] { return field }
        if let missing { throw error(key, missing) }
        throw Failure(file: file, keyPath: path, problem: "needs \"\(key)\"")
    }

    /// Every member in the order written, each with its key.
    public var entries: [(key: String, field: JSONField<Failure>)] {
        members.map { ($0.0, JSONField($0.1, at: keyPath($0.0), in: file)) }
    }

    /// "unknown key (expected one of: on, off, …)", said of `key`.
    public func unknownKey(_ key: String, expected keys: [String]) -> Failure {
        error(key, "unknown key (expected one of: \(keys.joined(separator: ", ")))")
    }

    /// Fails at the first member whose key is not one of `keys`: `unknownKey`, or `problem`
    /// when given.
    public func allowOnly(_ keys: [String], problem: String? = nil) throws(Failure) {
        for (key, _) in members where !keys.contains(key) {
            throw problem.map { error(key, $0) } ?? unknownKey(key, expected: keys)
        }
    }
}
