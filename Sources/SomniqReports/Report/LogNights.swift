import SomniqLog

/// A log, or the bytes `from..<to` of it, read into nights: the one loop of `History`,
/// `NightReports` and `LogIndex`. Streams it, holding one night.
enum LogNights {
    /// Gives each line to `line` as it is read (with its offset), then to the night being
    /// built; each night a record closes goes to `night` with that record's offset (the
    /// range's end, `to` or where reading stopped, for the last night) and the skips counted
    /// so far. `session`: the offset of the `session_start` the range goes on with, given
    /// to the builder first (the night that closes is not this range's: it has no bytes
    /// here). `atLogEnd`: the range ends where the log does (`NightBuilder.finish`).
    /// Returns what was skipped.
    @discardableResult
    static func read(_ path: String, from: Int = 0, to: Int? = nil, session: Int? = nil, atLogEnd: Bool = false,
                     line: (LogLine, _ offset: Int) -> Void = { _, _ in },
                     night: (Night, _ offset: Int, _ skipped: LogSkips) -> Void) throws(ReportError) -> LogSkips {
        var builder = NightBuilder()
        if let session {
            let first = try LogReader(path: path, from: session)
            if case let .success(r)? = first.next(), r.kind == .sessionStart { _ = builder.add(r) }
        }
        let reader = try LogReader(path: path, from: from, to: to)
        while let l = reader.next() {
            line(l, reader.recordOffset)
            if let n = builder.add(l) { night(n, reader.recordOffset, LogSkips(reader, builder)) }
        }
        try reader.finish()
        if let n = builder.finish(atLogEnd: atLogEnd) { night(n, to ?? reader.position, LogSkips(reader, builder)) }
        return LogSkips(reader, builder)
    }
}
