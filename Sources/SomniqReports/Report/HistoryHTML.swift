import SomniqCore
import SomniqSupport

extension History {
    /// The history as a page: snoring and disturbances by night drawn as bars, then each
    /// period's table (a row a night, its total, its means, trend and change), as
    /// `table()` prints them. `somniq history --html` writes it; the web page serves it
    /// with links to each night.
    public func html(version: String, web: HTMLReport.Web? = nil) -> String {
        typealias R = HTMLReport
        let esc = R.esc
        var h = "<h1>somniq · history</h1>\n"
        let dated = nights.compactMap(\.day)
        if let first = dated.first, let last = dated.last {
            h += "<div class=\"sub\">\(nights.count) night\(nights.count == 1 ? "" : "s"), \(Self.date(first)) to \(Self.date(last))</div>\n"
        }
        if let web { h += R.navigation(web) }
        if web != nil {
            h += "<nav>" + [(Grouping.all, "every night"), (.week, "by week"), (.month, "by month")].map { g, label in
                g == grouping ? "<b>\(label)</b>" : "<a href=\"/history\(g == .all ? "" : "?group=" + g.rawValue)\">\(label)</a>"
            }.joined() + "</nav>\n"
        }
        if !skipped.isEmpty { h += "<p class=\"note\">Not counted: \(esc(skipped.description)).</p>\n" }
        h += chart(web: web)
        for p in periods {
            if grouping != .all || p.label == "undated" {
                let days = p.rows.compactMap(\.day)
                let span = days.isEmpty ? "" : " · \(Self.date(days.first!)) to \(Self.date(days.last!))"
                h += "<h2>\(esc(p.label == "undated" ? "recordings without a start time" : "\(grouping.rawValue) \(p.label)"))<span class=\"sub\">\(span) · \(p.nights) night\(p.nights == 1 ? "" : "s")</span></h2>\n"
            }
            h += "<div class=\"wide\"><table class=\"cards\">" + R.head(Self.columns)
            for r in p.rows { h += row(r, link: web != nil && r.day != nil) }
            if p.nights > 1 {
                h += row(p.total, total: true)
                h += "<tr class=\"sub\"><td>a night</td>" + R.td("heard", esc(Self.minutes(p.total.heardMinutes / Double(p.nights))), "n")
                    + R.td("snoring", esc(Self.minutes(p.meanSnoring)), "n") + "<td></td>"
                    + R.td("disturbances", String(cFormat: "%.1f", p.meanDisturbances), "n") + "<td></td>"
                    + R.td("alerts", String(cFormat: "%.1f", p.meanAlerts), "n") + "<td></td></tr>\n"
            }
            h += "</tbody></table></div>\n"
            if let t = p.trend {
                h += "<p>Trend: snoring \(Self.signed(t.snoring)) min a night, disturbances \(Self.signed(t.disturbances)) a night (least squares over \(p.nights) nights).</p>\n"
            }
            if let q = p.previous {
                h += "<p>Against \(esc(grouping.rawValue)) \(esc(q.label)): snoring \(Self.signed(p.meanSnoring - q.snoring)) min a night, disturbances \(Self.signed(p.meanDisturbances - q.disturbances)), alerts \(Self.signed(p.meanAlerts - q.alerts)).</p>\n"
            }
        }
        if nights.contains(where: { $0.episodes > 0 }) { h += Factors(self).html() }
        if periods.count > 1 {
            h += "<h2>All nights</h2>\n<div class=\"wide\"><table class=\"cards\">" + R.head(Array(Self.columns.dropLast())) + row(total, total: true) + "</tbody></table></div>\n"
        }
        h += "<p class=\"sub\">somniq \(esc(version)).</p>\n"
        return R.page(title: "somniq · history", body: h, web: web)
    }

    /// The head of each period's table.
    static let columns = ["night", "heard", "snoring", "share", "disturbances", "pauses", "alerts", "loudest minute", "reported"]

