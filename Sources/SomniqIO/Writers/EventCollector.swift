import SomniqCore

/// Keeps a session's events in memory, for `somniq eval` and the tests.
public final class EventCollector: RecordSink {
    public private(set) var starts: [EventStart] = []
    public private(set) var ends: [EventEnd] = []
    public private(set) var inputConditions: [InputWatch.Condition] = []

    public init() {}

    public func write(_ record: SessionRecord, json: JSONValue?) {
        switch record {
        case let .output(.start(e)): starts.append(e)
        case let .output(.end(e)): ends.append(e)
        case let .output(.input(c)): inputConditions.append(c)
        default: break
        }
    }
}
