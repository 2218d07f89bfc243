import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqLog
import SomniqSupport

/// Where each night of an event log lies in it, and its history row: what the web page
/// needs to show a night, the history, or tonight so far without reading a year of log
/// (365 nights of 8 h are 370 MB of JSON Lines, 7.5 s to read whole; a night is 1 MB).
///
/// The log stays the record of truth: the index is made from it, kept beside it
/// (`events.jsonl.index`, written whole through a rename) so that a restart need not read
/// the log again, and made anew whenever it no longer matches the log — another file
/// under the name, a log that shrank, bytes before the indexed end that changed. A log
/// that grew is read from the start of its last piece on, since the night in progress
/// may continue there. It holds a few hundred rows and is always read whole: a JSON
/// document, not a database.
///
/// Not thread-safe: one owner (the web page's render thread) uses it at a time.
public final class LogIndex {
    /// A run of the log's bytes that is one night's (one or more sessions of one evening,
    /// from the first one's `session_start` to the next night's), with its row.
    public struct Piece: Sendable {
        public var key: String
        public var from: Int, to: Int
        /// Where the `session_start` of a piece that goes on with a session begun in an
        /// earlier night is (the daemon's session runs across nights); nil when the piece
        /// begins with its own.
        public var session: Int?
        public var start: Double?
        public var row: NightRow
        public var skipped: LogSkips
    }

    public let path: String
    /// Where the index is kept; nil keeps it in memory only.
    public let indexPath: String?
    /// The pieces, in log order.
    public private(set) var pieces: [Piece] = []
    /// The `episode`, `episode_removed`, `label` and `morning_summary` records, with where
    /// each starts: a few, kept whole, since a night's episodes, labels and summary may be
    /// written anywhere after it.
    private var episodeRecords: [(offset: Int, record: LogRecord)] = []
    /// The log's identity (device, inode), how far it is indexed, and the bytes before that end.
    private var device: UInt64 = 0, inode: UInt64 = 0
    public private(set) var covered = 0
    private var tail: [UInt8] = []
    /// Why the index could not be written beside the log, once said (the log's folder is
    /// read-only, for a copied log): it is then kept in memory.
    public private(set) var saveProblem: String?
    /// The pieces when the index was last written: it is written again when a night is
    /// added or the index made anew, not each time tonight's piece grows.
    private var savedCount = -1

    static let version = 5
    /// Bytes before the indexed end compared on each refresh: a log rewritten in place to
    /// another text of at least the same length is caught here.
    static let tailLength = 256

    public init(log: String, indexPath: String?) {
        path = log
        self.indexPath = indexPath
        if let indexPath { load(indexPath) }
    }

    /// `events.jsonl.index` beside `log`.
    public static func besideLog(_ log: String) -> String { log + ".index" }

    // MARK: keeping up with the log

    /// Reads what the log gained since the last refresh (or all of it, when the index no
    /// longer matches it); true when anything changed. Only whole lines are read: a line
    /// the daemon is writing now is read next time.
    @discardableResult
    public func refresh() throws(ReportError) -> Bool {
        // Opened, not stat(2)ed by name: a FIFO put in the log's place is refused here, and
        // what is read below is the file whose identity is compared.
        let file = try LogReader.open(path)
        guard let st = file.status() else {
            throw ReportError(description: "\(LogText.escape(path)): cannot read the log: \(String(cString: strerror(errno)))")
        }
        let size = Int(st.st_size)
        if UInt64(st.st_dev) != device || UInt64(st.st_ino) != inode || size < covered || readTail(file, before: covered) != tail {
            savedCount = -1
            pieces = []
            episodeRecords = []
            covered = 0
            tail = []
            device = UInt64(st.st_dev)
            inode = UInt64(st.st_ino)
        }
        let end = lastLineEnd(file, before: size)
        guard end > covered else { return false }
        let resume = pieces.last?.from ?? covered
        let session = pieces.last?.session
        if !pieces.isEmpty { pieces.removeLast() }
        episodeRecords.removeAll { $0.offset >= resume }
        try read(from: resume, to: end, session: session)
        covered = end
        tail = readTail(file, before: end)
        if pieces.count != savedCount { save() }
        return true
    }