    private func row(_ r: NightRow, total: Bool = false, link: Bool = false) -> String {
        let esc = HTMLReport.esc
        func td(_ label: String, _ html: String, _ cls: String? = nil) -> String { HTMLReport.td(label, html, cls) }
        let name = r.day == nil && !total ? PathText.lastComponent(r.night) : r.night
        let cell = link ? "<a href=\"\(esc(HTMLReport.nightURL(r.night)))\">\(esc(name))</a>" : esc(name)
        let loudest = r.loudest.map { (total ? $0.when : $0.clock) + String(cFormat: " · %.1f dBFS", $0.leq) } ?? "–"
        let open = total ? "<tr><th>" : "<tr><td>", close = total ? "</th>" : "</td>"
        return open + cell + close + td("heard", esc(Self.minutes(r.heardMinutes)), "n") + td("snoring", esc(Self.minutes(r.snoringMinutes)), "n")
            + td("share", String(cFormat: "%.0f %%", 100 * r.snoringShare), "n") + td("disturbances", "\(r.disturbances)", "n") + td("pauses", "\(r.pauses)", "n")
            + td("alerts", esc(Self.alertWords(r.alerts))) + td("loudest minute", esc(loudest), "whole")
            + (total ? "" : td("reported", esc((r.symptoms.sorted().map(\.rawValue) + r.tags.sorted()).joined(separator: ", ")), "whole")) + "</tr>\n"
    }

    /// Snoring minutes (bars) and disturbances (dots) of each dated night, on one time axis.
    private func chart(web: HTMLReport.Web?) -> String {
        let dated = nights.filter { $0.day != nil }
        guard dated.count >= 2, let first = dated.first?.day, let last = dated.last?.day else { return "" }
        let width = 960.0, left = 50.0, right = 40.0, top = 10.0, height = 120.0
        let days = Double(max(1, last - first + 1))
        let step = (width - left - right) / days
        let most = max(1, dated.map(\.snoringMinutes).max() ?? 1)
        let mostDisturbances = Double(max(1, dated.map(\.disturbances).max() ?? 1))
        func f(_ v: Double) -> String { String(cFormat: "%.1f", v) }
        // Snoring in its class's colour; disturbances in vermillion, apart from it for every
        // kind of colour vision (Okabe–Ito).
        let snoring = Palette.swatch(.snoring).colour, disturbances = Palette.vermillion
        var svg = "<h2>Snoring and disturbances by night</h2>\n<div class=\"chart\"><svg viewBox=\"0 0 \(f(width)) \(f(height + 30))\" width=\"100%\" role=\"img\" aria-label=\"snoring minutes and disturbances by night\">\n"
        svg += "<text x=\"\(f(left - 6))\" y=\"\(f(top + 4))\" text-anchor=\"end\">\(Int(most.rounded())) min</text><text x=\"\(f(left - 6))\" y=\"\(f(top + height))\" text-anchor=\"end\">0</text>"
        svg += "<text x=\"\(f(width - right + 6))\" y=\"\(f(top + 4))\">\(Int(mostDisturbances))</text>\n"
        for r in dated {
            let x = left + Double(r.day! - first) * step
            let h = height * r.snoringMinutes / most
            var bar = "<rect x=\"\(f(x))\" y=\"\(f(top + height - h))\" width=\"\(f(max(1, step - 1)))\" height=\"\(f(h))\" fill=\"\(snoring)\"><title>\(HTMLReport.esc(r.night)): \(String(cFormat: "%.1f", r.snoringMinutes)) min snoring, \(r.disturbances) disturbances</title></rect>"
            if web != nil { bar = "<a href=\"\(HTMLReport.esc(HTMLReport.nightURL(r.night)))\">\(bar)</a>" }
            svg += bar
            let y = top + height - height * Double(r.disturbances) / mostDisturbances
            svg += "<circle cx=\"\(f(x + step / 2))\" cy=\"\(f(y))\" r=\"4\" fill=\"\(disturbances)\"/>\n"
        }
        svg += "<text x=\"\(f(left))\" y=\"\(f(top + height + 18))\">\(Self.date(first))</text><text x=\"\(f(width - right))\" y=\"\(f(top + height + 18))\" text-anchor=\"end\">\(Self.date(last))</text>\n"
        return svg + "</svg></div>\n<div class=\"sub\"><span style=\"color:\(snoring)\">■</span> snoring minutes (left scale) &nbsp; <span style=\"color:\(disturbances)\">●</span> disturbances (right scale)</div>\n"
    }
}
