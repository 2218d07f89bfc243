import FoundationEssentials
import SomniqCore
import SomniqLog
import SomniqSupport

/// What the listener said of one event (`somniq label`): it was right, it was not this
/// class, it was another class, or something else. Kept in the event log as a `label`
/// record (`LogRecord.Label`, encoded and decoded in SomniqLog as every record is);
/// nothing is rewritten: a later label for the same event wins, and `none` takes the
/// label back (docs/home.md).
///
/// ```
/// {"v":1,"kind":"label","id":"r1795401000-e3","night":"2026-11-22","class":"dog_bark","as":"not","time":"2026-11-23T07:02:11.000Z"}
/// ```
public struct EventLabel: Sendable, Equatable {
    /// The verdict: `right`, `not` (not this class), `other` (something no class names),
    /// a class (it was that), or `none` (the label taken back).
    public enum Verdict: Sendable, Equatable, Hashable {
        case right, not, other, none
        case was(SoundClass)

        public init?(_ text: String) {
            switch text {
            case "right": self = .right
            case "not": self = .not
            case "other": self = .other
            case "none": self = .none
            default:
                guard let c = SoundClass(rawValue: text) else { return nil }
                self = .was(c)
            }
        }

        public var text: String {
            switch self {
            case .right: "right"
            case .not: "not"
            case .other: "other"
            case .none: "none"
            case let .was(c): c.rawValue
            }
        }

        /// Whether the event's class was confirmed (`right`, or a class equal to the event's).
        public func confirms(_ c: SoundClass) -> Bool { self == .right || self == .was(c) }
        /// Whether the event's class was wrong (`not`, `other`, or another class).
        public func denies(_ c: SoundClass) -> Bool {
            switch self {
            case .not, .other: true
            case let .was(d): d != c
            case .right, .none: false
            }
        }

        /// `right`, `not this`, `it was a dog bark`, `something else`, `label taken back`.
        public var words: String {
            switch self {
            case .right: "right"
            case .not: "not this"
            case .other: "something else"
            case .none: "label taken back"
            case let .was(c): "it was " + c.rawValue.replacing("_", with: " ")
            }
        }

        /// Every verdict `--as` takes, for help and errors.
        public static let accepted = "right, not, other, none or a class (" + SoundClass.allCases.map(\.rawValue).joined(separator: ", ") + ")"
    }

    /// The event's id, as its `event_start` names it.
    public var id: String
    /// The night the event belongs to (`2026-11-22`, or a replayed recording's path):
    /// replays without a start time reuse ids (`e1`, `e2`), so the night tells them apart.
    public var night: String
    /// The event's class as logged, so that the history counts labels without the event.
    public var soundClass: SoundClass
    public var verdict: Verdict
    /// Unix time the label was given.
    public var time: Double

    public init(id: String, night: String, soundClass: SoundClass, verdict: Verdict, time: Double) {
        self.id = id
        self.night = night
        self.soundClass = soundClass
        self.verdict = verdict
        self.time = time
    }

    /// The `label` record of the event log (encoded in SomniqLog, as every record is).
    public var record: LogRecord {
        .label(.init(id: id, night: night, soundClass: soundClass, verdict: verdict.text,
                     time: WallClock.iso8601(Date(timeIntervalSince1970: time))))
    }

    /// A `label` record as written, or nil when it is not as `somniq label` writes it (a
    /// hand edit, a damaged line): it is then skipped and counted.
    public init?(record r: LogRecord.Label) {
        guard let id = r.id, !id.isEmpty, id.utf8.count <= 128,
              let night = r.night, !night.isEmpty, night.utf8.count <= 4096,
              let c = r.soundClass.flatMap(SoundClass.init(rawValue:)),
              let verdict = r.verdict.flatMap(Verdict.init),
              let time = r.time.flatMap(WallClock.parse) else { return nil }
        self.init(id: id, night: night, soundClass: c, verdict: verdict, time: time)
    }
}

/// The labels of one or more logs: for each event (night and id) the last label given,
/// wherever in the logs it is (a rotated log's events may be labelled in the next one);
/// `none` takes a label back. Label records that do not read as written are counted.
public struct LabelBook: Sendable {
    private struct Key: Hashable { var night: String, id: String }
    private var latest: [Key: EventLabel] = [:]
    public private(set) var unreadable = 0

    public init() {}

    /// Reads `record` if it is a label; anything else is ignored.
    public mutating func add(_ record: LogRecord) {
        guard case let .label(r) = record else { return }
        guard let label = EventLabel(record: r) else { unreadable += 1; return }
        let key = Key(night: label.night, id: label.id)
        // The later one wins: by the time it was given, then by the order read.
        if let known = latest[key], known.time > label.time { return }
        latest[key] = label
    }

    /// A line of the log (every record that is not a label is passed over).
    public mutating func add(_ line: LogLine) {
        if case let .success(r) = line { add(r) }
    }

    /// The label in force for event `id` of `night`, or nil (none given, or taken back).
    public func label(night: String, id: String) -> EventLabel? {
        guard let l = latest[Key(night: night, id: id)], l.verdict != .none else { return nil }
        return l
    }

    /// Every label in force, oldest given first.
    public var labels: [EventLabel] {
        latest.values.filter { $0.verdict != .none }.sorted { ($0.time, $0.night, $0.id) < ($1.time, $1.night, $1.id) }
    }

    /// The labels in force of `night`'s events, by event id.
    public func of(_ night: String) -> [String: EventLabel] {
        Dictionary(latest.values.filter { $0.night == night && $0.verdict != .none }.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }
}
