/// The records of the JSON Lines event log (docs/behaviour.md#the-event-log), built as ordered JSON so the
/// same session always gives the same bytes. Every record has `"v": 1` and a `kind`.
public enum Records {
    public static let version = 1

    /// Where the audio came from.
    public enum Source: Sendable {
        case file(path: String, sampleRate: Int, channels: Int, format: String)
        case device(name: String)
    }

    /// `learned`: the learned rules in use; the record names them (their trees' SHA-256, as
    /// their file records it) and the classes they decide.
    public static func sessionStart(source: Source, profile: Profile, somniqVersion: String,
                                    startedAt: String? = nil, learned: LearnedRules? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("v", .number(Double(version))), ("kind", .string("session_start"))]
        switch source {
        case let .file(path, rate, channels, format):
            m.append(("source", .object([("type", .string("file")), ("path", .string(path)),
                                         ("input_rate", .number(Double(rate))), ("input_channels", .number(Double(channels))),
                                         ("input_format", .string(format))])))
        case let .device(name):
            m.append(("source", .object([("type", .string("device")), ("device", .string(name))])))
        }
        m.append(("profile", .string(profile.name)))
        m.append(("profile_sha256", .string(profile.sha256)))
        m.append(("version", .string(somniqVersion)))
        m.append(("sample_rate", .number(Double(StreamClock.sampleRate))))
        m.append(("frame_rate", .number(StreamClock.frameRate)))
        if let learned {
            m.append(("learned_rules", .object([
                ("sha256", learned.digest.map(JSONValue.string) ?? .null),
                ("decides", .array(LearnedRules.candidates.filter { learned.decides($0) }.map { .string($0.rawValue) })),
            ])))
        }
        if let startedAt { m.append(("start_time", .string(startedAt))) }
        return .object(m)
    }

    /// A class's share of a session: events, alerts, and seconds its events lasted.
    public struct ClassTally: Sendable, Equatable {
        public var events = 0, alerts = 0
        public var seconds = 0.0
        public init() {}

        /// Counts a confirmed event, and its alert unless it was held back.
        public mutating func count(_ e: EventStart) {
            events += 1
            if e.alert { alerts += 1 }
        }

        /// Adds the length of an event that ended.
        public mutating func count(_ e: EventEnd) { seconds += e.offset - e.onset }
    }

    /// `classes`: by `SoundClass.index`; classes with no event are left out.
    /// `error`: what stopped the stream early (a decode error), in the stream's own words.
    public static func sessionEnd(streamSeconds: Double, events: Int, alerts: Int, reason: String,
                                  classes: [ClassTally] = [], endedAt: String? = nil, error: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [
            ("v", .number(Double(version))), ("kind", .string("session_end")),
            ("stream_s", .rounded(streamSeconds)), ("events", .number(Double(events))),
            ("alerts", .number(Double(alerts))), ("reason", .string(reason)),
        ]
        if let error { m.append(("error", .string(error))) }
        if !classes.isEmpty {
            m.append(("classes", .object(SoundClass.allCases.compactMap { c in
                let t = classes[c.index]
                guard t.events > 0 else { return nil }
                return (c.rawValue, .object([("events", .number(Double(t.events))), ("alerts", .number(Double(t.alerts))),
                                             ("minutes", .rounded(t.seconds / 60, 2))]))
            })))
        }
        if let endedAt { m.append(("end_time", .string(endedAt))) }
        return .object(m)
    }

    /// `time`: maps a stream time to an ISO 8601 UTC wall-clock time (live sessions only).
    public static func eventStart(_ e: EventStart, time: ((Double) -> String)? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [
            ("v", .number(Double(version))), ("kind", .string("event_start")),
            ("id", .string(e.id)), ("class", .string(e.soundClass.rawValue)), ("tier", .string(e.tier.rawValue)),
            ("onset_s", .rounded(e.onset)),
        ]
        if let time { m.append(("onset_time", .string(time(e.onset)))) }
        m.append(("confidence", .rounded(e.confidence)))
        m.append(("alert", .bool(e.alert)))
        m.append(("suppressed", e.suppressed.map(JSONValue.string) ?? .null))
        let t = e.trace
        m.append(("trace", .object([
            ("rule", t.rule.json),
            ("peak_smoothed", .rounded(t.peakSmoothed)),
            ("peak_raw", .rounded(t.peakRaw)),
            ("level_dbfs", .rounded(t.levelDbfs, 1)),
            ("floor_dbfs", .rounded(t.floorDbfs, 1)),
            ("profile", .string(t.profileName)),
            ("profile_sha256", .string(t.profileSHA256)),
        ] + (t.confirmed.map { [("confirmed_s", .rounded($0))] } ?? []) + (t.weights.isEmpty ? [] : [("learned", .array(t.weights.map {
            .object([("input", .string($0.input)), ("value", .rounded($0.value)), ("weight", .rounded($0.weight))])
        }))]))))
        return .object(m)
    }

    /// `clip`: the file the event's sound is being kept in, when it keeps one. The clip is
    /// complete only `post_s` after the end, and written off the audio path, so the path
    /// is a promise: a `clip_skipped` status with the same `id`, later in the log,
    /// withdraws it and says why (no space left, a slow disk).
    public static func eventEnd(_ e: EventEnd, time: ((Double) -> String)? = nil, clip: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [
            ("v", .number(Double(version))), ("kind", .string("event_end")),
            ("id", .string(e.id)), ("class", .string(e.soundClass.rawValue)),
            ("onset_s", .rounded(e.onset)), ("offset_s", .rounded(e.offset)),
        ]
        if let time { m.append(("offset_time", .string(time(e.offset)))) }
        m.append(("peak_dbfs", .rounded(e.peakDbfs, 1)))
        m.append(("confidence", .rounded(e.confidence)))
        m.append(("truncated", .bool(e.truncated)))
        if let clip { m.append(("clip", .string(clip))) }
        return .object(m)
    }

    /// A minute of stream time: its levels (ISO 1996-1 figures in dBFS) and the seconds
    /// each class's events covered in it (classes that sounded only). `time`: the
    /// wall-clock time of the minute's start (live sessions, and replays given a start).
    public static func level(_ m: MinuteLevels.Minute, time: String? = nil) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("v", .number(Double(version))), ("kind", .string("level")),
            ("start_s", .rounded(m.startSeconds)), ("seconds", .rounded(m.seconds)),
        ]
        if let time { fields.append(("time", .string(time))) }
        fields += [
            ("leq_dbfs", .rounded(m.leqDbfs, 1)), ("l10_dbfs", .rounded(m.l10Dbfs, 1)), ("l90_dbfs", .rounded(m.l90Dbfs, 1)),
            ("lmax_dbfs", .rounded(m.maxDbfs, 1)), ("floor_dbfs", .rounded(m.floorDbfs, 1)),
            ("active_s", .object(SoundClass.allCases.compactMap { c in
                m.activeSeconds(c) > 0 ? (c.rawValue, .rounded(m.activeSeconds(c), 1)) : nil
            })),
        ]
        return .object(fields)
    }

    /// A system condition: `listening`, `device_lost`, `input_silent`, `clipping`,
    /// `overrun`, `profile_reloaded`, `profile_rejected`, `log_write_failed`, …
    public static func status(_ status: String, streamSeconds: Double, alert: Bool = false,
                              details: [(String, JSONValue)] = [], time: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [
            ("v", .number(Double(version))), ("kind", .string("status")),
            ("status", .string(status)), ("stream_s", .rounded(streamSeconds)),
        ]
        if let time { m.append(("time", .string(time))) }
        if alert { m.append(("alert", .bool(true))); m.append(("tier", .string(Tier.critical.rawValue))) }
        m.append(contentsOf: details)
        return .object(m)
    }
}
