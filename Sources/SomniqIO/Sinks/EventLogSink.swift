import SomniqCore

/// The event log as a sink: the first the session tells, the record of truth.
extension DurableLog: RecordSink {
    /// Every record the log keeps, in order; a disk that refuses it holds it in memory.
    public func write(_ record: SessionRecord, json: JSONValue?) {
        if let json { append(json) }
    }
}
