/// Whether each labelled smoke alarm was found, how early or late, and as how many events;
/// and the smoke alarms raised where none sounded. An alarm is found when a `smoke_alarm`
/// detection starts within `tolerance` of its labelled onset (or while it sounds, once the
/// label has begun); every detection that overlaps the label counts towards its events, so
/// an alarm split into pieces shows as more than one.
public struct AlarmCheck: Sendable, Equatable {
    public struct Alarm: Sendable, Equatable {
        public var file: String
        public var onset: Double
        /// Detected onset minus labelled onset, or nil when the alarm was missed.
        public var latency: Double?
        /// Detections overlapping the label.
        public var events: Int
    }

    /// Seconds from the labelled onset within which a detection counts as finding it.
    public static let tolerance = 4.0
    public static let label = SoundClass.smokeAlarm.rawValue

    public private(set) var alarms: [Alarm] = []
    /// Smoke-alarm detections that overlap no labelled alarm.
    public private(set) var falseAlarms = 0

    public init() {}

    public mutating func add(file: String, reference: [LabeledEvent], estimated: [LabeledEvent]) {
        let refs = reference.filter { $0.label == Self.label }
        let found = estimated.filter { $0.label == Self.label }
        for r in refs {
            let overlapping = found.filter { $0.onset < r.offset && $0.offset > r.onset }
            let first = found.first { $0.onset >= r.onset - Self.tolerance && $0.onset <= min(r.offset, r.onset + Self.tolerance) }
            alarms.append(Alarm(file: file, onset: r.onset, latency: first.map { $0.onset - r.onset }, events: overlapping.count))
        }
        falseAlarms += found.filter { e in !refs.contains { $0.onset < e.offset && $0.offset > e.onset } }.count
    }

    public var missed: Int { alarms.filter { $0.latency == nil }.count }
    /// Alarms found but reported as more than one event.
    public var split: Int { alarms.filter { $0.latency != nil && $0.events > 1 }.count }
}
