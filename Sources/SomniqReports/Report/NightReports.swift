import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog
import SomniqSupport

/// Reading nights out of a log, and writing a report file.
public enum NightReports {
    /// The night `key` (`2026-11-22`, or a replayed recording's path) of the log at
    /// `path`, or its last night when `key` is nil. Streams the log, holding one night.
    public static func night(in path: String, key: String?) throws -> Night {
        var book = EpisodeBook()
        var labels = LabelBook()
        var summaries: [String: LogRecord.MorningSummary] = [:]
        var found: Night?
        var keys: [String] = []
        func consider(_ n: Night) {
            if keys.last != n.key { keys.append(n.key) }
            if key == nil || n.key == key { found = key == nil ? n : merge(found, n) }
        }
        let skipped = try LogNights.read(path, line: { r, _ in
            book.add(r)
            labels.add(r)
            if case let .success(.morningSummary(m)) = r, let night = m.night { summaries[night] = m }
        }, night: { n, _, _ in consider(n) })
        guard var found else {
            if let key, !book.of(key).isEmpty {
                throw ReportError(description: "\(LogText.escape(path)): no sound was recorded on the night of \(LogText.escape(key)); it has \(book.of(key).count) episode(s) reported (somniq episode list --night \(LogText.escape(key)))")
            }
            if keys.isEmpty { throw ReportError(description: "\(LogText.escape(path)): no session in the log") }
            throw ReportError(description: "\(LogText.escape(path)): no night \(LogText.escape(key ?? "")) (nights: \(keys.suffix(14).map { LogText.escape($0) }.joined(separator: ", ")))")
        }
        found.skipped = skipped + LogSkips(unreadable: book.unreadable + labels.unreadable)
        found.episodes = book.of(found.key)
        found.labels = labels.of(found.key)
        found.morningSummary = summaries[found.key]
        return found
    }

    /// Two pieces of one night (a log where another night came between them): kept apart
    /// on one time axis.
    static func merge(_ a: Night?, _ b: Night) -> Night {
        guard var a, let start = a.start, let bStart = b.start else { return b }
        let shift = bStart - start
        a.events += b.events.map { var e = $0; e.onset += shift; e.offset += shift; return e }
        a.minutes += b.minutes.map { var m = $0; m.start += shift; return m }
        a.incidents += b.incidents.map { var i = $0; i.time += shift; return i }
        a.heard += b.heard
        a.span = max(a.span, shift + b.span)
        a.sessions += b.sessions
        a.profiles += b.profiles.filter { !a.profiles.contains($0) }
        a.sources += b.sources.filter { !a.sources.contains($0) }
        a.openSession = b.openSession.map { .init(offset: $0.offset + shift, logged: $0.logged) }
        return a
    }

    /// Writes `text` to `path` whole: through a temporary file renamed over it, so that
    /// a failed write leaves an earlier report whole (a device such as /dev/stdout is
    /// written in place).
    public static func write(_ text: String, to path: String) throws(ReportError) {
        if let failure = replaceContents(of: path, with: Array(text.utf8)) {
            throw ReportError(description: "\(LogText.escape(failure.path)): cannot write the report: \(String(cString: strerror(failure.errno)))")
        }
    }
}
