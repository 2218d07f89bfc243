import SomniqCore
import SomniqLog

/// The event log as a sink: the first the session tells, the record of truth.
extension DurableLog: RecordSink {
    /// Every record the log keeps, in order; a disk that refuses it holds it in memory.
    public func write(_ record: SessionRecord, logged: LogRecord?) {
        if let logged { append(logged.json) }
    }
}
