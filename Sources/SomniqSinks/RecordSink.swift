import SomniqCore
import SomniqLog

/// What a session heard, by class, and why it ended: what `SessionRecord.end` carries
/// (`Session.Summary` to the session).
public struct SessionSummary: Sendable {
    public var streamSeconds = 0.0
    /// Per class, by `SoundClass.index`.
    public var classes = [ClassTally](repeating: .init(), count: SoundClass.allCases.count)
    public var events: Int { classes.reduce(0) { $0 + $1.events } }
    public var alerts: Int { classes.reduce(0) { $0 + $1.alerts } }
    /// Nil until the session ends.
    public var reason: LogRecord.EndReason?
    public init() {}
}

/// Everything a session reports, in order: its start, what the pipeline heard, the
/// daemon's own conditions, its end.
public enum SessionRecord {
    case start(LogRecord.SessionStart.Source, Profile)
    case output(PipelineOutput)
    /// A condition of the daemon (`listening`, `device_lost`, `overrun`, …); `alert`: a
    /// critical one, which the notification sinks carry too.
    case status(LogStatus, alert: Bool)
    /// An event the previous session opened and never closed (it was killed or lost
    /// power): closed here, with no guess at its end.
    case closedUnseen(id: String, soundClass: SoundClass)
    case end(SessionSummary)
}

/// Where a session's records go: the event log, the TSV and table writers, the
/// notification hub, the metrics, the journal, eval's collector. Every one of them is
/// handed the same records, in the same order, from the same place (`Session`).
public protocol RecordSink: AnyObject {
    /// `logged`: the record the event log keeps (`LogRecord`, which holds what reading its
    /// line back gives); nil for what the log does not keep (windows).
    func write(_ record: SessionRecord, logged: LogRecord?) throws
}
