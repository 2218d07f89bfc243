import SomniqCore
import SomniqLog
import SomniqReports
import SomniqSupport

/// What a sink is told: an alerted event's start or end, a critical condition of the
/// daemon itself, or (MQTT only) the minute's sound level.
public struct SinkMessage: Sendable {
    public enum Kind: String, Sendable {
        case eventStart = "event_start", eventEnd = "event_end", status, level, test
        /// Last night in three lines (`MorningSummary`).
        case summary = "morning_summary"
    }

    public var room: String
    /// The sound class of an event; nil for status and level.
    public var soundClass: SoundClass?
    public var tier: Tier
    /// What it tells of.
    public var subject: Subject
    /// An event's end: when its start was (Unix time), as its `event_start` gave it.
    public var startedAt: Double?
    /// Where the event (an alert's start) or the night (the morning summary) is on the web
    /// page, when its public address is configured.
    public var link: String?

    /// What a message tells of: a record of the event log
    /// (docs/behaviour.md#the-event-log), a test, or last night.
    public enum Subject: Sendable {
        case eventStart(LogRecord.EventStart)
        case eventEnd(LogRecord.EventEnd)
        case status(LogRecord.Status)
        case level(LogRecord.Level)
        /// A test notification, sent at `time` (ISO 8601 UTC).
        case test(time: String)
        /// Last night, summed up at `time` (ISO 8601 UTC).
        case summary(MorningSummary, time: String)
    }

    public init(room: String, soundClass: SoundClass?, tier: Tier, subject: Subject, link: String? = nil) {
        self.room = room
        self.soundClass = soundClass
        self.tier = tier
        self.subject = subject
        self.link = link
    }

    public var kind: Kind {
        switch subject {
        case .eventStart: .eventStart
        case .eventEnd: .eventEnd
        case .status: .status
        case .level: .level
        case .test: .test
        case .summary: .summary
        }
    }

    /// `device_lost`, `input_silent`, … for a status message; `listening` when the room
    /// is heard again after one of `deafness`.
    public var status: LogStatus? {
        guard case let .status(s) = subject else { return nil }
        return s.status
    }

    /// A test notification (`somniq test-alert`), sent at the critical tier so that it
    /// goes wherever an alarm would, and sounds as one does.
    public static func test(room: String, time: String) -> SinkMessage {
        SinkMessage(room: room, soundClass: nil, tier: .critical, subject: .test(time: time))
    }

    /// What exec, webhook and MQTT send: the log record with the room (and an alert's link)
    /// added; a test's or the morning summary's own record.
    public var record: JSONValue {
        let logged: LogRecord
        switch subject {
        case let .eventStart(e): logged = .eventStart(e)
        case let .eventEnd(e): logged = .eventEnd(e)
        case let .status(s): logged = .status(s)
        case let .level(m): logged = .level(m)
        case let .test(time):
            return .object([("v", .number(1)), ("kind", .string("test")), ("room", .string(room)), ("time", .string(time))])
        case let .summary(s, time):
            return s.record(room: room, time: time).json
        }
        let json = logged.json.adding("room", .string(room))
        return link.map { json.adding("link", .string($0)) } ?? json
    }

    /// The id of the event it tells of (or of the event a status names).
    public var eventID: String? {
        switch subject {
        case let .eventStart(e): e.id
        case let .eventEnd(e): e.id
        case let .status(s): s.id
        case .level, .test, .summary: nil
        }
    }

    /// When what it tells of happened (ISO 8601 UTC): an event's onset, else when it was said.
    public var time: String? {
        switch subject {
        case let .eventStart(e): e.onsetTime
        case .eventEnd: nil
        case let .status(s): s.time
        case let .level(m): m.time
        case let .test(time), let .summary(_, time): time
        }
    }

    /// The room is heard again: good news, said at a lower priority than the loss.
    public var isRecovery: Bool { kind == .status && status == .listening }

    /// The notification's title: what, where; urgent for the critical tier.
    public var title: String {
        switch kind {
        case .eventStart, .eventEnd:
            let what = soundClass.map(EventWords.title) ?? label
            return (tier == .critical && kind == .eventStart ? "Urgent: " : "") + "\(what) in \(room)"
                + (kind == .eventEnd ? " has stopped" : "")
        case .status where isRecovery: return "somniq \(room): listening again"
        case .status: return "Urgent: somniq \(room) cannot hear"
        case .level: return "somniq \(room): sound level"
        case .test: return "somniq \(room): test"
        case .summary: return MorningSummary.title(room: room)
        }
    }

