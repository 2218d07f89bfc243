import SomniqCore
import SomniqLog

/// What a sink is told: an alerted event's start or end, a critical condition of the
/// daemon itself, or (MQTT only) the minute's sound level.
public struct SinkMessage: Sendable {
    public enum Kind: String, Sendable { case eventStart = "event_start", eventEnd = "event_end", status, level, test }

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
        }
    }

    /// A line for people, in their time zone: "Cough in nursery at 03:12:08 CET: score
    /// 98 % (alerts from 70 %), 22 dB over the room's background", and the page's link.
    public var text: String {
        switch kind {
        case .eventStart:
            let when = record["onset_time"]?.stringValue.flatMap(WallClock.parse).map { " at \(WallClock.localTimeWithZone($0))" } ?? ""
            return "\(soundClass.map(EventWords.title) ?? label) in \(room)\(when) (\(tier.rawValue)): \(EventWords.why(trace: record["trace"].map(LogRecord.Trace.init), of: soundClass))"
                + (link.map { "\n\($0)" } ?? "")
        case .eventEnd:
            let seconds = (record["offset_s"]?.numberValue ?? 0) - (record["onset_s"]?.numberValue ?? 0)
            return "\(soundClass.map(EventWords.title) ?? label) in \(room) stopped after \(Int(seconds.rounded())) s"
        case .status where isRecovery:
            let unheard = record["unheard_s"]?.numberValue ?? 0
            return "somniq in \(room): listening again; the room was not heard for \(TextReport.duration(unheard))"
        case .status:
            return "somniq in \(room): \(status.map(Self.statusText) ?? "")"
        case .level:
            return "sound level in \(room)"
        case .test:
            return "somniq in \(room): a test notification; somniq's alerts from this room reach you here"
        }
    }

    /// "smoke alarm", "baby cry", or the status's name.
    public var label: String { soundClass.map { $0.rawValue.replacing("_", with: " ") } ?? (status?.rawValue ?? kind.rawValue) }

    static func statusText(_ status: LogStatus) -> String {
        switch status {
        case .deviceLost: "the microphone is gone; somniq cannot hear the room"
        case .captureStalled: "the microphone sends no audio (a stuck device or sound server?); somniq cannot hear the room"
        case .inputSilent: "the microphone is silent (muted or unplugged?); somniq cannot hear the room"
        case .clipping: "the microphone is clipping; lower its capture gain"
        default: status.rawValue.replacing("_", with: " ")
        }
    }
}

extension JSONValue {
    /// This object with one more member (a non-object is returned unchanged).
    func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case var .object(members) = self else { return self }
        members.append((key, value))
        return .object(members)
    }
}
