import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

/// One night's line in the history: what was heard, how much snoring, how many
/// disturbances and alerts, the loudest minute. Seconds are kept as the log says them and
/// rounded only when shown (minutes to 0.1): a total, a share or a mean is worked out from
/// the seconds, not from rounded minutes (two nights of 1.6 min heard and 0.6 min snoring,
/// 35 % each, are 35 % together, not the 37 % of 1.2 over 3.2).
public struct NightRow: Sendable {
    /// `2026-11-22`, or a replayed recording's path.
    public var night: String
    /// Day number (days since 1970-01-01) of a dated night.
    public var day: Int?
    public var sessions: Int
    public var heardSeconds: Double
    public var snoringSeconds: Double
    /// Events of every class but the sleeper's steady sounds (snoring, breathing and the
    /// pauses in them): the coughs, voices, doors and alarms that break a night.
    public var disturbances: Int
    public var pauses: Int
    public var alerts: [Tier: Int]
    public var events: [SoundClass: Int]
    public var loudest: Loudest?
    /// What the sleeper reported: the symptoms and tags of the night's episodes, and how many.
    public var symptoms: Set<Episode.Symptom> = []
    public var tags: Set<String> = []
    public var episodes = 0

    /// The minute with the highest Leq, and when it was.
    public struct Loudest: Sendable {
        public var leq: Double
        /// `23:11`, or the elapsed `0:01:00` of an undated recording.
        public var clock: String
        /// `2026-11-22 23:11` for a dated night, else `recording 0:01:00`.
        public var when: String
    }

    static let steady: Set<SoundClass> = [.snoring, .breathing, .breathingPause]

    public init(_ night: Night) {
        let s = NightSummary(night)
        self.night = night.key
        day = night.start != nil ? History.day(night.key) : nil
        sessions = night.sessions
        heardSeconds = night.heard
        snoringSeconds = s.snoringSeconds
        disturbances = night.events.count { !Self.steady.contains($0.soundClass) }
        pauses = night.events.count { $0.soundClass == .breathingPause }
        alerts = Dictionary(grouping: night.events.filter(\.alert), by: \.tier).mapValues(\.count)
        events = Dictionary(grouping: night.events, by: \.soundClass).mapValues(\.count)
        loudest = s.loudestMinute.map { m in
            let clock = night.clock(m.start)
            let when = night.start.map { WallClock.localDate($0 + m.start) + " " + clock } ?? "recording " + clock
            return Loudest(leq: History.tenth(m.leq), clock: clock, when: when)
        }
    }

    /// An empty row, to add nights to.
    init(named: String) {
        night = named
        sessions = 0
        heardSeconds = 0
        snoringSeconds = 0
        disturbances = 0
        pauses = 0
        alerts = [:]
        events = [:]
    }

    /// Minutes, to 0.1, as shown.
    public var heardMinutes: Double { History.tenth(heardSeconds / 60) }
    public var snoringMinutes: Double { History.tenth(snoringSeconds / 60) }

    public var snoringShare: Double { heardSeconds > 0 ? min(1, snoringSeconds / heardSeconds) : 0 }
    public var alertCount: Int { alerts.values.reduce(0, +) }

    /// `self` and `other` added, or nil when a count would overflow: a count read from a
    /// log is at most its lines, but one read from a damaged index (LogIndex) may be
    /// anything, and is checked with this before it is added for good.
    func adding(_ other: NightRow) -> NightRow? {
        func plus(_ a: Int, _ b: Int) -> Int? {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? nil : sum
        }
        func merged<K>(_ a: [K: Int], _ b: [K: Int]) -> [K: Int]? {
            var out = a
            for (k, n) in b {
                guard let sum = plus(out[k] ?? 0, n) else { return nil }
                out[k] = sum
            }
            return out
        }
        var r = self
        guard let sessions = plus(sessions, other.sessions), let disturbances = plus(disturbances, other.disturbances),
              let pauses = plus(pauses, other.pauses), let episodes = plus(episodes, other.episodes),
              let alerts = merged(alerts, other.alerts), let events = merged(events, other.events),
              // alertCount adds the tiers together.
              alerts.values.reduce(Optional(0), { sum, n in sum.flatMap { plus($0, n) } }) != nil else { return nil }
        (r.sessions, r.disturbances, r.pauses, r.episodes, r.alerts, r.events) = (sessions, disturbances, pauses, episodes, alerts, events)
        r.heardSeconds += other.heardSeconds
        r.snoringSeconds += other.snoringSeconds
        if let o = other.loudest, o.leq > loudest?.leq ?? -.infinity { r.loudest = o }
        r.symptoms.formUnion(other.symptoms)
        r.tags.formUnion(other.tags)
        return r
    }