    /// What a person reads, in their time zone (the configuration's `time_zone`): what was
    /// heard, where, when, how loud in words, what to do, and the page's link:
    ///
    ///     Smoke alarm in bedroom at 23:11:58 CET: loud, about 22 dB over the room. Check the
    ///     room now; somniq tells you when it stops.
    ///
    /// Every time is the one the log gives the record (`onset_time`, `offset_time`, `time`):
    /// the same as the page, the API and the report show. The score is in the record's trace.
    public var text: String {
        let what = soundClass.map(EventWords.title) ?? label
        switch subject {
        case let .eventStart(e):
            let when = e.onsetTime.flatMap(WallClock.parse).map { " at \(WallClock.localTimeWithZone($0))" } ?? ""
            let trace = e.trace
            var s = "\(what) in \(room)\(when)" + (EventWords.loudness(trace: trace).map { ": \($0)." } ?? ".")
            if let h = trace?.home, let c = soundClass {
                let memory = EventWords.home(h, c)
                s += " " + memory.prefix(1).uppercased() + memory.dropFirst() + "."
            }
            s += " " + EventWords.todo(tier).dropLast() + "; somniq tells you when it stops."
            return s + (link.map { "\nListen to it and mark it right or not this: \($0)" } ?? "")
        case let .eventEnd(e):
            let seconds = max(0, (e.offset ?? 0) - (e.onset ?? 0))
            let lasted = TextReport.duration(seconds)
            let cut = e.truncated ? " somniq stopped listening before it ended." : ""
            switch (startedAt, e.offsetTime.flatMap(WallClock.parse)) {
            case let (from?, to?):
                return "\(what) in \(room) has stopped: heard from \(WallClock.localTime(from, seconds: true)) to \(WallClock.localTimeWithZone(to)) (\(lasted)).\(cut)"
            case let (nil, to?):
                return "\(what) in \(room) has stopped at \(WallClock.localTimeWithZone(to)), after \(lasted).\(cut)"
            default:
                return "\(what) in \(room) has stopped after \(lasted).\(cut)"
            }
        case let .status(s) where isRecovery:
            let unheard = s.unheardSeconds ?? 0
            let when = s.time.flatMap(WallClock.parse).map { " at \(WallClock.localTimeWithZone($0))" } ?? ""
            return "somniq in \(room) hears the room again\(when); it was not heard for \(TextReport.duration(unheard))."
        case let .status(s):
            return "somniq in \(room) cannot hear: \(statusText(s))"
        case .level:
            return "sound level in \(room)"
        case .test:
            return "somniq in \(room): a test notification; somniq's alerts from this room reach you here"
        case let .summary(s, _):
            return s.lines.joined(separator: "\n") + (link.map { "\n\($0)" } ?? "")
        }
    }

    /// A condition of the daemon (its `status` record): what happened, since when, what
    /// somniq does, what to do.
    func statusText(_ s: LogRecord.Status) -> String {
        let now = s.time.flatMap(WallClock.parse)
        let seconds = s.seconds
        let check = "Check the microphone's cable, then run `somniq devices` on the box to see whether it is there."
        switch s.status {
        case .deviceLost:
            let retry = s.retrySeconds.map { String(cFormat: " every %.0f s", $0) } ?? ""
            return "the microphone is gone" + (now.map { " (\(WallClock.localTimeWithZone($0)))" } ?? "")
                + ". somniq tries to open it again\(retry) and tells you when it hears the room again. " + check
        case .captureStalled:
            let since = now.map { t in " since \(WallClock.localTimeWithZone(t - (seconds ?? 0)))" } ?? ""
            return "the microphone has sent no audio\(since) (a stuck USB device or sound server?). "
                + "somniq waits for it and tells you when it hears the room again. " + check
        case .inputSilent:
            let since = now.map { t in " since \(WallClock.localTimeWithZone(t - (seconds ?? 0)))" } ?? ""
            return "the microphone has sent only silence\(since): muted, or unplugged? "
                + "Check that it is not muted (alsamixer, its capture switch) and its cable, then run `somniq devices`."
        case .clipping:
            return "the microphone is clipping: the room is louder than it can measure. Lower its capture gain (alsamixer)."
        default:
            return s.status.rawValue.replacing("_", with: " ") + "."
        }
    }

    /// "smoke alarm", "baby cry", or the status's name.
    public var label: String { soundClass.map { $0.rawValue.replacing("_", with: " ") } ?? (status?.rawValue ?? kind.rawValue) }
}

extension JSONValue {
    /// This object with one more member (a non-object is returned unchanged).
    func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case var .object(members) = self else { return self }
        members.append((key, value))
        return .object(members)
    }
}
