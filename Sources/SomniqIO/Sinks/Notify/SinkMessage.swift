import SomniqCore

/// What a sink is told: an alerted event's start or end, a critical condition of the
/// daemon itself, or (MQTT only) the minute's sound level.
public struct SinkMessage: Sendable {
    public enum Kind: String, Sendable { case eventStart = "event_start", eventEnd = "event_end", status, level }

    public var kind: Kind
    public var room: String
    /// The sound class of an event; nil for status and level.
    public var soundClass: SoundClass?
    public var tier: Tier
    /// The log record (SPEC §5) with the room added: what exec, webhook and MQTT send.
    public var record: JSONValue
    /// `device_lost`, `input_silent`, … for a status message; `listening` when the room
    /// is heard again after one of `deafness`.
    public var status: String?

    /// The conditions in which somniq hears nothing at all, and that `listening` ends.
    public static let deafness: Set<String> = ["device_lost", "capture_stalled"]

    /// The room is heard again: good news, said at a lower priority than the loss.
    public var isRecovery: Bool { kind == .status && status == "listening" }

    /// A line for people: "smoke alarm in bedroom (critical)".
    public var text: String {
        switch kind {
        case .eventStart:
            return "\(label) in \(room) (\(tier.rawValue))" + (record["onset_time"].flatMap(\.stringValue).map { " at \($0)" } ?? "")
        case .eventEnd:
            let seconds = (record["offset_s"]?.numberValue ?? 0) - (record["onset_s"]?.numberValue ?? 0)
            return "\(label) in \(room) stopped after \(Int(seconds.rounded())) s"
        case .status where isRecovery:
            let unheard = record["unheard_s"]?.numberValue ?? 0
            return "somniq in \(room): listening again; the room was not heard for \(TextReport.duration(unheard))"
        case .status:
            return "somniq in \(room): \(Self.statusText(status ?? ""))"
        case .level:
            return "sound level in \(room)"
        }
    }

    /// "smoke alarm", "baby cry", or the status's name.
    public var label: String { soundClass.map { $0.rawValue.replacing("_", with: " ") } ?? (status ?? kind.rawValue) }

    static func statusText(_ status: String) -> String {
        switch status {
        case "device_lost": "the microphone is gone; somniq cannot hear the room"
        case "capture_stalled": "the microphone sends no audio (a stuck device or sound server?); somniq cannot hear the room"
        case "input_silent": "the microphone is silent (muted or unplugged?); somniq cannot hear the room"
        case "clipping": "the microphone is clipping; lower its capture gain"
        default: status.replacing("_", with: " ")
        }
    }
}

extension JSONValue {
    var stringValue: String? { if case let .string(s) = self { s } else { nil } }
    var numberValue: Double? { if case let .number(n) = self { n } else { nil } }

    /// This object with one more member (a non-object is returned unchanged).
    func adding(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case var .object(members) = self else { return self }
        members.append((key, value))
        return .object(members)
    }
}
