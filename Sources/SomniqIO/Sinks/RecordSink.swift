import SomniqCore
import SomniqLog

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
    case end(Session.Summary)
}

/// Where a session's records go: the event log, the TSV and table writers, the
/// notification hub, the metrics, the journal, eval's collector. Every one of them is
/// handed the same records, in the same order, from the same place (`Session`).
public protocol RecordSink: AnyObject {
    /// `logged`: the record the event log keeps (`LogRecord`, which holds what reading its
    /// line back gives); nil for what the log does not keep (windows).
    func write(_ record: SessionRecord, logged: LogRecord?) throws
}
