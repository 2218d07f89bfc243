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
    /// Whether it is sent the morning summary: a webhook or MQTT sink unless
    /// `"morning_summary": false`, an exec sink only with `true` (its program was written
    /// for alerts).
    public var morningSummary = true

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
    static let commonKeys = ["type", "name", "min_tier", "classes", "max_per_minute", "queue", "morning_summary"]

    /// Parses one of `"sinks"`; errors name the key path (`sinks[1].url`).
    static func parse(_ field: JSONField<ConfigError>) throws(ConfigError) -> SinkConfig {
        let fields = try field.object("must be an object with a \"type\"")
        let type = try fields.required("type").text()
        let kind: Kind
        let keys: [String]
        switch type {
        case "exec":
            keys = ["command", "timeout_s"]
            let command = try fields.required("command").strings()
            guard command[0].hasPrefix("/") else {
                throw fields.error("command", "must start with the program's absolute path (it is run without a shell)")
            }
            kind = .exec(Exec(command: command, timeoutSeconds: try fields.timeout() ?? 10))
        case "webhook":
            keys = ["url", "format", "headers", "timeout_s"]
            let url = try fields.required("url").text()
            guard url.hasPrefix("http://") || url.hasPrefix("https://"), !url.contains(where: { $0.isWhitespace }) else {
                throw fields.error("url", "\"\(url)\" must be an http:// or https:// URL")
            }
            var w = Webhook(url: url)
            if let f = try fields["format"]?.text() {
                guard let format = Webhook.Format(rawValue: f) else { throw fields.error("format", "\"\(f)\" must be json or ntfy") }
                w.format = format
            }
            w.headers = try fields["headers"]?.headers() ?? [:]
            w.timeoutSeconds = try fields.timeout() ?? 10
            kind = .webhook(w)
        case "mqtt":
            keys = ["host", "port", "username", "password", "ca_file", "cert_file", "key_file", "topic_prefix",
                    "discovery", "discovery_prefix", "keepalive_s"]
            var m = MQTT()
            m.host = try fields["host"]?.text() ?? m.host
            m.caFile = try fields["ca_file"]?.text()
            m.port = try fields["port"]?.integer(in: 1...65535) ?? (m.caFile == nil ? 1883 : 8883)
            m.username = try fields["username"]?.text()
            m.password = try fields["password"]?.text()
            m.certFile = try fields["cert_file"]?.text()
            m.keyFile = try fields["key_file"]?.text()
            if (m.certFile == nil) != (m.keyFile == nil) { throw fields.error("cert_file", "cert_file and key_file go together") }
            if m.certFile != nil, m.caFile == nil { throw fields.error("ca_file", "a client certificate needs TLS: set ca_file") }
            m.topicPrefix = try fields["topic_prefix"]?.safeName() ?? m.topicPrefix
            m.discovery = try fields["discovery"]?.bool() ?? true
            m.discoveryPrefix = try fields["discovery_prefix"]?.safeName() ?? m.discoveryPrefix
            // Under 5 s the broker hears of little but pings; over an hour a lost broker
            // goes unnoticed all that time.
            m.keepaliveSeconds = try fields["keepalive_s"]?.integer(in: 5...3600) ?? 60
            kind = .mqtt(m)
        default:
            throw fields.error("type", "\"\(type)\" is not a sink type (expected exec, webhook or mqtt)")
        }
        try fields.allowOnly(commonKeys + keys,
                             problem: "unknown key for a \(type) sink (expected: \((commonKeys + keys).joined(separator: ", ")))")
        var sink = SinkConfig(name: type, kind: kind)
        if let name = try fields["name"]?.safeName() { sink.name = name }
        sink.minTier = try fields["min_tier"]?.tier() ?? sink.minTier
        sink.classes = try fields["classes"]?.classes()
        // One a minute at least, or nothing but critical alerts would pass; 600 is ten a
        // second, more than any phone shows.
        sink.maxPerMinute = try fields["max_per_minute"]?.integer(in: 1...600) ?? sink.maxPerMinute
        // 100,000 waiting notifications is days of a busy night: more is memory, not delivery.
        sink.queueSize = try fields["queue"]?.integer(in: 1...100_000) ?? sink.queueSize
        sink.morningSummary = try fields["morning_summary"]?.bool() ?? (type != "exec")
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

private extension JSONFields where Failure == ConfigError {
    /// `timeout_s`: a delivery gets from 0.1 s (less cannot start a process or open a
    /// connection) to 300 s (longer, and notifications back up behind a dead peer).
    func timeout() throws(ConfigError) -> Double? {
        try self["timeout_s"]?.number(in: 0.1...300, unit: "seconds")
    }
}

private extension JSONField where Failure == ConfigError {
    /// A webhook's `headers`: an object of header names (tokens) to values without control
    /// characters; errors name the header (`sinks[0].headers.X-Title`).
    func headers() throws(ConfigError) -> [String: String] {
        guard case let .object(members) = value else { throw error("must be an object of header names to values") }
        var out: [String: String] = [:]
        for (name, header) in JSONFields<ConfigError>(members: members, path: keyPath, file: file).entries {
            guard case let .string(s) = header.value else { throw header.error("must be a string") }
            let token = !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
            guard token, !s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw header.error("a header name is a token and a value has no control characters")
            }
            out[name] = s
        }
        return out
    }
}
