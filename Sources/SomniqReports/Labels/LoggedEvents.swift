import FoundationEssentials
import SomniqCore
import SomniqLog
import SomniqSupport

/// The events of one or more logs as `somniq label` and `somniq learn --home` need them:
/// the night each belongs to, its times in its session's stream, and where its sound is
/// (the replayed recording, or its kept clip), with the labels given to them. One pass
/// over each log, every other record ignored.
public struct LoggedEvents: Sendable {
    public struct Event: Sendable, Equatable {
        public var id: String
        /// The night's key, as reports name it: the evening's date, or a replay's path.
        public var night: String
        public var soundClass: SoundClass
        public var alert: Bool
        /// Seconds into its session's stream (the recording's own time for a replay).
        public var onset: Double, offset: Double
        /// The replayed recording, for a session whose source was a file.
        public var recording: String?
        /// The file its sound was kept in, when it keeps one.
        public var clip: String?
        /// Unix time of its onset, in a session with wall-clock times.
        public var time: Double?
        /// When it was confirmed, seconds into its session's stream (its trace's `confirmed_s`).
        public var confirmed: Double?

        /// Its onset as a home memory names it (`HomeMemory.Entry.at`): ISO 8601, or nil
        /// for a recording with no start time.
        public var at: String? { time.map { WallClock.iso8601(Date(timeIntervalSince1970: $0)) } }
    }

    /// An event left out because a number of its records cannot be its own (a damaged,
    /// edited or crafted log): said by id, with why, so that `somniq learn --home` can say
    /// which labelled events it skipped.
    public struct Refused: Sendable, Equatable {
        public var id: String
        public var night: String
        public var soundClass: SoundClass
        /// `its trace's confirmed_s (2.5) is before its onset_s (5)`.
        public var why: String
    }

    public private(set) var events: [Event] = []
    public private(set) var labels = LabelBook()
    /// The events left out, in the order read.
    public private(set) var refused: [Refused] = []

    /// Reads `logs` in turn; a log that cannot be read throws (`ReportError`).
    public init(logs: [String]) throws(ReportError) {
        for path in logs {
            let reader = try LogReader(path: path)
            var night = "", recording: String?, start: Double?
            var open: [String: Event] = [:]
            while let line = reader.next() {
                labels.add(line)
                guard case let .success(r) = line else { continue }
                switch r {
                case let .sessionStart(s):
                    start = s.startTime.flatMap(WallClock.parse)
                    if case let .file(path, _, _, _)? = s.source { recording = path } else { recording = nil }
                    night = start.map(WallClock.night) ?? recording ?? s.source?.name ?? "?"
                case let .eventStart(e):
                    let onset = e.onset.flatMap { LogRanges.seconds.contains($0) ? $0 : nil }
                    let time = e.onsetTime.flatMap(WallClock.parse) ?? onset.flatMap { o in start.map { $0 + o } }
                    // A live session's event belongs to the night of its onset (sessions run on past noon).
                    let key = recording == nil ? time.map(WallClock.night) ?? night : night
                    if let why = Self.problem(onset: e.onset, confirmed: e.trace?.confirmed) {
                        refused.append(Refused(id: e.id, night: key, soundClass: e.soundClass, why: why))
                        break
                    }
                    guard let onset else { break }
                    open[e.id] = Event(id: e.id, night: key, soundClass: e.soundClass, alert: e.alert, onset: onset, offset: onset,
                                       recording: recording, clip: nil, time: time, confirmed: e.trace?.confirmed)
                case let .eventEnd(end):
                    guard var e = open.removeValue(forKey: end.id) else { break }
                    guard let offset = end.offset, Self.problem(offset: offset, onset: e.onset) == nil else {
                        refused.append(Refused(id: e.id, night: e.night, soundClass: e.soundClass,
                                               why: Self.problem(offset: end.offset, onset: e.onset) ?? ""))
                        break
                    }
                    e.offset = offset
                    e.clip = end.clip
                    events.append(e)
                case .sessionEnd:
                    events += open.values.sorted { $0.onset < $1.onset }
                    open.removeAll()
                default:
                    break
                }
            }
            try reader.finish()
            events += open.values.sorted { $0.onset < $1.onset }
        }
    }

    /// Why an event's onset and confirmation cannot be its own, or nil: each must be
    /// seconds into a session (0 to a year; not NaN, not negative), and it cannot be
    /// confirmed before its onset. Its windows are counted from these numbers.
    package static func problem(onset: Double?, confirmed: Double?) -> String? {
        guard let onset else { return "its onset_s is missing" }
        guard LogRanges.seconds.contains(onset) else { return "its onset_s (\(JSONValue.format(onset))) is not seconds into a session (0 to a year)" }
        guard let confirmed else { return nil }
        guard LogRanges.seconds.contains(confirmed) else {
            return "its trace's confirmed_s (\(JSONValue.format(confirmed))) is not seconds into a session (0 to a year)"
        }
        guard confirmed >= onset else {
            return "its trace's confirmed_s (\(JSONValue.format(confirmed))) is before its onset_s (\(JSONValue.format(onset)))"
        }
        return nil
    }

    /// Why an event's offset cannot be its own, or nil: seconds into a session, not
    /// before its onset.
    package static func problem(offset: Double?, onset: Double) -> String? {
        guard let offset else { return "its event_end has no offset_s" }
        guard LogRanges.seconds.contains(offset) else { return "its offset_s (\(JSONValue.format(offset))) is not seconds into a session (0 to a year)" }
        guard offset >= onset else { return "its offset_s (\(JSONValue.format(offset))) is before its onset_s (\(JSONValue.format(onset)))" }
        return nil
    }

    /// The events with id `id` (of `night`, when given): more than one when replays without
    /// a start time reused it.
    public func find(_ id: String, night: String? = nil) -> [Event] {
        events.filter { $0.id == id && (night == nil || $0.night == night) }
    }

    /// The label in force for `e`, if any.
    public func label(of e: Event) -> EventLabel? { labels.label(night: e.night, id: e.id) }
}
