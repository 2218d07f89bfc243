import SomniqCore
import SomniqSupport

/// What goes with what: for each tag and symptom the sleeper reported, the nights with it
/// beside the nights without, on the figures of the history (snoring minutes and share,
/// disturbances, alerts, breathing pauses), as means per night. Only nights with sound
/// recorded count; a factor needs `minimum` nights on each side. It says what went
/// together in these nights, never what caused what, and diagnoses nothing.
public struct Factors: Sendable {
    /// Three nights a side: fewer, and one odd night is the whole difference.
    public static let minimum = 3

    public struct Side: Sendable {
        public var nights: Int
        public var snoringMinutes: Double, snoringShare: Double, disturbances: Double, alerts: Double, pauses: Double

        init(_ rows: [NightRow]) {
            nights = rows.count
            let n = Double(max(1, rows.count))
            snoringMinutes = rows.reduce(0) { $0 + $1.snoringMinutes } / n
            snoringShare = rows.reduce(0) { $0 + $1.snoringShare } / n
            disturbances = Double(rows.reduce(0) { $0 + $1.disturbances }) / n
            alerts = Double(rows.reduce(0) { $0 + $1.alertCount }) / n
            pauses = Double(rows.reduce(0) { $0 + $1.pauses }) / n
        }
    }

    public struct Factor: Sendable {
        public enum Kind: String, Sendable { case tag, symptom }
        public var name: String
        public var kind: Kind
        public var with: Side, without: Side

        /// `tagged alcohol`, `with morning headache reported`.
        public var phrase: String {
            kind == .tag ? "tagged \(name)" : "with \(Episode.Symptom(rawValue: name)?.words ?? name) reported"
        }

        /// "On the 6 nights tagged alcohol, snoring took 38 % of the night; on the 15 others, 21 %."
        public var sentence: String {
            var s = String(cFormat: "On the %d night%@ %@, snoring took %.0f %% of the night; on the %d other%@, %.0f %%.",
                           with.nights, with.nights == 1 ? "" : "s", phrase, 100 * with.snoringShare,
                           without.nights, without.nights == 1 ? "" : "s", 100 * without.snoringShare)
            if with.pauses >= 0.5, with.pauses > without.pauses {
                s += String(cFormat: " Breathing pauses: %.1f a night against %.1f, worth a look with a doctor if it goes on.",
                            with.pauses, without.pauses)
            }
            return s
        }
    }

    public var factors: [Factor] = []
    /// Nights with sound recorded, which the factors rest on.
    public var nights = 0
    /// Nights with episodes and no sound recorded: not counted.
    public var withoutSound: [String] = []
    /// Tags and symptoms with too few nights on a side: (name, nights with, nights without).
    public var tooFew: [(name: String, with: Int, without: Int)] = []

    public init(_ history: History) {
        let heard = history.nights.filter { $0.heardSeconds > 0 }
        withoutSound = history.nights.filter { $0.heardSeconds == 0 && $0.episodes > 0 }.map(\.night)
        nights = heard.count
        let symptoms = Episode.Symptom.allCases.filter { s in heard.contains { $0.symptoms.contains(s) } }
        let tags = Set(heard.flatMap(\.tags)).sorted()
        let candidates: [(String, Factor.Kind, (NightRow) -> Bool)] =
            symptoms.map { s in (s.rawValue, .symptom, { $0.symptoms.contains(s) }) }
            + tags.map { t in (t, .tag, { $0.tags.contains(t) }) }
        for (name, kind, has) in candidates {
            let with = heard.filter(has), without = heard.filter { !has($0) }
            if with.count >= Self.minimum, without.count >= Self.minimum {
                factors.append(Factor(name: name, kind: kind, with: Side(with), without: Side(without)))
            } else {
                tooFew.append((name, with.count, without.count))
            }
        }
    }

    static let rows: [(String, @Sendable (Side) -> Double, String)] = [
        ("snoring", { $0.snoringMinutes }, "min"), ("share", { 100 * $0.snoringShare }, "%"),
        ("disturbances", { $0.disturbances }, ""), ("alerts", { $0.alerts }, ""), ("pauses", { $0.pauses }, ""),
    ]

    /// For a terminal: each factor's two sides and their difference, and its sentence.
    public func table() -> String {
        var out = ["factors: the nights with each tag or symptom beside those without, means per night (\(nights) night\(nights == 1 ? "" : "s") with sound recorded)"]
        for f in factors {
            out.append("")
            out.append("\(f.kind.rawValue) \(f.name): \(f.with.nights) nights with, \(f.without.nights) without")
            out.append("  " + padded("", 14) + padded("with", 11) + padded("without", 11) + "difference")
            for (label, pick, unit) in Self.rows {
                func v(_ x: Double) -> String { String(cFormat: "%.1f", x) + (unit.isEmpty ? "" : " " + unit) }
                out.append("  " + padded(label, 14) + padded(v(pick(f.with)), 11) + padded(v(pick(f.without)), 11)
                           + History.signed(pick(f.with) - pick(f.without)) + (unit.isEmpty ? "" : " " + unit))
            }
            out.append("  " + f.sentence)
        }
        if factors.isEmpty {
            out.append("")
            out.append("No tag or symptom has \(Self.minimum) nights with it and \(Self.minimum) without yet.")
        }
        out.append("")
        out += notes
        return out.map { LogText.escape($0) }.joined(separator: "\n") + "\n"
    }