    private func read(from: Int, to end: Int, session: Int?) throws(ReportError) {
        var pieceStart = from, pieceSession = session, currentSession = session
        var startsSession = false
        var before = LogSkips()
        func add(_ night: Night, to: Int, next: Int?, skipped now: LogSkips) {
            defer { pieceSession = next }
            guard to > pieceStart else { return }
            pieces.append(Piece(key: night.key, from: pieceStart, to: to, session: pieceSession, start: night.start, row: NightRow(night),
                                skipped: LogSkips(unreadable: now.unreadable - before.unreadable, overlong: now.overlong - before.overlong,
                                                  outOfRange: now.outOfRange - before.outOfRange)))
            before = now
            pieceStart = to
        }
        // A piece that goes on with an earlier night's session: that session first, so that
        // its records have their session (the night it gives back has no bytes here).
        try LogNights.read(path, from: from, to: end, session: session, line: { line, offset in
            startsSession = false
            guard case let .success(r) = line else { return }
            if [.episode, .episodeRemoved, .label, .morningSummary].contains(r.kind) { episodeRecords.append((offset, r)) }
            startsSession = r.kind == .sessionStart
            if startsSession { currentSession = offset }
        }, night: { night, offset, skipped in
            // The last night, closed by the range's end, goes on with no session.
            let last = offset == end
            add(night, to: offset, next: last ? nil : startsSession ? nil : currentSession, skipped: skipped)
        })
    }

    /// The offset just past the last newline at or before `size`.
    private func lastLineEnd(_ file: ReadingFile, before size: Int) -> Int {
        var end = size
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while end > covered {
            let from = max(covered, end - chunk.count)
            let n = chunk.withUnsafeMutableBytes { pread(file.fileDescriptor, $0.baseAddress!, end - from, off_t(from)) }
            guard n > 0 else { return covered }
            if let i = chunk[0..<n].lastIndex(of: 0x0A) { return from + i + 1 }
            end = from
        }
        return covered
    }

    private func readTail(_ file: ReadingFile, before end: Int) -> [UInt8] {
        guard end > 0 else { return [] }
        let from = max(0, end - Self.tailLength)
        var bytes = [UInt8](repeating: 0, count: end - from)
        let n = bytes.withUnsafeMutableBytes { pread(file.fileDescriptor, $0.baseAddress!, end - from, off_t(from)) }
        return n == end - from ? bytes : []
    }

    // MARK: what the pages read

    /// The nights' keys: dated ones by date, then recordings by name.
    public var keys: [String] { History(rows: rows, grouping: .all).nights.filter { $0.sessions > 0 }.map(\.night) }

    /// The keys of dated nights (a web page's), in date order.
    public var dates: [String] { keys.filter(History.isDate) }

    /// One row per night, its pieces added together and its episodes set on it (as
    /// `History.read` does).
    public var rows: [NightRow] {
        // Pieces read from the log count its lines, and a loaded index's sums were checked
        // (`load`): nil is not met here.
        var rows = Self.nightRows(pieces) ?? [:]
        History.attach(episodes, to: &rows)
        return Array(rows.values)
    }

    /// The pieces' rows added up night by night, every count checked: nil when one would
    /// overflow.
    static func nightRows(_ pieces: [Piece]) -> [String: NightRow]? {
        var rows: [String: NightRow] = [:]
        for p in pieces {
            guard let sum = rows[p.key].map({ $0.adding(p.row) }) ?? p.row else { return nil }
            rows[p.key] = sum
        }
        return rows
    }

    /// The log's episodes, as they stand after every removal.
    public var episodes: EpisodeBook {
        var book = EpisodeBook()
        for (_, r) in episodeRecords { book.add(r) }
        return book
    }

    public var skipped: LogSkips {
        pieces.reduce(LogSkips()) { $0 + $1.skipped } + LogSkips(unreadable: episodes.unreadable)
    }

    public func history(grouping: History.Grouping) -> History {
        var h = History(rows: rows, grouping: grouping)
        h.skipped = skipped
        return h
    }

    /// The night `key`, read from its pieces of the log alone; nil when the log has none.
    public func night(_ key: String) throws(ReportError) -> Night? {
        var found: Night?
        var skipped = LogSkips()
        for (i, p) in pieces.enumerated() where p.key == key {
            var read: Night?
            // A primed builder first gives back the night its session began in: not this one.
            skipped = skipped + (try LogNights.read(path, from: p.from, to: p.to, session: p.session, atLogEnd: i == pieces.count - 1,
                                                    night: { n, _, _ in if n.key == key { read = NightReports.merge(read, n) } }))
            if let read { found = NightReports.merge(found, read) }
        }
        found?.skipped = skipped
        found?.episodes = episodes.of(key)
        var labels = LabelBook()
        for (_, r) in episodeRecords { labels.add(r) }
        found?.labels = labels.of(key)
        found?.morningSummary = episodeRecords.reversed().lazy.compactMap { (_, r) -> LogRecord.MorningSummary? in
            if case let .morningSummary(m) = r, m.night == key { m } else { nil }
        }.first
        return found
    }

    // MARK: the file beside the log

