import Foundation
import SomniqCore
import SomniqIO

/// Writes replay records in the chosen format to a file or standard output.
final class OutputSink {
    private let format: Replay.Format
    private let multipleFiles: Bool
    private let log: EventLogWriter
    private var starts: [String: EventStart] = [:]
    private var finished: [(start: EventStart, end: EventEnd)] = []

    init(format: Replay.Format, path: String?, multipleFiles: Bool) throws {
        self.format = format
        self.multipleFiles = multipleFiles
        if let path {
            if format != .jsonl, FileManager.default.fileExists(atPath: path) {
                try? FileManager.default.removeItem(atPath: path)
            }
            log = try EventLogWriter(path: path)
        } else {
            log = EventLogWriter(descriptor: STDOUT_FILENO, name: "standard output")
        }
    }

    func write(_ record: Replayer.Record, file: String, profile: Profile) throws {
        switch (format, record) {
        case let (.jsonl, .sessionStart(source)):
            try log.append(Records.sessionStart(source: source, profile: profile, somniqVersion: Somniq.version))
        case let (.jsonl, .output(.start(e))):
            try log.append(Records.eventStart(e))
        case let (.jsonl, .output(.end(e))):
            try log.append(Records.eventEnd(e))
        case let (.jsonl, .sessionEnd(s)):
            try log.append(Records.sessionEnd(streamSeconds: s.streamSeconds, events: s.events, alerts: s.alerts,
                                              reason: "end_of_file"))
        case let (_, .output(.start(e))):
            starts[e.id] = e
        case let (_, .output(.end(e))):
            if let start = starts.removeValue(forKey: e.id) { finished.append((start, e)) }
        case (.tsv, .sessionEnd):
            for (_, e) in sortedEvents() {
                let prefix = multipleFiles ? "\(file)\t" : ""
                try line("\(prefix)\(f3(e.onset))\t\(f3(e.offset))\t\(e.soundClass.rawValue)")
            }
            finished.removeAll()
        case let (.table, .sessionEnd(s)):
            try table(file: file, profile: profile, summary: s)
            finished.removeAll()
        case (_, .sessionStart):
            break
        }
    }

    private func sortedEvents() -> [(start: EventStart, end: EventEnd)] {
        finished.sorted { ($0.end.onset, $0.end.soundClass) < ($1.end.onset, $1.end.soundClass) }
    }

    private func table(file: String, profile: Profile, summary: Replayer.Summary) throws {
        try line("\(file): \(clock(summary.streamSeconds)) of audio, profile \(profile.name), \(summary.events) events, \(summary.alerts) alerts")
        guard !finished.isEmpty else { try line("  (no events)"); return }
        try line("  " + pad("onset", 10) + pad("offset", 10) + pad("class", 16) + pad("tier", 10) + pad("alert", 10) + "confidence")
        for (start, end) in sortedEvents() {
            let alert = start.alert ? "yes" : (start.suppressed ?? "no")
            let conf = String(format: "%.2f", end.confidence) + (end.truncated ? "  (cut off at end)" : "")
            try line("  " + pad(clock(end.onset), 10) + pad(clock(end.offset), 10) + pad(end.soundClass.rawValue, 16)
                     + pad(start.tier.rawValue, 10) + pad(alert, 10) + conf)
        }
    }

    private func line(_ text: String) throws {
        try log.appendLine(text)
    }

    private func f3(_ x: Double) -> String { String(format: "%.3f", x) }
    private func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count) }
    private func clock(_ s: Double) -> String {
        let total = Int(s.rounded(.down))
        let tenths = Int(((s - Double(total)) * 10).rounded(.down))
        return total >= 3600 ? String(format: "%d:%02d:%02d.%d", total / 3600, total / 60 % 60, total % 60, tenths)
            : String(format: "%d:%02d.%d", total / 60, total % 60, tenths)
    }
}
