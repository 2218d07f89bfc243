import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog
import SomniqSinks
import SomniqSupport

/// Writes each session's events as `onset<TAB>offset<TAB>class` lines in onset order,
/// the DCASE / sed_eval label format, when the session ends; with several files, a
/// leading column names the file.
public final class TSVWriter: RecordSink {
    private let log: EventLogWriter
    private let namesFile: Bool
    private var events = FinishedEvents()
    private var file = ""

    public init(_ log: EventLogWriter, namesFile: Bool) {
        self.log = log
        self.namesFile = namesFile
    }

    public func write(_ record: SessionRecord, logged: LogRecord?) throws {
        switch record {
        case let .start(.file(path, _, _, _), _): file = path
        case let .output(output): events.add(output)
        case .end:
            // A name with a tab or a newline in it must not make a column or a line of its own.
            let prefix = namesFile ? "\(LogText.escape(file))\t" : ""
            for (_, e) in events.sorted() {
                try log.appendLine(prefix + String(cFormat: "%.3f\t%.3f\t", e.onset, e.offset) + e.soundClass.rawValue)
            }
            events = FinishedEvents()
        default: break
        }
    }
}

/// The events of a session whose end has come, with their starts.
struct FinishedEvents {
    private var starts: [String: EventStart] = [:]
    private var finished: [(start: EventStart, end: EventEnd)] = []

    mutating func add(_ output: PipelineOutput) {
        switch output {
        case let .start(e): starts[e.id] = e
        case let .end(e): if let start = starts.removeValue(forKey: e.id) { finished.append((start, e)) }
        default: break
        }
    }

    var isEmpty: Bool { finished.isEmpty }

    /// In onset order (then class), as label files are.
    func sorted() -> [(start: EventStart, end: EventEnd)] {
        finished.sorted { ($0.end.onset, $0.end.soundClass) < ($1.end.onset, $1.end.soundClass) }
    }
}
