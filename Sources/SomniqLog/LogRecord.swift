import SomniqCore

/// One line of the JSON Lines event log (docs/event-log.md; its schema is
/// schemas/event-log.schema.json). Every writer builds one of these and every reader reads
/// one: `json` is the one encoding of a record, `init(json:)` the one decoding, so that
/// a record's keys, their order and their rounding are written down in this module alone.
///
/// What somniq writes has every field its kind says. A log may hold less (a hand edit, a
/// damaged line, an older version): decoding then keeps what is there, and leaves out
/// what is not (nil), so each reader decides what it can do without.
public enum LogRecord: Sendable, Equatable {
    case sessionStart(SessionStart)
    case eventStart(EventStart)
    case eventEnd(EventEnd)
    case level(Level)
    case status(Status)
    case sessionEnd(SessionEnd)
    case episode(Episode)
    case episodeRemoved(EpisodeRemoved)
    case label(Label)
    case morningSummary(MorningSummary)

    /// `"v"` of every record.
    public static let version = 1

    /// The record's `kind`.
    public enum Kind: String, Sendable, CaseIterable {
        case sessionStart = "session_start", eventStart = "event_start", eventEnd = "event_end", level, status
        case sessionEnd = "session_end", episode, episodeRemoved = "episode_removed", label
        case morningSummary = "morning_summary"
    }

    public var kind: Kind {
        switch self {
        case .sessionStart: .sessionStart
        case .eventStart: .eventStart
        case .eventEnd: .eventEnd
        case .level: .level
        case .status: .status
        case .sessionEnd: .sessionEnd
        case .episode: .episode
        case .episodeRemoved: .episodeRemoved
        case .label: .label
        case .morningSummary: .morningSummary
        }
    }

    /// A line that is a record (an object with a `kind`) this version does not read: a kind
    /// it does not know, a status it does not know, or a record without what its kind needs
    /// (an event with no `id`, a level with no `start_s`).
    public struct Unread: Error, Sendable, Equatable {
        /// The line's `kind`, as written.
        public var kind: String
    }

    /// The record as the log keeps it.
    public var json: JSONValue {
        let members: [(String, JSONValue)] = switch self {
        case let .sessionStart(r): r.members
        case let .eventStart(r): r.members
        case let .eventEnd(r): r.members
        case let .level(r): r.members
        case let .status(r): r.members
        case let .sessionEnd(r): r.members
        case let .episode(r): r.members
        case let .episodeRemoved(r): r.members
        case let .label(r): r.members
        case let .morningSummary(r): r.members
        }
        return .object([("v", .number(Double(Self.version))), ("kind", .string(kind.rawValue))] + members)
    }

    /// The record as one line of the log (without its newline).
    public var line: String { json.compactText }

    /// Reads a record of the log. Throws `Unread` for a record this version does not read;
    /// `json` is known to be an object with a string `kind` (`LogReader` skips other lines).
    public init(json r: JSONValue) throws(Unread) {
        let kind = r["kind"]?.stringValue ?? ""
        let decoded: LogRecord? = switch Kind(rawValue: kind) {
        case .sessionStart: .sessionStart(SessionStart(r))
        case .eventStart: EventStart(r).map(LogRecord.eventStart)
        case .eventEnd: EventEnd(r).map(LogRecord.eventEnd)
        case .level: Level(r).map(LogRecord.level)
        case .status: Status(r).map(LogRecord.status)
        case .sessionEnd: .sessionEnd(SessionEnd(r))
        case .episode: .episode(Episode(r))
        case .episodeRemoved: .episodeRemoved(EpisodeRemoved(r))
        case .label: .label(Label(r))
        case .morningSummary: .morningSummary(MorningSummary(r))
        case nil: nil
        }
        guard let decoded else { throw Unread(kind: kind) }
        self = decoded
    }

    /// Reads a line of the log: nil when it is not JSON or has no `kind`, else as `init(json:)`.
    public static func parse(_ line: String) -> LogLine? {
        guard let json = try? JSONValue(parsing: line), json["kind"]?.stringValue != nil else { return nil }
        do { return .success(try LogRecord(json: json)) } catch { return .failure(error) }
    }
}

/// A line of the log that is a record (an object with a `kind`): read, or one this version
/// does not read.
public typealias LogLine = Result<LogRecord, LogRecord.Unread>

// MARK: reading fields

/// Reading a record's members as what they should be; a member of another type is as
/// good as absent.
extension JSONValue {
    func string(_ key: String) -> String? { self[key]?.stringValue }
    func number(_ key: String) -> Double? { self[key]?.numberValue }
    func int(_ key: String) -> Int? { self[key]?.numberValue.flatMap { Int(exactly: $0) } }
    func isTrue(_ key: String) -> Bool { self[key] == .bool(true) }
    func strings(_ key: String) -> [String]? {
        guard case let .array(items)? = self[key] else { return nil }
        let s = items.compactMap(\.stringValue)
        return s.count == items.count ? s : nil
    }
}

extension Double {
    /// The number as the log writes it (`JSONValue.rounded`, `places` decimals), so that a
    /// record built from the pipeline holds what reading its line back gives: every sink
    /// sees the record the log keeps. Not a number, it is left as it is (the log writes null).
    public func asLogged(_ places: Int = 3) -> Double {
        guard isFinite, case let .number(x) = JSONValue.rounded(self, places) else { return self }
        return x
    }
}

/// Writing optional members: nil leaves the member out.
extension Array where Element == (String, JSONValue) {
    mutating func append(_ key: String, _ value: JSONValue?) {
        if let value { append((key, value)) }
    }
}