    /// Another piece of the same night (a second log, or sessions another night came between).
    mutating func add(_ other: NightRow) {
        guard let sum = adding(other) else {
            preconditionFailure("\(night): a count past \(Int.max): rows from a log count its lines, an index's are checked (LogIndex)")
        }
        self = sum
    }
}

/// Nights side by side: one row per night, grouped into weeks or months with their
/// totals, their means per night, their trend, and the change from the period before.
public struct History: Sendable {
    public enum Grouping: String, Sendable { case all, week, month }

    public struct Period: Sendable {
        /// `2026-W47`, `2026-11`, `all`, or `undated` for recordings replayed without a start time.
        public var label: String
        public var rows: [NightRow]
        /// The sum of the rows.
        public var total: NightRow
        /// Least-squares slope per calendar day of snoring minutes and disturbances, with
        /// three nights or more.
        public var trend: (snoring: Double, disturbances: Double)?
        /// The previous period's label and its means per night.
        public var previous: (label: String, snoring: Double, disturbances: Double, alerts: Double)?

        /// Nights with sound recorded: the ones totals, means and trends count (a night
        /// with only episodes is listed, and counted in none of them).
        public var heard: [NightRow] { rows.filter { $0.sessions > 0 } }
        public var nights: Int { heard.count }
        public var meanSnoring: Double { total.snoringSeconds / 60 / Double(max(1, nights)) }
        public var meanDisturbances: Double { Double(total.disturbances) / Double(max(1, nights)) }
        public var meanAlerts: Double { Double(total.alertCount) / Double(max(1, nights)) }
    }

    public var grouping: Grouping
    public var nights: [NightRow]
    public var periods: [Period]
    public var total: NightRow
    /// What of the logs was skipped, over them all.
    public var skipped = LogSkips()
    /// What the listener said of the events (`somniq label`), over every log.
    public var labels = LabelBook()

    /// Reads every log in turn, streaming, keeping one row per night; pieces of one night
    /// (restarts, several logs) are added together.
    public static func read(logs: [String], grouping: Grouping) throws(ReportError) -> History {
        var rows: [String: NightRow] = [:]
        var skipped = LogSkips()
        var book = EpisodeBook()
        var labels = LabelBook()
        for path in logs {
            skipped = skipped + (try LogNights.read(path, line: { r, _ in
                book.add(r)
                labels.add(r)
            }, night: { n, _, _ in
                let row = NightRow(n)
                if rows[n.key] == nil { rows[n.key] = row } else { rows[n.key]!.add(row) }
            }))
        }
        skipped = skipped + LogSkips(unreadable: book.unreadable + labels.unreadable)
        attach(book, to: &rows)
        guard !rows.isEmpty else {
            throw ReportError(description: "\(logs.map { LogText.escape($0) }.joined(separator: ", ")): no session in the log")
        }
        var history = History(rows: Array(rows.values), grouping: grouping)
        history.skipped = skipped
        history.labels = labels
        return history
    }

    /// Sets each night's episodes on its row; a night with episodes and no sound recorded
    /// gets a row of its own, with nothing heard.
    static func attach(_ book: EpisodeBook, to rows: inout [String: NightRow]) {
        for e in book.episodes {
            if rows[e.night] == nil {
                var row = NightRow(named: e.night)
                row.day = day(e.night)
                rows[e.night] = row
            }
            rows[e.night]!.episodes += 1
            rows[e.night]!.symptoms.formUnion(e.symptoms)
            rows[e.night]!.tags.formUnion(e.tags)
        }
    }

    public init(rows: [NightRow], grouping: Grouping) {
        self.grouping = grouping
        // Dated nights by date, then undated recordings by path.
        nights = rows.sorted { a, b in
            switch (a.day, b.day) {
            case let (x?, y?): x < y
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a.night < b.night
            }
        }
        var periods: [Period] = []
        for row in nights {
            let label = row.day.map { Self.period(of: $0, grouping) } ?? "undated"
            if periods.last?.label == label { periods[periods.count - 1].rows.append(row) } else {
                periods.append(Period(label: label, rows: [row], total: row))
            }
        }
        for i in periods.indices {
            periods[i].total = Self.sum(periods[i].heard, named: periods[i].label == "all" ? "total" : periods[i].label)
            let dated = periods[i].heard.filter { $0.day != nil }
            if dated.count >= 3 {
                let days = dated.map { Double($0.day!) }
                periods[i].trend = (Self.slope(days, dated.map { $0.snoringSeconds / 60 }),
                                    Self.slope(days, dated.map { Double($0.disturbances) }))
            }
            if i > 0, periods[i].label != "undated", periods[i - 1].label != "undated" {
                let p = periods[i - 1]
                periods[i].previous = (p.label, p.meanSnoring, p.meanDisturbances, p.meanAlerts)
            }
        }
        self.periods = periods
        total = Self.sum(nights.filter { $0.sessions > 0 }, named: "total")
    }

