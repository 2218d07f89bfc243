import SomniqCore
import SomniqLog

/// What a sink is told: an alerted event's start or end, a critical condition of the
/// daemon itself, or (MQTT only) the minute's sound level.
public struct SinkMessage: Sendable {
    public enum Kind: String, Sendable {
        case eventStart = "event_start", eventEnd = "event_end", status, level, test
        /// Last night in three lines (`MorningSummary`): its record holds the title and text.
        case summary = "morning_summary"
    }

    public var kind: Kind
    public var room: String
    /// The sound class of an event; nil for status and level.
    public var soundClass: SoundClass?
    public var tier: Tier
    /// The log record (docs/behaviour.md#the-event-log) with the room added: what exec, webhook and MQTT send.
    public var record: JSONValue
    /// `device_lost`, `input_silent`, … for a status message; `listening` when the room
    /// is heard again after one of `deafness`.
    public var status: LogStatus?
    /// An event's end: when its start was (Unix time), as its `event_start` gave it.
    public var startedAt: Double?

    /// A test notification (`somniq test-alert`), sent at the critical tier so that it
    /// goes wherever an alarm would, and sounds as one does.
    public static func test(room: String, time: String) -> SinkMessage {
        SinkMessage(kind: .test, room: room, soundClass: nil, tier: .critical,
                    record: .object([("v", .number(1)), ("kind", .string("test")), ("room", .string(room)), ("time", .string(time))]))
    }

    /// The room is heard again: good news, said at a lower priority than the loss.
    public var isRecovery: Bool { kind == .status && status == .listening }

    /// Where the event is on the web page, when its public address is configured.
    public var link: String? { record["link"]?.stringValue }

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
        case .summary: return record["title"]?.stringValue ?? "somniq \(room): last night"
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
        switch kind {
        case .eventStart:
            let when = time("onset_time").map { " at \(WallClock.localTimeWithZone($0))" } ?? ""
            let trace = record["trace"].map(LogRecord.Trace.init)
            var s = "\(what) in \(room)\(when)" + (EventWords.loudness(trace: trace).map { ": \($0)." } ?? ".")
            if let h = trace?.home, let c = soundClass {
                let memory = EventWords.home(h, c)
                s += " " + memory.prefix(1).uppercased() + memory.dropFirst() + "."
            }
            s += " " + EventWords.todo(tier).dropLast() + "; somniq tells you when it stops."
            return s + (link.map { "\nListen to it and mark it right or not this: \($0)" } ?? "")
        case .eventEnd:
            let seconds = max(0, (record["offset_s"]?.numberValue ?? 0) - (record["onset_s"]?.numberValue ?? 0))
            let lasted = TextReport.duration(seconds)
            let cut = record["truncated"] == .bool(true) ? " somniq stopped listening before it ended." : ""
            switch (startedAt, time("offset_time")) {
            case let (from?, to?):
                return "\(what) in \(room) has stopped: heard from \(WallClock.localTime(from, seconds: true)) to \(WallClock.localTimeWithZone(to)) (\(lasted)).\(cut)"
            case let (nil, to?):
                return "\(what) in \(room) has stopped at \(WallClock.localTimeWithZone(to)), after \(lasted).\(cut)"
            default:
                return "\(what) in \(room) has stopped after \(lasted).\(cut)"
            }
        case .status where isRecovery:
            let unheard = record["unheard_s"]?.numberValue ?? 0
            let when = time("time").map { " at \(WallClock.localTimeWithZone($0))" } ?? ""
            return "somniq in \(room) hears the room again\(when); it was not heard for \(TextReport.duration(unheard))."
        case .status:
            return "somniq in \(room) cannot hear: \(status.map(statusText) ?? "")"
        case .level:
            return "sound level in \(room)"
        case .test:
            return "somniq in \(room): a test notification; somniq's alerts from this room reach you here"
        case .summary:
            return (record["text"]?.stringValue ?? "") + (link.map { "\n\($0)" } ?? "")
        }
    }

    /// The Unix time of a member of the record (`onset_time`, `time`).
    private func time(_ key: String) -> Double? { record[key]?.stringValue.flatMap(WallClock.parse) }

    /// A condition of the daemon: what happened, since when, what somniq does, what to do.
    func statusText(_ status: LogStatus) -> String {
        let now = time("time")
        let seconds = record["seconds"]?.numberValue
        let check = "Check the microphone's cable, then run `somniq devices` on the box to see whether it is there."
        switch status {
        case .deviceLost:
            let retry = record["retry_s"]?.numberValue.map { String(cFormat: " every %.0f s", $0) } ?? ""
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
            return status.rawValue.replacing("_", with: " ") + "."
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
