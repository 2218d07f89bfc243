import SomniqCore
import SomniqLog

/// The physical range of every number a report reads from a log. A record with a number
/// outside it (a bit flipped, a hand edit, a hostile file) is skipped and counted: one
/// `1e19` dBFS or second would otherwise size a chart, a loop or a file.
enum LogRanges {
    /// Levels: digital full scale is 0 dBFS; a little over it for a true peak, and far
    /// below any real noise floor (the quietest 32-bit sample is −192 dBFS).
    static let dbfs = -200.0...20.0
    /// Seconds into a session: at most a year of audio.
    static let seconds = 0.0...(366 * 86400.0)
    /// Scores, thresholds and confidences.
    static let unit = 0.0...1.0
    /// A level record covers a minute; at most an hour.
    static let levelSeconds = 0.0...3600.0
    /// Counts (frames, samples, messages).
    static let count = 0.0...1e15

    /// Whether every number `r` carries that a report reads is in its range. A number that
    /// is missing (or not a number) is not checked: the reader treats it as absent.
    static func valid(_ r: LogRecord) -> Bool {
        func within(_ x: Double?, _ range: ClosedRange<Double>) -> Bool {
            guard let x else { return true }
            return range.contains(x)  // NaN and ±infinity are in no range
        }
        switch r {
        case let .eventStart(e):
            let t = e.trace
            return within(e.onset, seconds) && within(t?.levelDbfs, dbfs) && within(t?.floorDbfs, dbfs)
                && within(t?.peakRaw, unit) && within(t?.peakSmoothed, unit)
                && within(t?.on, unit) && within(t?.debounce, seconds)
        case let .eventEnd(e):
            return within(e.offset, seconds) && within(e.peakDbfs, dbfs) && within(e.confidence, unit)
        case let .level(m):
            guard within(m.start, seconds), within(m.seconds, levelSeconds) else { return false }
            guard [m.leq, m.l10, m.l90, m.lmax, m.floor].allSatisfy({ within($0, dbfs) }) else { return false }
            let most = m.seconds + 1
            return m.active.allSatisfy { within($0.1, 0...most) }
        case let .status(s):
            return within(s.streamSeconds, seconds) && within(s.seconds, seconds)
                && [.framesLost, .dropped, .samples].allSatisfy { within(s[$0]?.numberValue, count) }
        case let .sessionEnd(e):
            return within(e.streamSeconds, seconds)
        case .sessionStart, .episode, .episodeRemoved, .label, .morningSummary:
            return true
        }
    }
}

/// What of a log a report skipped: lines that are not a record, lines too long to be
/// one, and records with a number out of its range. Said once, under the report.
public struct LogSkips: Sendable, Equatable {
    public var unreadable = 0, overlong = 0, outOfRange = 0

    public init(unreadable: Int = 0, overlong: Int = 0, outOfRange: Int = 0) {
        self.unreadable = unreadable
        self.overlong = overlong
        self.outOfRange = outOfRange
    }

    init(_ reader: LogReader, _ builder: NightBuilder) {
        self.init(unreadable: reader.unreadable, overlong: reader.overlong, outOfRange: builder.outOfRange)
    }

    public var isEmpty: Bool { unreadable == 0 && overlong == 0 && outOfRange == 0 }

    public static func + (a: LogSkips, b: LogSkips) -> LogSkips {
        LogSkips(unreadable: a.unreadable + b.unreadable, overlong: a.overlong + b.overlong, outOfRange: a.outOfRange + b.outOfRange)
    }

    /// `2 lines skipped: not a record; 1 record skipped: a number out of range`, or "".
    public var description: String {
        func n(_ k: Int, _ what: String) -> String { "\(k) \(what)\(k == 1 ? "" : "s")" }
        var parts: [String] = []
        if unreadable > 0 { parts.append("\(n(unreadable, "line")) skipped: not a record") }
        if overlong > 0 { parts.append("\(n(overlong, "line")) skipped: longer than \(LogReader.maxLine >> 20) MiB") }
        if outOfRange > 0 { parts.append("\(n(outOfRange, "record")) skipped: a number out of range") }
        return parts.joined(separator: "; ")
    }
}
