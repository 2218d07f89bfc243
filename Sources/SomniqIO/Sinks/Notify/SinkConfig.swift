import SomniqCore

/// One entry of `config.json`'s `"sinks"`: where alerts go, and which of them.
public struct SinkConfig: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case exec(Exec)
        case webhook(Webhook)
        case mqtt(MQTT)
    }

    /// A program run (no shell) for each notification, with the record on stdin.
    public struct Exec: Sendable, Equatable {
        public var command: [String]
        public var timeoutSeconds = 10.0
    }

    /// An HTTP(S) POST of the record, or an ntfy message made from it.
    public struct Webhook: Sendable, Equatable {
        public enum Format: String, Sendable { case json, ntfy }
        public var url: String
        public var format = Format.json
        public var headers: [String: String] = [:]
        public var timeoutSeconds = 10.0
    }

    /// A connection to an MQTT broker (libmosquitto), with Home Assistant discovery.
    public struct MQTT: Sendable, Equatable {
        public var host = "127.0.0.1"
        public var port = 1883
        public var username: String?
        public var password: String?
        /// TLS is on when `caFile` is set.
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?
        public var topicPrefix = "somniq"
        public var discovery = true
        public var discoveryPrefix = "homeassistant"
        public var keepaliveSeconds = 60
    }

    public var name: String
    public var kind: Kind
    /// The least tier that is sent: `high` sends critical and high alerts.
    public var minTier = Tier.low
    /// Only these classes, when set; the daemon's own critical conditions always pass.
    public var classes: Set<SoundClass>?
    /// At most this many event starts a minute; critical ones are never held back.
    public var maxPerMinute = 6
    /// Notifications waiting while the endpoint is slow or down; the oldest gives way.
    public var queueSize = 256

    public var typeName: String {
        switch kind {
        case .exec: "exec"
        case .webhook: "webhook"
        case .mqtt: "mqtt"
        }
    }

    /// Whether a sound event of `soundClass` at `tier` is for this sink.
    public func admits(_ soundClass: SoundClass, tier: Tier) -> Bool {
        tier <= minTier && (classes?.contains(soundClass) ?? true)
    }
}

/// A name safe in an MQTT topic, a Home Assistant object id and a Prometheus label:
/// letters, digits, `-` and `_`.
enum SafeName {
    static func isValid(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64 && s.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
        }
    }
}

extension SinkConfig {
    static let commonKeys = ["type", "name", "min_tier", "classes", "max_per_minute", "queue"]

    /// Parses `sinks[index]`; errors name the key path (`sinks[1].url`).
    static func parse(_ value: JSONValue, index: Int, file: String) throws(ConfigError) -> SinkConfig {
        let at = "sinks[\(index)]"
        guard case let .object(members) = value else {
            throw ConfigError(file: file, keyPath: at, problem: "must be an object with a \"type\", not \(value.typeName)")
        }
        let fields = Fields(members: members, path: at, file: file)
        let type = try fields.string("type", required: true)!
        let kind: Kind
        let keys: [String]
        switch type {
        case "exec":
            keys = ["command", "timeout_s"]
            let command = try fields.strings("command")
            guard command[0].hasPrefix("/") else {
                throw fields.error("command", "must start with the program's absolute path (it is run without a shell)")
            }
            kind = .exec(Exec(command: command, timeoutSeconds: try fields.timeout() ?? 10))
        case "webhook":
            keys = ["url", "format", "headers", "timeout_s"]
            let url = try fields.string("url", required: true)!
            guard url.hasPrefix("http://") || url.hasPrefix("https://"), !url.contains(where: { $0.isWhitespace }) else {
                throw fields.error("url", "\"\(url)\" must be an http:// or https:// URL")
            }
            var w = Webhook(url: url)
            if let f = try fields.string("format") {
                guard let format = Webhook.Format(rawValue: f) else { throw fields.error("format", "\"\(f)\" must be json or ntfy") }
                w.format = format
            }
            w.headers = try fields.headers("headers")
            w.timeoutSeconds = try fields.timeout() ?? 10
            kind = .webhook(w)
        case "mqtt":
            keys = ["host", "port", "username", "password", "ca_file", "cert_file", "key_file", "topic_prefix",
                    "discovery", "discovery_prefix", "keepalive_s"]
            var m = MQTT()
            m.host = try fields.string("host") ?? m.host
            m.caFile = try fields.string("ca_file")
            m.port = try fields.integer("port", in: 1...65535) ?? (m.caFile == nil ? 1883 : 8883)
            m.username = try fields.string("username")
            m.password = try fields.string("password")
            m.certFile = try fields.string("cert_file")
            m.keyFile = try fields.string("key_file")
            if (m.certFile == nil) != (m.keyFile == nil) { throw fields.error("cert_file", "cert_file and key_file go together") }
            if m.certFile != nil, m.caFile == nil { throw fields.error("ca_file", "a client certificate needs TLS: set ca_file") }
            m.topicPrefix = try fields.safeName("topic_prefix") ?? m.topicPrefix
            m.discovery = try fields.bool("discovery") ?? true
            m.discoveryPrefix = try fields.safeName("discovery_prefix") ?? m.discoveryPrefix
            // Under 5 s the broker hears of little but pings; over an hour a lost broker
            // goes unnoticed all that time.
            m.keepaliveSeconds = try fields.integer("keepalive_s", in: 5...3600) ?? 60
            kind = .mqtt(m)
        default:
            throw fields.error("type", "\"\(type)\" is not a sink type (expected exec, webhook or mqtt)")
        }
        for key in members.map(\.0) where !commonKeys.contains(key) && !keys.contains(key) {
            throw fields.error(key, "unknown key for a \(type) sink (expected: \((commonKeys + keys).joined(separator: ", ")))")
        }
        var sink = SinkConfig(name: type, kind: kind)
        if let name = try fields.safeName("name") { sink.name = name }
        sink.minTier = try fields.tier("min_tier") ?? sink.minTier
        sink.classes = try fields.classes("classes")
        // One a minute at least, or nothing but critical alerts would pass; 600 is ten a
        // second, more than any phone shows.
        sink.maxPerMinute = try fields.integer("max_per_minute", in: 1...600) ?? sink.maxPerMinute
        // 100,000 waiting notifications is days of a busy night: more is memory, not delivery.
        sink.queueSize = try fields.integer("queue", in: 1...100_000) ?? sink.queueSize
        return sink
    }

