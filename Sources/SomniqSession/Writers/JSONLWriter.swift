import SomniqCore
import SomniqLog
import SomniqSinks

/// Writes a session's records as the JSON Lines event log (docs/behaviour.md#the-event-log).
public final class JSONLWriter: RecordSink {
    private let log: EventLogWriter

    public init(_ log: EventLogWriter) { self.log = log }

    public func write(_ record: SessionRecord, logged: LogRecord?) throws {
        if let logged { try log.append(logged) }
    }
}
