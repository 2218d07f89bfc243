import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog
import SomniqSinks
import SomniqSupport

/// Writes each session as a table for people: a heading with the file, its length,
/// profile and counts, then one row per event in onset order.
public final class TableWriter: RecordSink {
    private let log: EventLogWriter
    private var events = FinishedEvents()
    private var file = ""
    private var profile = ""

    public init(_ log: EventLogWriter) { self.log = log }

    public func write(_ record: SessionRecord, logged: LogRecord?) throws {
        switch record {
        case let .start(source, p):
            if case let .file(path, _, _, _) = source { file = path }
            profile = p.name
        case let .output(output):
            events.add(output)
        case let .end(summary):
            try table(summary)
            events = FinishedEvents()
        case .status, .closedUnseen:
            break
        }
    }

    private func table(_ summary: Session.Summary) throws {
        try log.appendLine("\(LogText.escape(file)): \(clock(summary.streamSeconds)) of audio, profile \(LogText.escape(profile)), \(summary.events) events, \(summary.alerts) alerts")
        guard !events.isEmpty else { try log.appendLine("  (no events)"); return }
        try log.appendLine("  " + padded("onset", 10) + padded("offset", 10) + padded("class", 16) + padded("tier", 10) + padded("alert", 10) + "confidence")
        for (start, end) in events.sorted() {
            let alert = start.alert ? "yes" : (start.suppressed?.rawValue ?? "no")
            let confidence = String(cFormat: "%.2f", end.confidence) + (end.truncated ? "  (cut off at end)" : "")
            try log.appendLine("  " + padded(clock(end.onset), 10) + padded(clock(end.offset), 10) + padded(end.soundClass.rawValue, 16)
                               + padded(start.tier.rawValue, 10) + padded(alert, 10) + confidence)
        }
    }


    /// m:ss.t, or h:mm:ss.t from an hour on.
    private func clock(_ s: Double) -> String {
        let total = Int(s.rounded(.down))
        let tenths = Int(((s - Double(total)) * 10).rounded(.down))
        return total >= 3600 ? String(cFormat: "%d:%02d:%02d.%d", total / 3600, total / 60 % 60, total % 60, tenths)
            : String(cFormat: "%d:%02d.%d", total / 60, total % 60, tenths)
    }
}