    /// Gives sinks that share a type distinct names (`webhook`, `webhook-2`), unless named.
    static func nameDistinctly(_ sinks: inout [SinkConfig], file: String) throws(ConfigError) {
        var seen = Set<String>()
        for i in sinks.indices {
            var name = sinks[i].name
            var n = 2
            while seen.contains(name) {
                if name != sinks[i].typeName && !name.hasPrefix(sinks[i].typeName + "-") {
                    throw ConfigError(file: file, keyPath: "sinks[\(i)].name", problem: "\"\(name)\" is used by another sink")
                }
                name = "\(sinks[i].typeName)-\(n)"
                n += 1
            }
            sinks[i].name = name
            seen.insert(name)
        }
    }
}

/// Typed access to one object's members, with errors that name the key path.
struct Fields {
    var members: [(String, JSONValue)]
    var path: String
    var file: String

    func has(_ key: String) -> Bool { members.contains { $0.0 == key } }
    func value(_ key: String) -> JSONValue? { members.first { $0.0 == key }?.1 }
    func error(_ key: String, _ problem: String) -> ConfigError {
        ConfigError(file: file, keyPath: "\(path).\(key)", problem: problem)
    }

    func string(_ key: String, required: Bool = false) throws(ConfigError) -> String? {
        guard let v = value(key) else {
            if required { throw ConfigError(file: file, keyPath: path, problem: "needs \"\(key)\"") }
            return nil
        }
        guard case let .string(s) = v else { throw error(key, "must be a string, not \(v.typeName)") }
        guard !s.isEmpty else { throw error(key, "must not be empty") }
        if let problem = ConfigText.problem(s) { throw error(key, problem) }
        return s
    }

    func safeName(_ key: String) throws(ConfigError) -> String? {
        guard let s = try string(key) else { return nil }
        guard SafeName.isValid(s) else { throw error(key, "\"\(s)\" may hold only letters, digits, - and _ (at most 64)") }
        return s
    }

    func strings(_ key: String) throws(ConfigError) -> [String] {
        guard let v = value(key) else { throw ConfigError(file: file, keyPath: path, problem: "needs \"\(key)\"") }
        guard case let .array(items) = v, !items.isEmpty else { throw error(key, "must be a non-empty array of strings") }
        var out: [String] = []
        for item in items {
            guard case let .string(s) = item, !s.isEmpty, !s.utf8.contains(0) else {
                throw error(key, "must be a non-empty array of non-empty strings")
            }
            out.append(s)
        }
        return out
    }

    func headers(_ key: String) throws(ConfigError) -> [String: String] {
        guard let v = value(key) else { return [:] }
        guard case let .object(pairs) = v else { throw error(key, "must be an object of header names to values") }
        var out: [String: String] = [:]
        for (name, value) in pairs {
            guard case let .string(s) = value else { throw error("\(key).\(name)", "must be a string") }
            let token = !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
            guard token, !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw error("\(key).\(name)", "a header name is a token and a value has no control characters")
            }
            out[name] = s
        }
        return out
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let v = value(key) else { return nil }
        let wanted = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        guard case let .number(n) = v else { throw error(key, "must be \(wanted), not \(v.typeName)") }
        // Beyond Int (12345678901234567890123) is out of range too.
        guard n == n.rounded(), let i = Int(exactly: n) else { throw error(key, "\(JSONValue.format(n)) must be \(wanted)") }
        guard range.contains(i) else { throw error(key, "\(i) must be from \(range.lowerBound) to \(range.upperBound)") }
        return i
    }


    /// `timeout_s`: a delivery gets from 0.1 s (less cannot start a process or open a
    /// connection) to 300 s (longer, and notifications back up behind a dead peer).
    func timeout() throws(ConfigError) -> Double? { try number("timeout_s", in: 0.1...300, unit: "seconds") }

    func number(_ key: String, in range: ClosedRange<Double>, unit: String) throws(ConfigError) -> Double? {
        guard let v = value(key) else { return nil }
        guard case let .number(n) = v else { throw error(key, "must be a number of \(unit), not \(v.typeName)") }
        guard range.contains(n) else {
            throw error(key, "\(JSONValue.format(n)) must be from \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound)) \(unit)")
        }
        return n
    }

    func tier(_ key: String) throws(ConfigError) -> Tier? {
        guard let t = try string(key) else { return nil }
        guard let tier = Tier(rawValue: t) else { throw error(key, "\"\(t)\" must be critical, high, medium or low") }
        return tier
    }

    /// A non-empty array of class names; nil when the key is absent.
    func classes(_ key: String) throws(ConfigError) -> Set<SoundClass>? {
        guard has(key) else { return nil }
        var set = Set<SoundClass>()
        for name in try strings(key) {
            guard let c = SoundClass(rawValue: name) else {
                throw error(key, "\"\(name)\" is not a class (see `somniq profiles show balanced`)")
            }
            set.insert(c)
        }
        return set
    }

    func bool(_ key: String) throws(ConfigError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard case let .bool(b) = v else { throw error(key, "must be true or false, not \(v.typeName)") }
        return b
    }
}
