import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

extension History {
    /// A terminal table: each period's nights, its total, its means per night, a
    /// sparkline of snoring by night, its trend and its change from the period before.
    public func table() -> String {
        var out: [String] = []
        let reported = reportedColumns
        // The alerts in words ("1 critical, 2 high") as wide as the widest, a column apart.
        let w = ([total] + periods.flatMap { $0.rows + [$0.total] }).map { Self.alertWords($0.alerts).count }.max().map { max($0 + 2, 8) } ?? 8
        for (k, p) in periods.enumerated() {
            if k > 0 { out.append("") }
            if grouping != .all || p.label == "undated" {
                let dated = p.rows.compactMap(\.day)
                let span = dated.isEmpty ? "" : "  \(Self.date(dated.first!)) … \(Self.date(dated.last!))"
                out.append("\(p.label == "undated" ? "recordings without a start time" : "\(grouping.rawValue) \(p.label)")\(span)  \(p.nights) night\(p.nights == 1 ? "" : "s")")
            }
            out.append(Self.header(w) + Self.reportedHeader(reported))
            for r in p.rows { out.append(Self.line(r, alertsWidth: w) + Self.reportedCells(r, reported)) }
            if p.nights > 1 {
                out.append(Self.line(p.total, total: true, alertsWidth: w))
                out.append(padded("a night", 17) + padded(Self.minutes(p.total.heardMinutes / Double(p.nights)), 10)
                           + padded(Self.minutes(p.meanSnoring), 17) + padded(String(cFormat: "%.1f", p.meanDisturbances), 14)
                           + String(cFormat: "%.1f", p.meanAlerts))
                out.append("snoring by night  " + TextReport.sparkline(p.heard.map(\.snoringMinutes), width: 62))
            }
            if let t = p.trend {
                out.append("trend  snoring \(Self.signed(t.snoring)) min a night, disturbances \(Self.signed(t.disturbances)) a night (least squares over \(p.nights) nights)")
            }
            if let q = p.previous {
                out.append("vs \(grouping.rawValue) \(q.label)  snoring \(Self.signed(p.meanSnoring - q.snoring)) min a night, disturbances \(Self.signed(p.meanDisturbances - q.disturbances)), alerts \(Self.signed(p.meanAlerts - q.alerts))")
            }
        }
        if periods.count > 1 {
            out.append("")
            out.append(Self.header(w))
            out.append(Self.line(total, total: true, alertsWidth: w))
        }
        if !skipped.isEmpty {
            out.append("")
            out.append("not counted: \(skipped.description)")
        }
        return out.map { line in String(line.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n") + "\n"
    }

    /// The symptoms and tags any night reports: symptoms in their list's order, then tags
    /// by name. Each is a column of the history; none without episodes.
    public var reportedColumns: [(name: String, kind: String, has: (NightRow) -> Bool)] {
        let symptoms = Episode.Symptom.allCases.filter { s in nights.contains { $0.symptoms.contains(s) } }
        let tags = Set(nights.flatMap(\.tags)).sorted()
        return symptoms.map { s in (s.rawValue, "symptom", { $0.symptoms.contains(s) }) }
            + tags.map { t in (t, "tag", { $0.tags.contains(t) }) }
    }

    /// The loudest minute's column is as wide as a total's when reported columns follow it.
    static let loudestWidth = 30

    /// Its columns are worked out once a table: `reportedColumns` reads every night.
    static func reportedHeader(_ columns: [(name: String, kind: String, has: (NightRow) -> Bool)]) -> String {
        guard !columns.isEmpty else { return "" }
        return String(repeating: " ", count: max(0, Self.loudestWidth - "loudest minute".count))
            + columns.map { "  " + $0.name }.joined()
    }

    static func reportedCells(_ r: NightRow, _ columns: [(name: String, kind: String, has: (NightRow) -> Bool)]) -> String {
        guard !columns.isEmpty else { return "" }
        let loudest = r.loudest.map { $0.clock + String(cFormat: "  %.1f dBFS", $0.leq) } ?? "–"
        return String(repeating: " ", count: max(0, Self.loudestWidth - loudest.count))
            + columns.map { c in "  " + padded(c.has(r) ? "x" : "·", c.name.count) }.joined()
    }

    /// The table's head, its alerts column `alertsWidth` wide.
    static func header(_ alertsWidth: Int) -> String {
        padded("night", 17) + padded("heard", 10) + padded("snoring", 10) + padded("share", 7)
            + padded("disturbances", 14) + padded("alerts", alertsWidth) + "loudest minute"
    }

    /// A night's line, or a total's (whose loudest minute names its night).
    static func line(_ r: NightRow, total: Bool = false, alertsWidth: Int) -> String {
        let loudest = r.loudest.map { (total ? $0.when : $0.clock) + String(cFormat: "  %.1f dBFS", $0.leq) } ?? "–"
        // A recording without a start time is named by its file; its path is in --csv and --json.
        let name = r.day == nil && !total ? PathText.lastComponent(r.night) : r.night
        return padded(LogText.escape(name), 17) + padded(minutes(r.heardMinutes), 10) + padded(minutes(r.snoringMinutes), 10)
            + padded(String(cFormat: "%.0f %%", 100 * r.snoringShare), 7) + padded("\(r.disturbances)", 14)
            + padded(alertWords(r.alerts), alertsWidth) + loudest
    }

    /// A night's alerts by tier, in words: "1 critical, 5 high, 2 medium", or "none".
    static func alertWords(_ alerts: [Tier: Int]) -> String {
        let said = Tier.allCases.compactMap { t in alerts[t].flatMap { $0 > 0 ? "\($0) \(t.rawValue)" : nil } }
        return said.isEmpty ? "none" : said.joined(separator: ", ")
    }

    /// `7.9 h` from an hour, else `12.5 min`.
    static func minutes(_ m: Double) -> String { m >= 60 ? String(cFormat: "%.1f h", m / 60) : String(cFormat: "%.1f min", m) }

    static func signed(_ x: Double) -> String {
        let r = tenth(x)
        return r == 0 ? "±0.0" : String(cFormat: "%+.1f", r)
    }

    /// Comma-separated values (RFC 4180), one row per night, with its week or month.
    public func csv() -> String {
        var columns = ["night"]
        if grouping != .all { columns.append(grouping.rawValue) }
        columns += ["sessions", "heard_min", "snoring_min", "snoring_share", "disturbances", "pauses",
                    "alerts_critical", "alerts_high", "alerts_medium", "alerts_low", "loudest_minute", "loudest_leq_dbfs"]
        // With episodes: their count, then a 1/0 column per symptom and tag, prefixed so
        // that a tag cannot take another column's name.
        let reported = reportedColumns
        if !reported.isEmpty {
            columns += ["episodes"] + reported.map { "\($0.kind)_\($0.name)" }
        }
        var out = columns.joined(separator: ",") + "\r\n"
        for p in periods {
            for r in p.rows {
                var fields = [Self.csvText(r.night)]
                if grouping != .all { fields.append(Self.csvText(p.label)) }
                fields += ["\(r.sessions)", Self.number(r.heardMinutes), Self.number(r.snoringMinutes),
                           JSONValue.rounded(r.snoringShare).compactText, "\(r.disturbances)", "\(r.pauses)"]
                fields += Tier.allCases.map { "\(r.alerts[$0] ?? 0)" }
                fields += [Self.csvText(r.loudest?.when ?? ""), r.loudest.map { Self.number($0.leq) } ?? ""]
                if !reported.isEmpty { fields += ["\(r.episodes)"] + reported.map { $0.has(r) ? "1" : "0" } }
                out += fields.map(Self.csvField).joined(separator: ",") + "\r\n"
            }
        }
        return out
    }

    /// A field quoted when it holds a comma, a quote or a line break; control characters
    /// from file names are escaped first, so the file is safe to print.
    static func csvField(_ s: String) -> String {
        let e = LogText.escape(s)
        return e.contains(where: { $0 == "," || $0 == "\"" }) ? "\"" + e.replacing("\"", with: "\"\"") + "\"" : e
    }

    /// A text cell that a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab
    /// or a carriage return first: a file name can be `=HYPERLINK(…)`) gets a `'` in
    /// front, as OWASP's CSV injection advice has it. Number cells are never passed here.
    static func csvText(_ s: String) -> String {
        guard let first = s.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return s }
        return "'" + s
    }

    static func number(_ x: Double) -> String { JSONValue.number(x).compactText }

    /// One JSON document: the nights, the periods with their totals, means, trend and
    /// change, and the total.
    public func json() -> String {
        var periodValues: [JSONValue] = []
        for p in periods {
            var members = [("period", JSONValue.string(p.label)), ("nights", .number(Double(p.nights)))]
            members += Self.figures(p.total)
            members.append(("per_night", .object([("snoring_min", .rounded(p.meanSnoring, 1)),
                                                  ("disturbances", .rounded(p.meanDisturbances, 1)),
                                                  ("alerts", .rounded(p.meanAlerts, 1))])))
            if let t = p.trend {
                members.append(("trend_per_night", .object([("snoring_min", .rounded(t.snoring, 1)),
                                                            ("disturbances", .rounded(t.disturbances, 1))])))
            }
            if let q = p.previous {
                members.append(("change", .object([("from", .string(q.label)),
                                                   ("snoring_min", .rounded(p.meanSnoring - q.snoring, 1)),
                                                   ("disturbances", .rounded(p.meanDisturbances - q.disturbances, 1)),
                                                   ("alerts", .rounded(p.meanAlerts - q.alerts, 1))])))
            }
            periodValues.append(.object(members))
        }
        let doc = JSONValue.object([
            ("grouping", .string(grouping.rawValue)),
            ("nights", .array(periods.flatMap { p in
                p.rows.map { r in
                    .object([("night", .string(r.night))] + (grouping == .all ? [] : [(grouping.rawValue, .string(p.label))]) + Self.figures(r))
                }
            })),
            ("periods", .array(periodValues)),
            ("total", .object([("nights", .number(Double(nights.filter { $0.sessions > 0 }.count)))] + Self.figures(total))),
        ] + (skipped.isEmpty ? [] : [("skipped", .object([("unreadable_lines", .number(Double(skipped.unreadable))),
                                                            ("overlong_lines", .number(Double(skipped.overlong))),
                                                            ("out_of_range_records", .number(Double(skipped.outOfRange)))]))]))
        return doc.prettyText + "\n"
    }

    package static func figures(_ r: NightRow) -> [(String, JSONValue)] {
        var m: [(String, JSONValue)] = [
            ("sessions", .number(Double(r.sessions))),
            ("heard_min", .number(r.heardMinutes)),
            ("snoring_min", .number(r.snoringMinutes)),
            ("snoring_share", .rounded(r.snoringShare)),
            ("disturbances", .number(Double(r.disturbances))),
            ("pauses", .number(Double(r.pauses))),
            ("alerts", .object(Tier.allCases.map { ($0.rawValue, .number(Double(r.alerts[$0] ?? 0))) })),
            ("events", .object(SoundClass.allCases.compactMap { c in r.events[c].map { (c.rawValue, .number(Double($0))) } })),
        ]
        if let l = r.loudest { m.append(("loudest_minute", .object([("when", .string(l.when)), ("leq_dbfs", .number(l.leq))]))) }
        if r.episodes > 0 {
            m.append(("episodes", .number(Double(r.episodes))))
            m.append(("symptoms", .array(r.symptoms.sorted().map { .string($0.rawValue) })))
            m.append(("tags", .array(r.tags.sorted().map { .string($0) })))
        }
        return m
    }
}
