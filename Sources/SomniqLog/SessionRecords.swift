import SomniqCore

extension LogRecord {
    /// `session_start`: where the audio comes from, the profile and learned rules in force.
    public struct SessionStart: Sendable, Equatable {
        /// Where the audio came from.
        public enum Source: Sendable, Equatable {
            case file(path: String, sampleRate: Int?, channels: Int?, format: String?)
            case device(name: String)
            /// A source of another `type`, or one without its path or device.
            case other(JSONValue)

            /// The file's path or the device's name.
            public var name: String? {
                switch self {
                case let .file(path, _, _, _): path
                case let .device(name): name
                case let .other(json): json.string("path") ?? json.string("device")
                }
            }
        }

        /// The learned rules in use: their trees' SHA-256 (as their file records it) and the
        /// classes they decide.
        public struct Learned: Sendable, Equatable {
            public var sha256: String?
            public var decides: [String]
        }

        public var source: Source?
        public var profile: String?
        public var profileSHA256: String?
        public var version: String?
        public var sampleRate: Int?
        public var frameRate: Double?
        public var learned: Learned?
        /// ISO 8601 UTC (live sessions, and replays given a start).
        public var startTime: String?

        public init(source: Source, profile: Profile, version: String, learned: LearnedRules? = nil, startTime: String? = nil) {
            self.source = source
            self.profile = profile.name
            profileSHA256 = profile.sha256
            self.version = version
            sampleRate = StreamClock.sampleRate
            frameRate = StreamClock.frameRate
            self.learned = learned.map { l in
                Learned(sha256: l.digest, decides: LearnedRules.candidates.filter { l.decides($0) }.map(\.rawValue))
            }
            self.startTime = startTime
        }

        init(_ r: JSONValue) {
            if let s = r["source"] {
                switch (s.string("type"), s.string("path"), s.string("device")) {
                case let ("file", path?, _):
                    source = .file(path: path, sampleRate: s.int("input_rate"), channels: s.int("input_channels"),
                                   format: s.string("input_format"))
                case let ("device", _, name?): source = .device(name: name)
                default: source = .other(s)
                }
            }
            profile = r.string("profile")
            profileSHA256 = r.string("profile_sha256")
            version = r.string("version")
            sampleRate = r.int("sample_rate")
            frameRate = r.number("frame_rate")
            if let l = r["learned_rules"] {
                learned = Learned(sha256: l.string("sha256"), decides: l.strings("decides") ?? [])
            }
            startTime = r.string("start_time")
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = []
            switch source {
            case let .file(path, rate, channels, format)?:
                var s: [(String, JSONValue)] = [("type", .string("file")), ("path", .string(path))]
                s.append("input_rate", rate.map { .number(Double($0)) })
                s.append("input_channels", channels.map { .number(Double($0)) })
                s.append("input_format", format.map(JSONValue.string))
                m.append(("source", .object(s)))
            case let .device(name)?: m.append(("source", .object([("type", .string("device")), ("device", .string(name))])))
            case let .other(json)?: m.append(("source", json))
            case nil: break
            }
            m.append("profile", profile.map(JSONValue.string))
            m.append("profile_sha256", profileSHA256.map(JSONValue.string))
            m.append("version", version.map(JSONValue.string))
            m.append("sample_rate", sampleRate.map { .number(Double($0)) })
            m.append("frame_rate", frameRate.map(JSONValue.number))
            if let learned {
                m.append(("learned_rules", .object([("sha256", learned.sha256.map(JSONValue.string) ?? .null),
                                                    ("decides", .array(learned.decides.map(JSONValue.string)))])))
            }
            m.append("start_time", startTime.map(JSONValue.string))
            return m
        }
    }

    /// Why a session ended.
    public enum EndReason: String, Sendable, CaseIterable {
        /// A replayed file was read to its end.
        case endOfFile = "end_of_file"
        /// A replayed file broke off (`error` says how).
        case decodeError = "decode_error"
        /// SIGTERM or SIGINT.
        case signal
        /// `somniq run --seconds` heard what it was asked to.
        case endOfInput = "end_of_input"
        /// The device was lost and never came back.
        case deviceUnavailable = "device_unavailable"
        /// The daemon's listening failed otherwise.
        case error
    }

    /// `session_end`: the session's counts, per class too, and why it ended.
    public struct SessionEnd: Sendable, Equatable {
        /// A class's share of the session.
        public struct Tally: Sendable, Equatable {
            public var events: Int?, alerts: Int?
            public var minutes: Double?
        }

        public var streamSeconds: Double?
        public var events: Int?, alerts: Int?
        /// As written; nil when absent (or a reason this version does not know).
        public var reason: EndReason?
        /// What stopped the stream early (a decode error), in the stream's own words.
        public var error: String?
        /// Classes with an event, in `SoundClass` order (empty when none had one); nil leaves
        /// `classes` out.
        public var classes: [(SoundClass, Tally)]?
        public var endTime: String?

        /// `classes`: by `SoundClass.index`; classes with no event are left out.
        public init(streamSeconds: Double, events: Int, alerts: Int, reason: EndReason, classes: [ClassTally] = [],
                    endTime: String? = nil, error: String? = nil) {
            self.streamSeconds = streamSeconds.asLogged()
            self.events = events
            self.alerts = alerts
            self.reason = reason
            self.error = error
            self.classes = classes.isEmpty ? nil : SoundClass.allCases.compactMap { c in
                let t = classes[c.index]
                return t.events > 0 ? (c, Tally(events: t.events, alerts: t.alerts, minutes: (t.seconds / 60).asLogged(2))) : nil
            }
            self.endTime = endTime
        }

        init(_ r: JSONValue) {
            streamSeconds = r.number("stream_s")
            events = r.int("events")
            alerts = r.int("alerts")
            reason = r.string("reason").flatMap(EndReason.init(rawValue:))
            error = r.string("error")
            if case let .object(members)? = r["classes"] {
                classes = members.compactMap { name, t in
                    SoundClass(rawValue: name).map { ($0, Tally(events: t.int("events"), alerts: t.int("alerts"), minutes: t.number("minutes"))) }
                }
            }
            endTime = r.string("end_time")
        }

        var members: [(String, JSONValue)] {
            var m: [(String, JSONValue)] = []
            m.append("stream_s", streamSeconds.map { .rounded($0) })
            m.append("events", events.map { .number(Double($0)) })
            m.append("alerts", alerts.map { .number(Double($0)) })
            m.append("reason", reason.map { .string($0.rawValue) })
            m.append("error", error.map(JSONValue.string))
            if let classes {
                m.append(("classes", .object(classes.map { c, t in
                    var tally: [(String, JSONValue)] = []
                    tally.append("events", t.events.map { .number(Double($0)) })
                    tally.append("alerts", t.alerts.map { .number(Double($0)) })
                    tally.append("minutes", t.minutes.map { .rounded($0, 2) })
                    return (c.rawValue, .object(tally))
                })))
            }
            m.append("end_time", endTime.map(JSONValue.string))
            return m
        }

        public static func == (a: SessionEnd, b: SessionEnd) -> Bool {
            a.streamSeconds == b.streamSeconds && a.events == b.events && a.alerts == b.alerts && a.reason == b.reason
                && a.error == b.error && a.endTime == b.endTime
                && a.classes?.count == b.classes?.count
                && zip(a.classes ?? [], b.classes ?? []).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }
}