    /// What the figures rest on, what they are not, and what was left out.
    public var notes: [String] {
        var out = ["These set the sleeper's own nights side by side: they show what went together, not what caused what, and somniq does not diagnose."]
        if !tooFew.isEmpty {
            out.append("Not enough nights yet (\(Self.minimum) with and \(Self.minimum) without): "
                       + tooFew.map { "\($0.name) (\($0.with) with, \($0.without) without)" }.joined(separator: ", ") + ".")
        }
        if !withoutSound.isEmpty {
            out.append("Not counted, no sound recorded: " + withoutSound.joined(separator: ", ") + ".")
        }
        return out
    }

    /// One row per factor (RFC 4180).
    public func csv() -> String {
        var header = ["factor", "kind", "nights_with", "nights_without"]
        let names = ["snoring_min", "snoring_share", "disturbances", "alerts", "pauses"]
        for n in names { header += ["\(n)_with", "\(n)_without", "\(n)_difference"] }
        var out = header.joined(separator: ",") + "\r\n"
        for f in factors {
            var fields = [History.csvText(f.name), f.kind.rawValue, "\(f.with.nights)", "\(f.without.nights)"]
            for (k, (_, pick, _)) in Self.rows.enumerated() {
                let scale = k == 1 ? 0.01 : 1
                let a = pick(f.with) * scale, b = pick(f.without) * scale
                fields += [JSONValue.rounded(a).compactText, JSONValue.rounded(b).compactText, JSONValue.rounded(a - b).compactText]
            }
            out += fields.map(History.csvField).joined(separator: ",") + "\r\n"
        }
        return out
    }

    public func json() -> String {
        func side(_ s: Side) -> JSONValue {
            .object([("nights", .number(Double(s.nights))), ("snoring_min", .rounded(s.snoringMinutes, 1)),
                     ("snoring_share", .rounded(s.snoringShare)), ("disturbances", .rounded(s.disturbances, 2)),
                     ("alerts", .rounded(s.alerts, 2)), ("pauses", .rounded(s.pauses, 2))])
        }
        let doc = JSONValue.object([
            ("nights", .number(Double(nights))),
            ("minimum_nights_each_side", .number(Double(Self.minimum))),
            ("factors", .array(factors.map { f in
                .object([("factor", .string(f.name)), ("kind", .string(f.kind.rawValue)), ("with", side(f.with)),
                         ("without", side(f.without)), ("sentence", .string(f.sentence))])
            })),
            ("too_few", .array(tooFew.map { .object([("factor", .string($0.name)), ("with", .number(Double($0.with))),
                                                     ("without", .number(Double($0.without)))]) })),
            ("without_sound", .array(withoutSound.map { .string($0) })),
        ])
        return doc.prettyText + "\n"
    }

    /// The history page's section.
    func html() -> String {
        let esc = HTMLReport.esc
        var h = "<h2 id=\"factors\">What goes with what</h2>\n"
        h += "<p class=\"sub\">The nights with each tag or symptom beside those without, means per night, over \(nights) night\(nights == 1 ? "" : "s") with sound recorded.</p>\n"
        if factors.isEmpty {
            h += "<p>No tag or symptom has \(Self.minimum) nights with it and \(Self.minimum) without yet.</p>\n"
        } else {
            h += "<div class=\"wide\"><table class=\"cards\">" + HTMLReport.head([""] + ["nights"] + Self.rows.map(\.0))
            for f in factors {
                func cells(_ s: Side) -> String {
                    Self.rows.map { HTMLReport.td($0.0, String(cFormat: "%.1f", $0.1(s)) + ($0.2.isEmpty ? "" : " " + $0.2), "n") }.joined()
                }
                h += "<tr><th>\(esc(f.kind.rawValue)) \(esc(f.name))</th>\(HTMLReport.td("nights", "\(f.with.nights)", "n"))\(cells(f.with))</tr>\n"
                h += "<tr><td>without</td>\(HTMLReport.td("nights", "\(f.without.nights)", "n"))\(cells(f.without))</tr>\n"
                h += "<tr><td colspan=\"7\">\(esc(f.sentence))</td></tr>\n"
            }
            h += "</tbody></table></div>\n"
        }
        return h + notes.map { "<p class=\"sub\">\(esc($0))</p>\n" }.joined()
    }
}
