import SomniqCore
import SomniqLog
import SomniqSinks

/// Keeps a session's events in memory, for `somniq eval` and the tests.
public final class EventCollector: RecordSink {
    public private(set) var starts: [EventStart] = []
    public private(set) var ends: [EventEnd] = []

    public init() {}

    public func write(_ record: SessionRecord, logged: LogRecord?) {
        switch record {
        case let .output(.start(e)): starts.append(e)
        case let .output(.end(e)): ends.append(e)
        default: break
        }
    }
}