    static func sum(_ rows: [NightRow], named: String) -> NightRow {
        var total = NightRow(named: named)
        for r in rows { total.add(r) }
        return total
    }

    /// The ISO 8601 week (`2026-W47`, weeks start on Monday) or the month (`2026-11`) of a day.
    static func period(of day: Int, _ grouping: Grouping) -> String {
        switch grouping {
        case .all: return "all"
        case .month: return String(date(day).prefix(7))
        case .week:
            // The week belongs to the year of its Thursday. 1970-01-01 was a Thursday.
            let weekday = ((day % 7) + 10) % 7  // Monday 0 … Sunday 6
            let thursday = day - weekday + 3
            let t = civil(thursday)
            let firstOfYear = Int(timegm2(t.year, 1, 1) / 86400)
            return String(cFormat: "%04d-W%02d", t.year, (thursday - firstOfYear) / 7 + 1)
        }
    }

    /// Whether `key` names a dated night (`2026-11-22`), not a recording.
    public static func isDate(_ key: String) -> Bool { day(key) != nil }

    /// The years a night may be in: those `WallClock.parse` reads a log's times in, so that
    /// every night a log can hold is one the history takes (a box whose clock was never set
    /// writes 1970-01-01, the night of 1969-12-31 east of Greenwich), and those ISO 8601
    /// writes in four digits without an expansion, as the keys, the week labels
    /// (`2026-W47`) and the CSV do. Year 0000 is 1 BC: no somniq night.
    public static let years = 1...9999

    /// Days since 1970-01-01 of `2026-11-22`, or nil when it is not a date of the calendar.
    static func day(_ date: String) -> Int? {
        guard case let .success(p) = parseDate(date) else { return nil }
        return Int(timegm2(p.year, p.month, p.day) / 86400)
    }

    /// What is wrong with `text` as a night's date, for a person who typed it; nil when it
    /// is a date of the calendar (`2026-02-29` is not: 2026 is not a leap year).
    public static func dateProblem(_ text: String) -> String? {
        guard case let .failure(problem) = parseDate(text) else { return nil }
        return problem.description
    }

    /// Whether `text` is written as a date, `dddd-dd-dd`, whether or not the calendar has it
    /// (a recording's night is named by its path instead).
    public static func writtenAsDate(_ text: String) -> Bool {
        let parts = text.utf8.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        return parts.map(\.count) == [4, 2, 2] && parts.allSatisfy { $0.allSatisfy { (0x30...0x39).contains($0) } }
    }

    private struct DateProblem: Error, CustomStringConvertible { var description: String }

    /// `YYYY-MM-DD`, every part digits, the day one its month has in its year (Gregorian).
    private static func parseDate(_ text: String) -> Result<(year: Int, month: Int, day: Int), DateProblem> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard writtenAsDate(text), let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            return .failure(DateProblem(description: "give the evening's date, such as 2026-11-22"))
        }
        guard years.contains(year) else { return .failure(DateProblem(description: "there is no year \(parts[0]) here: years 0001 to 9999")) }
        guard (1...12).contains(month) else { return .failure(DateProblem(description: "there is no month \(parts[1]): months 01 to 12")) }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...length).contains(day) else {
            let name = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                        "November", "December"][month - 1]
            return .failure(DateProblem(description: "there is no such date: \(name) \(parts[0]) has \(length) days"))
        }
        return .success((year, month, day))
    }

    /// `2026-11-22` of a day number.
    static func date(_ day: Int) -> String {
        let t = civil(day)
        return String(cFormat: "%04d-%02d-%02d", t.year, t.month, t.day)
    }

    private static func civil(_ day: Int) -> (year: Int, month: Int, day: Int) {
        var seconds = time_t(day * 86400)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    private static func timegm2(_ year: Int, _ month: Int, _ day: Int) -> time_t {
        var t = tm()
        t.tm_year = Int32(year - 1900)
        t.tm_mon = Int32(month - 1)
        t.tm_mday = Int32(day)
        return timegm(&t)
    }

    /// Least-squares slope of `y` over `x`.
    static func slope(_ x: [Double], _ y: [Double]) -> Double {
        let n = Double(x.count)
        let mx = x.reduce(0, +) / n, my = y.reduce(0, +) / n
        let sxx = x.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
        guard sxx > 0 else { return 0 }
        return zip(x, y).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / sxx
    }

    static func tenth(_ x: Double) -> Double { (x * 10).rounded() / 10 }
}