    private func save() {
        guard let indexPath else { return }
        let doc = JSONValue.object([
            ("v", .number(Double(Self.version))),
            ("log", .string(path)),
            // As text: an inode number may exceed what a JSON number keeps exactly (2^53).
            ("device", .string(String(device))), ("inode", .string(String(inode))),
            ("covered", .number(Double(covered))),
            ("tail", .string(Self.hex(tail))),
            ("pieces", .array(pieces.map(Self.encode))),
            ("episodes", .array(episodeRecords.map { .object([("offset", .number(Double($0.offset))), ("record", $0.record.json)]) })),
        ])
        savedCount = pieces.count
        // As private as the log it summarizes, and never written through a link at its name.
        var st = stat()
        let mode = stat(path, &st) == 0 ? st.st_mode & 0o666 : 0o640
        if let failure = replaceContents(of: indexPath, with: Array((doc.compactText + "\n").utf8), private: mode) {
            saveProblem = "\(LogText.escape(failure.path)): cannot keep the log's index: \(String(cString: strerror(failure.errno))); it is kept in memory"
        } else {
            saveProblem = nil
        }
    }

    /// Reads a saved index; one that does not parse, or is of another version or log, is
    /// ignored (the log is read again).
    private func load(_ indexPath: String) {
        guard case let .success(bytes) = TextFile.read(indexPath, what: "an index", limit: 256 << 20),
              let doc = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)),
              doc["v"]?.numberValue == Double(Self.version), doc["log"]?.stringValue == path,
              let device = doc["device"]?.stringValue.flatMap({ UInt64($0) }), let inode = doc["inode"]?.stringValue.flatMap({ UInt64($0) }),
              let covered = doc["covered"]?.numberValue.flatMap(Int.init(exactly:)), covered >= 0,
              let tail = doc["tail"]?.stringValue.flatMap(Self.unhex),
              case let .array(items)? = doc["pieces"], case let .array(episodeItems)? = doc["episodes"] else { return }
        let pieces = items.compactMap(Self.decode)
        let episodeRecords = episodeItems.compactMap { item -> (Int, LogRecord)? in
            guard let offset = item["offset"]?.numberValue.flatMap(Int.init(exactly:)), (0..<covered).contains(offset),
                  let json = item["record"], let record = try? LogRecord(json: json) else { return nil }
            return (offset, record)
        }
        // Every piece within what was indexed, one after the other, each with figures its
        // bytes could hold, and their sums in range: the index is derived data, and one
        // that could not have been made from a log is made from the log again.
        guard pieces.count == items.count, episodeRecords.count == episodeItems.count,
              zip(pieces, pieces.dropFirst()).allSatisfy({ $0.to <= $1.from }), (pieces.last?.to ?? 0) <= covered,
              pieces.allSatisfy({ p in p.session.map { $0 >= 0 && $0 < p.from } ?? true }),
              pieces.allSatisfy(Self.plausible), Self.nightRows(pieces).flatMap(Self.checkedTotal) != nil else { return }
        self.episodeRecords = episodeRecords
        self.device = device
        self.inode = inode
        self.covered = covered
        self.tail = tail
        self.pieces = pieces
        savedCount = pieces.count
    }

    /// The longest a piece's seconds heard or snoring may be: a dated night runs from noon
    /// to noon, 25 h on the day clocks go back, and its last level record may reach past
    /// noon by what one covers (LogRanges.levelSeconds); a recording replayed without a
    /// start time is one session of at most a year of audio (LogRanges.seconds). Several
    /// sessions in one night are restarts, one after the other. The index of a log that
    /// says more (two daemons writing one log) is only made again, never misread.
    static func longest(_ p: Piece) -> Double {
        p.start != nil ? 25 * 3600 + LogRanges.levelSeconds.upperBound : LogRanges.seconds.upperBound
    }

    /// Whether a piece's figures are ones its bytes of the log could give. Every count is
    /// of lines of the piece (a session_start, an event_start, a skipped line), so none
    /// exceeds its length in bytes, and the pieces lie one after the other within what
    /// was indexed: so no sum of them exceeds an Int (checked all the same, `nightRows`).
    static func plausible(_ p: Piece) -> Bool {
        let r = p.row, bytes = p.to - p.from
        let counts = [r.sessions, r.disturbances, r.pauses, p.skipped.unreadable, p.skipped.overlong, p.skipped.outOfRange]
            + Array(r.alerts.values) + Array(r.events.values)
        // Added as Doubles: these sums are what is being checked, and may not fit an Int.
        let events = r.events.values.reduce(0.0) { $0 + Double($1) }, alerts = r.alerts.values.reduce(0.0) { $0 + Double($1) }
        guard bytes > 0, counts.allSatisfy({ (0...bytes).contains($0) }), r.sessions >= 1,
              // An alert and a disturbance are each an event; a pause is an event of its class.
              events <= Double(bytes), alerts <= events, Double(r.disturbances) <= events,
              r.pauses <= r.events[.breathingPause] ?? 0 else { return false }
        let seconds = 0...longest(p)
        guard seconds.contains(r.heardSeconds), seconds.contains(r.snoringSeconds) else { return false }  // NaN and ±∞ too
        // A dated night is named by its evening's date, and starts within the years a log's
        // times are read in (WallClock.parse: 0001 to 9999, ±2.6e11 s).
        if let start = p.start {
            guard abs(start) < 3e11, History.isDate(p.key) else { return false }
        }
        if let l = r.loudest {
            guard LogRanges.dbfs.contains(l.leq), l.clock.utf8.count <= 32, l.when.utf8.count <= 64,
                  ConfigText.problem(l.clock) == nil, ConfigText.problem(l.when) == nil else { return false }
        }
        return true
    }

    /// The sum of every night's row, or nil when a count would overflow (the history adds
    /// them all).
    private static func checkedTotal(_ rows: [String: NightRow]) -> NightRow? {
        var total = NightRow(named: "total")
        for r in rows.values {
            guard let sum = total.adding(r) else { return nil }
            total = sum
        }
        return total
    }

    static func encode(_ p: Piece) -> JSONValue {
        let r = p.row
        var members: [(String, JSONValue)] = [
            ("key", .string(p.key)), ("from", .number(Double(p.from))), ("to", .number(Double(p.to))),
            ("session", p.session.map { .number(Double($0)) } ?? .null),
            ("start", p.start.map { .number($0) } ?? .null),
            ("skipped", .array([.number(Double(p.skipped.unreadable)), .number(Double(p.skipped.overlong)),
                                .number(Double(p.skipped.outOfRange))])),
            ("sessions", .number(Double(r.sessions))), ("heard_s", .number(r.heardSeconds)),
            ("snoring_s", .number(r.snoringSeconds)), ("disturbances", .number(Double(r.disturbances))),
            ("pauses", .number(Double(r.pauses))),
            ("alerts", .object(r.alerts.sorted { $0.key < $1.key }.map { ($0.key.rawValue, .number(Double($0.value))) })),
            ("events", .object(r.events.sorted { $0.key < $1.key }.map { ($0.key.rawValue, .number(Double($0.value))) })),
        ]
        if let l = r.loudest {
            members.append(("loudest", .object([("leq", .number(l.leq)), ("clock", .string(l.clock)), ("when", .string(l.when))])))
        }
        return .object(members)
    }

    static func decode(_ v: JSONValue) -> Piece? {
        guard let key = v["key"]?.stringValue, let from = v["from"]?.numberValue.flatMap(Int.init(exactly:)),
              let to = v["to"]?.numberValue.flatMap(Int.init(exactly:)), from >= 0, to >= from,
              case let .array(skip)? = v["skipped"], skip.count == 3,
              let sessions = v["sessions"]?.numberValue.flatMap(Int.init(exactly:)), let heard = v["heard_s"]?.numberValue,
              let snoring = v["snoring_s"]?.numberValue, let disturbances = v["disturbances"]?.numberValue.flatMap(Int.init(exactly:)),
              let pauses = v["pauses"]?.numberValue.flatMap(Int.init(exactly:)),
              case let .object(alerts)? = v["alerts"], case let .object(events)? = v["events"] else { return nil }
        var row = NightRow(named: key)
        row.day = v["start"]?.numberValue != nil ? History.day(key) : nil
        row.sessions = sessions
        row.heardSeconds = heard
        row.snoringSeconds = snoring
        row.disturbances = disturbances
        row.pauses = pauses
        for (name, n) in alerts { if let t = Tier(rawValue: name), let n = n.numberValue.flatMap(Int.init(exactly:)) { row.alerts[t] = n } }
        for (name, n) in events { if let c = SoundClass(rawValue: name), let n = n.numberValue.flatMap(Int.init(exactly:)) { row.events[c] = n } }
        if let l = v["loudest"], let leq = l["leq"]?.numberValue, let clock = l["clock"]?.stringValue, let when = l["when"]?.stringValue {
            row.loudest = .init(leq: leq, clock: clock, when: when)
        }
        let s = skip.map { $0.numberValue.flatMap(Int.init(exactly:)) ?? 0 }
        let session = v["session"]?.numberValue.flatMap(Int.init(exactly:))
        return Piece(key: key, from: from, to: to, session: session, start: v["start"]?.numberValue, row: row,
                     skipped: LogSkips(unreadable: s[0], overlong: s[1], outOfRange: s[2]))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out += [digits[Int(b >> 4)], digits[Int(b & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    private static func unhex(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        for i in stride(from: 0, to: chars.count, by: 2) {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }
}
