import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog
import SomniqSupport

/// A night as one self-contained HTML page: inline SVG and CSS, no script, no external
/// URL. The level of the night with its events under it, disturbances and snoring per
/// bin, the figures per class, every alert with its decision trace, the incidents.
public enum HTMLReport {
    /// What the web page adds to a report: links to the nights either side, and clips
    /// played over HTTP (each looked up by its event, never by a path from the URL).
    public struct Web: Sendable {
        /// The nights before and after, by key.
        public var previous: String?, next: String?
        /// A clip's URL, or nil when its file is gone.
        public var clipURL: @Sendable (Night.Event) -> String?
        /// Where a POST deletes a clip, when deleting is allowed (a token is set).
        public var deleteURL: (@Sendable (Night.Event) -> String)?
        /// Whether the page updates itself (tonight's): it loads /static/live.js.
        public var live = false
        /// Where a POST adds an episode to the night, when adding is allowed (a token is set).
        public var episodeURL: String?
        /// Where a POST labels an event (right, not this, it was …), when allowed (a token is set).
        public var labelURL: (@Sendable (Night.Event) -> String)?
        /// The sinks a test notification goes to ("phone (webhook)"), when tonight's page
        /// may send one (`somniq run` with sinks, and a token set).
        public var testSinks: [String]?

        public init(previous: String? = nil, next: String? = nil, clipURL: @escaping @Sendable (Night.Event) -> String?,
                    deleteURL: (@Sendable (Night.Event) -> String)? = nil) {
            self.previous = previous
            self.next = next
            self.clipURL = clipURL
            self.deleteURL = deleteURL
        }
    }

    /// The report of a night: a file with clips as file URLs (`somniq report`), or with
    /// `web`, the same page as the web page serves it.
    public static func render(_ night: Night, version: String, web: Web? = nil) -> String {
        let title = "somniq · night of \(night.key)"
        var h = "<h1>\(esc(title))</h1>\n<div class=\"sub\">\(esc(subtitle(night)))</div>\n"
        if let web { h += navigation(web) }
        h += body(night, web: web)
        h += "<p class=\"sub\">Profile \(night.profiles.map(esc).joined(separator: ", ")). Source \(night.sources.map(esc).joined(separator: ", ")). somniq \(esc(version)).</p>\n"
        return page(title: title, body: h, web: web)
    }

    /// The figures, the timeline and every section of a night.
    static func body(_ night: Night, web: Web?) -> String {
        let s = NightSummary(night)
        var h = ""
        if !night.skipped.isEmpty { h += "<p class=\"note\" id=\"skipped\">Not in this report: \(esc(night.skipped.description)).</p>\n" }
        h += figures(night, s)
        h += morning(night)
        h += reported(night, web: web)
        h += "<h2 id=\"timeline\">The night</h2>\n" + timeline(night)
        h += "<h2 id=\"disturbances\">Sounds per \(s.binSeconds == 60 ? "minute" : "\(Int(s.binSeconds / 60)) minutes")</h2>\n" + bars(night, s)
        h += "<h2 id=\"snoring\">Snoring</h2>\n" + snoring(night, s)
        h += "<h2 id=\"classes\">Each sound</h2>\n" + classTable(night, s)
        h += "<h2 id=\"alerts\">Alerts</h2>\n" + alertTable(night, s.alerts, web: web)
        // What this home's memory held back is listed to be heard and marked too: a sound
        // marked "right" here is one the memory stops holding back once it has learned again.
        let heldBack = night.events.filter { $0.suppressed == .home }.sorted { $0.onset < $1.onset }
        if !heldBack.isEmpty {
            h += "<h3 id=\"held-back\">Held back by this home's memory</h3>\n"
                + "<p>Heard, logged, and not alerted: each was like a sound marked “not this”. Mark one right if it was.</p>\n"
                + alertTable(night, heldBack, web: web)
        }
        h += "<h2 id=\"incidents\">Device and input</h2>\n" + incidents(night)
        return h
    }

    /// What the sleeper reported (`somniq episode add`), each beside what was heard then;
    /// on the web page with a token, the form to add one.
    static func reported(_ night: Night, web: Web?) -> String {
        guard !night.episodes.isEmpty || web?.episodeURL != nil else { return "" }
        var h = "<h2 id=\"reported\">What the sleeper reported</h2>\n"
        if night.episodes.isEmpty { h += "<p>Nothing yet.</p>\n" } else {
            h += "<ul>\n"
            for e in night.episodes {
                let r = ReportedEpisode(e, in: night)
                h += "<li>\(esc(r.sentence(night)))"
                if !e.tags.isEmpty { h += ". Tags: " + e.tags.map { "<b>\(esc($0))</b>" }.joined(separator: ", ") }
                if let note = e.note { h += ". <q>\(esc(note))</q>" }
                h += "</li>\n"
            }
            h += "</ul>\n"
        }
        if let url = web?.episodeURL { h += episodeForm(url) }
        return h
    }

    /// The morning's form: severity, symptoms, tags, a note, when and how long.
    static func episodeForm(_ url: String) -> String {
        var h = "<details><summary>Add what the sleeper reports</summary>\n<form class=\"episode\" method=\"post\" action=\"\(esc(url))\">\n"
        h += "<p>" + Episode.Severity.allCases.map { s in
            "<label><input type=\"radio\" name=\"severity\" value=\"\(s.rawValue)\"\(s == .mild ? " checked" : "")> \(s.rawValue)</label>"
        }.joined(separator: " ") + "</p>\n<p>"
        h += Episode.Symptom.allCases.map { s in
            "<label><input type=\"checkbox\" name=\"symptom\" value=\"\(s.rawValue)\"> \(esc(s.words))</label>"
        }.joined(separator: "<br>\n") + "</p>\n"
        h += "<p><label>Tags <input name=\"tags\" placeholder=\"alcohol side-sleeping\" maxlength=\"400\"></label></p>\n"
        h += "<p><label>Note <input name=\"note\" maxlength=\"\(Episode.maxNote)\"></label></p>\n"
        h += "<p><label>At <input name=\"at\" type=\"time\"></label> <label>for <input name=\"duration\" type=\"number\" min=\"0\" max=\"1440\" step=\"any\"> min</label></p>\n"
        return h + "<p><button>Add</button></p>\n</form></details>\n"
    }

    package static func figures(_ night: Night, _ s: NightSummary) -> String {
        var h = "<div class=\"figs\">"
        h += fig(TextReport.duration(night.heard), "heard")
        if night.unheard >= 1 { h += fig(TextReport.duration(night.unheard), "not heard (no audio)") }
        h += fig("\(night.events.count)", "sounds")
        h += fig("\(s.alerts.count)", "alerts")
        h += fig(TextReport.duration(s.snoringSeconds), String(cFormat: "snoring (%.0f %%)", 100 * s.snoringShare))
        if let m = s.loudestMinute {
            let over = m.leq - m.floor
            h += fig(EventWords.howLoud(over: over), "loudest minute, at \(night.clock(m.start))" + (over < 3 ? "" : ", " + EventWords.howFar(over: over)))
        }
        return h + "</div>\n"
    }

    /// A whole page around `body`: the file report's self-contained page, or the web
    /// page's, which scales to a phone and loads its one script from the server (its
    /// content-security-policy allows no inline script).
    public static func page(title: String, body: String, web: Web?) -> String {
        var h = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(esc(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1000px;padding:0 12px;color:#222;background:#fff}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}
        h1,h2,p,li,.sub,.status,.alarm{overflow-wrap:anywhere}
        .sub{color:#666}.figs{display:flex;gap:10px 28px;flex-wrap:wrap;margin:14px 0}.fig b{display:block;font-size:22px}
        table{border-collapse:collapse}td,th{padding:3px 10px;text-align:left;border-bottom:1px solid #eee}
        th{font-weight:600}td.n{text-align:right}.gone{color:#888}.wide{overflow-x:auto}
        audio{height:32px;width:240px;max-width:100%;vertical-align:middle}.note{background:#fff8e1;padding:8px 12px;border-left:4px solid #f9a825}
        .chart svg{display:block;width:100%;height:auto;overflow:visible}
        .lane{display:grid;grid-template-columns:11.458% 1fr 1.042%;align-items:center;border-bottom:1px solid #f3f3f3;font-size:11px;color:#444}
        .lane span{text-align:right;padding-right:6px;line-height:1.15}.chart .lane svg{height:14px;grid-column:2}svg text{font:11px system-ui,sans-serif;fill:#444}svg.key{vertical-align:-1px}.keyed{white-space:nowrap}
        nav{display:flex;gap:6px 18px;flex-wrap:wrap;margin:8px 0 4px}nav a{color:#0072B2}
        .status{padding:10px 14px;border-radius:6px;margin:12px 0}.up{background:#e8f5e9;border-left:5px solid #009E73}.down{background:#ffebee;border-left:5px solid #D55E00}
        .alarm{background:#D55E00;color:#fff;font-size:18px;padding:12px 14px;border-radius:6px;margin:12px 0}.alarm .sub{color:#fff}
        form.inline{display:inline}button{font:inherit;padding:1px 8px}form.mark select{font:inherit;max-width:10em}
        details.confirm{display:inline}details.confirm summary{display:inline;cursor:pointer;color:#0072B2}details.confirm[open] summary{color:#666}
        tr:target,tr:target td{background:#fff3c4}tr:target{outline:3px solid #f9a825}
        form.episode input:not([type]){width:20em;max-width:100%}form.episode input[type=number]{width:5em}
        @media (max-width:600px){
        body{margin:10px auto}
        table.cards,table.cards tbody,table.cards td,table.cards th{display:block}table.cards thead{display:none}
        table.cards tr{display:grid;grid-template-columns:1fr 1fr;gap:0 12px;border:1px solid #ddd;border-radius:6px;margin:8px 0;padding:6px 10px}
        table.cards td,table.cards th{border:0;padding:1px 0;text-align:left;overflow-wrap:anywhere}
        table.cards [data-label]::before{content:attr(data-label) ": ";color:#666;font-weight:400}
        table.cards tr>:first-child,table.cards td.whole{grid-column:1/-1}table.cards tr>:first-child{font-weight:600}
        table.cards td:empty{display:none}table.cards audio{width:100%}
        .chart svg text{font-size:26px}.chart svg .odd,.chart svg .unit{display:none}.chart svg circle{r:9px}.chart svg .tick{transform:translateY(10px)}
        .lane{font-size:12px}.lane span{grid-column:1/-1;text-align:left;padding:3px 0 0 11.458%}
        }
        </style>
        """
        if web?.live == true { h += "\n<script src=\"/static/live.js\" defer></script>" }
        return h + "</head><body>\n" + body + "</body></html>\n"
    }

    /// Links to tonight, the history, and the nights either side.
    package static func navigation(_ web: Web) -> String {
        var links = ["<a href=\"/\">tonight</a>", "<a href=\"/history\">history</a>"]
        if let p = web.previous { links.append("<a href=\"\(esc(nightURL(p)))\" rel=\"prev\">← \(esc(p))</a>") }
        if let n = web.next { links.append("<a href=\"\(esc(nightURL(n)))\" rel=\"next\">\(esc(n)) →</a>") }
        return "<nav>" + links.joined() + "</nav>\n"
    }

    /// `/night/2026-11-22`: a night's page on the web.
    public static func nightURL(_ key: String) -> String { "/night/" + percentEncoded(key) }

    /// Every byte but letters, digits and `-._~` as %XX (RFC 3986's unreserved set).
    public static func percentEncoded(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: out.unicodeScalars.append(Unicode.Scalar(b))
            default: out += String(cFormat: "%%%02X", Int(b))
            }
        }
        return out
    }

    package static func subtitle(_ night: Night) -> String {
        var parts: [String] = []
        if let start = night.start {
            parts.append("\(WallClock.localDate(start)) \(WallClock.localTime(start)) to \(WallClock.localTime(start + night.span))")
        } else {
            parts.append("a recording, times from its start")
        }
        parts.append("\(night.sessions) session\(night.sessions == 1 ? "" : "s")")
        return parts.joined(separator: " · ")
    }

    /// The morning summary as it was sent, when the log has it: its three lines, and when.
    static func morning(_ night: Night) -> String {
        guard let m = night.morningSummary, let text = m.text else { return "" }
        let sent = m.time.flatMap(WallClock.parse).map { " (sent \(WallClock.localDate($0)) at \(WallClock.localTime($0)))" } ?? ""
        return "<p class=\"summary\" id=\"morning-summary\"><b>The morning summary</b>\(esc(sent)):<br>"
            + text.split(separator: "\n").map { esc(String($0)) }.joined(separator: "<br>") + "</p>\n"
    }

    static func fig(_ value: String, _ label: String) -> String {
        "<div class=\"fig\"><b>\(esc(value))</b>\(esc(label))</div>"
    }

    // MARK: timeline

    static let width = 960.0, left = 110.0, right = 10.0

    private static func x(_ t: Double, _ span: Double) -> Double { left + (width - left - right) * t / max(span, 1) }

    /// The level chart over the night, then a lane per class with its sounds, on the
    /// chart's time axis. The lanes are HTML rows, each with an SVG strip spanning exactly
    /// the chart's plot area (`left` to `width - right`, as shares of the width), so that
    /// on a phone a lane's name can stand above its strip instead of in a margin too
    /// narrow for it.
    package static func timeline(_ night: Night) -> String {
        let span = max(night.span, night.heard, 1)
        let chartTop = 10.0, chartHeight = 170.0
        let lanes = SoundClass.allCases.filter { c in night.events.contains { $0.soundClass == c } }
        let height = chartTop + chartHeight + 30
        let values = night.minutes.flatMap { [$0.lmax, $0.l90, $0.floor] }
        let top = ((values.max() ?? -20) / 10).rounded(.up) * 10
        let bottom = min(top - 20, ((values.min() ?? -80) / 10).rounded(.down) * 10)
        func y(_ db: Double) -> Double { chartTop + chartHeight * (top - min(top, max(bottom, db))) / (top - bottom) }
        var svg = "<div class=\"chart\"><svg viewBox=\"0 0 \(f(width)) \(f(height))\" width=\"100%\" role=\"img\" aria-label=\"level through the night\">\n"
        var db = bottom
        while db <= top {
            svg += "<line x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(y(db)))\" y2=\"\(f(y(db)))\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(db) + 4))\" text-anchor=\"end\">\(Int(db))<tspan class=\"unit\"> dBFS</tspan></text>\n"
            db += 10
        }
        for (i, (t, label)) in ticks(night, span).enumerated() {
            svg += "<line x1=\"\(f(x(t, span)))\" x2=\"\(f(x(t, span)))\" y1=\"\(f(chartTop))\" y2=\"\(f(chartTop + chartHeight))\" stroke=\"#eee\"/>"
            svg += "<text class=\"tick\(i % 2 == 1 ? " odd" : "")\" x=\"\(f(x(t, span)))\" y=\"\(f(chartTop + chartHeight + 16))\" text-anchor=\"middle\">\(esc(label))</text>\n"
        }
        let m = night.minutes
        if !m.isEmpty {
            // The L90–Lmax band, the Leq line, the floor.
            let upper = m.flatMap { [(x($0.start, span), y($0.lmax)), (x($0.start + $0.seconds, span), y($0.lmax))] }
            let lower = m.reversed().flatMap { [(x($0.start + $0.seconds, span), y($0.l90)), (x($0.start, span), y($0.l90))] }
            svg += "<polygon fill=\"#bbdefb\" points=\"\(points(upper + lower))\"><title>L90 to Lmax</title></polygon>\n"
            svg += "<polyline fill=\"none\" stroke=\"#0d47a1\" stroke-width=\"2\" points=\"\(points(m.flatMap { [(x($0.start, span), y($0.leq)), (x($0.start + $0.seconds, span), y($0.leq))] }))\"><title>Leq</title></polyline>\n"
            svg += "<polyline fill=\"none\" stroke=\"#616161\" stroke-dasharray=\"4 3\" points=\"\(points(m.flatMap { [(x($0.start, span), y($0.floor)), (x($0.start + $0.seconds, span), y($0.floor))] }))\"><title>floor</title></polyline>\n"
        }
        // Reported episodes: a dashed line down the chart and every lane.
        var reported: [Double] = []
        for e in night.episodes {
            let r = ReportedEpisode(e, in: night)
            guard let t = r.time, t >= 0, t <= span else { continue }
            reported.append(x(t, span))
            let label = e.symptoms.first?.words ?? e.severity.rawValue
            svg += "<g class=\"reported\"><line x1=\"\(f(x(t, span)))\" x2=\"\(f(x(t, span)))\" y1=\"\(f(chartTop))\" y2=\"\(f(height))\" stroke=\"#6d4c41\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>"
            svg += "<text x=\"\(f(x(t, span) + 3))\" y=\"\(f(chartTop + 10))\" fill=\"#6d4c41\">reported: \(esc(label))</text>"
            svg += "<title>\(esc(r.sentence(night)))</title></g>\n"
        }
        svg += "</svg>\n"
        if !lanes.isEmpty {
            let plot = width - left - right
            svg += "<div class=\"lanes\" role=\"group\" aria-label=\"sounds through the night\">\n"
            for c in lanes {
                let name = c.rawValue.replacing("_", with: " ")
                svg += "<div class=\"lane\"><span>\(name)</span><svg viewBox=\"0 0 \(f(plot)) 14\" preserveAspectRatio=\"none\">"
                for e in night.events where e.soundClass == c {
                    let x0 = x(e.onset, span) - left, w = max(3, x(e.offset, span) - left - x0)
                    svg += "<rect class=\"event\" x=\"\(f(x0))\" y=\"1\" width=\"\(f(w))\" height=\"12\" fill=\"\(Palette.tier(e.tier))\">"
                    svg += "<title>\(esc(name)) \(night.clock(e.onset, seconds: true))–\(night.clock(e.offset, seconds: true)), \(e.tier.rawValue)</title></rect>"
                }
                for rx in reported {
                    svg += "<line x1=\"\(f(rx - left))\" x2=\"\(f(rx - left))\" y1=\"0\" y2=\"14\" stroke=\"#6d4c41\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\" vector-effect=\"non-scaling-stroke\"/>"
                }
                svg += "</svg></div>\n"
            }
            svg += "</div>\n"
        }
        svg += "</div>\n"
        let legend = Tier.allCases.map { "<span class=\"keyed\">\(Palette.key($0)) \($0.rawValue)</span>" }.joined(separator: " &nbsp; ")
        return svg + "<div class=\"sub\">Leq per minute in dBFS (line) in its L90–Lmax band, background floor dashed; each sound on its lane, coloured by tier: \(legend)</div>\n"
    }

    /// Every other tick's label is left out on a phone, where the chart is narrow.
    static func tickClass(_ i: Int) -> String { i % 2 == 1 ? " class=\"odd\"" : "" }

    /// Hour marks for a night, or marks at a round step for a short recording.
    private static func ticks(_ night: Night, _ span: Double) -> [(Double, String)] {
        let steps: [Double] = [30, 60, 300, 600, 900, 1800, 3600, 7200]
        let step = steps.first { span / $0 <= 10 } ?? 7200
        var out: [(Double, String)] = []
        var t = night.start.map { step - $0.truncatingRemainder(dividingBy: step) } ?? 0
        if t >= step { t -= step }
        while t <= span - step / 4 {
            out.append((t, night.clock(t, seconds: step < 60)))
            t += step
        }
        return out
    }

    // MARK: bins

    private static func bars(_ night: Night, _ s: NightSummary) -> String {
        let span = Double(s.bins.count) * s.binSeconds
        let height = 150.0, base = 130.0
        let most = max(1, s.bins.map { $0.counts.values.reduce(0, +) }.max() ?? 1)
        let present = SoundClass.allCases.filter { c in s.bins.contains { ($0.counts[c] ?? 0) > 0 } }
        var svg = "<div class=\"chart\"><svg viewBox=\"0 0 \(f(width)) \(f(height + 20))\" width=\"100%\" role=\"img\" aria-label=\"sounds per bin\">\n"
        let hatched = present.filter { Palette.swatch($0).hatched }
        if !hatched.isEmpty { svg += "<defs>" + hatched.map(Palette.pattern).joined() + "</defs>\n" }
        svg += "<text x=\"\(f(left - 6))\" y=\"\(f(base - 110 + 4))\" text-anchor=\"end\">\(most)</text><text x=\"\(f(left - 6))\" y=\"\(f(base + 4))\" text-anchor=\"end\">0</text>\n"
        let barWidth = max(1, x(s.binSeconds, span) - x(0, span) - 2)
        for bin in s.bins {
            var y = base
            for c in SoundClass.allCases {
                guard let n = bin.counts[c], n > 0 else { continue }
                let h = 110 * Double(n) / Double(most)
                y -= h
                svg += "<rect x=\"\(f(x(bin.start, span) + 1))\" y=\"\(f(y))\" width=\"\(f(barWidth))\" height=\"\(f(h))\" fill=\"\(Palette.fill(c))\"><title>\(night.clock(bin.start)): \(n) \(c.rawValue)</title></rect>"
            }
            svg += "\n"
        }
        for (i, (t, label)) in ticks(night, span).enumerated() {
            svg += "<text\(tickClass(i)) x=\"\(f(x(t, span)))\" y=\"\(f(base + 16))\" text-anchor=\"middle\">\(esc(label))</text>"
        }
        svg += "</svg></div>\n"
        return svg + "<div class=\"sub\">Sounds starting in each \(Int(s.binSeconds / 60))-minute bin, by class (the rarer ones hatched): "
            + present.map { "<span class=\"keyed\">\(Palette.key($0)) \($0.rawValue.replacing("_", with: " "))</span>" }.joined(separator: " &nbsp; ")
            + "</div>\n"
    }

    private static func snoring(_ night: Night, _ s: NightSummary) -> String {
        var h = "<p>\(esc(TextReport.duration(s.snoringSeconds))) of snoring, \(String(cFormat: "%.0f", 100 * s.snoringShare)) % of the \(esc(TextReport.duration(night.heard))) heard.</p>\n"
        let span = Double(s.bins.count) * s.binSeconds
        var svg = "<div class=\"chart\"><svg viewBox=\"0 0 \(f(width)) 90\" width=\"100%\" role=\"img\" aria-label=\"snore intensity per bin\">\n"
        svg += "<text x=\"\(f(left - 6))\" y=\"14\" text-anchor=\"end\">100</text><text x=\"\(f(left - 6))\" y=\"74\" text-anchor=\"end\">0</text>\n"
        let barWidth = max(1, x(s.binSeconds, span) - x(0, span) - 2)
        for bin in s.bins where bin.snoreIntensity > 0 {
            let hgt = 60 * bin.snoreIntensity / 100
            svg += "<rect x=\"\(f(x(bin.start, span) + 1))\" y=\"\(f(70 - hgt))\" width=\"\(f(barWidth))\" height=\"\(f(hgt))\" fill=\"\(Palette.swatch(.snoring).colour)\"><title>\(night.clock(bin.start)): intensity \(Int(bin.snoreIntensity))</title></rect>\n"
        }
        for (i, (t, label)) in ticks(night, span).enumerated() {
            svg += "<text\(tickClass(i)) x=\"\(f(x(t, span)))\" y=\"86\" text-anchor=\"middle\">\(esc(label))</text>"
        }
        h += svg + "</svg></div>\n<div class=\"sub\">Snore intensity per \(s.binSeconds == 60 ? "minute" : "\(Int(s.binSeconds / 60)) minutes"), 0–100: the share of the time spent snoring × how far the snoring stood above the floor (30 dB counts as full).</div>\n"
        if !s.loudestSnoring.isEmpty {
            h += "<p>Loudest stretches: " + s.loudestSnoring.map {
                "\(night.clock($0.onset)) (\(String(cFormat: "%.0f s", $0.seconds))\(EventWords.loudness(trace: $0.trace).map { ", " + esc($0) } ?? ""))"
            }.joined(separator: "; ") + ".</p>\n"
        }
        if !s.breathingPauses.isEmpty {
            h += "<p class=\"note\">\(s.breathingPauses.count) time\(s.breathingPauses.count == 1 ? "" : "s") a snore train stopped for 10 s or more and ended with a gasp or a louder snore (at "
                + s.breathingPauses.map { night.clock($0.onset) }.joined(separator: ", ")
                + "). This is a pattern worth a look, with a doctor if it recurs night after night; somniq does not diagnose.</p>\n"
        }
        return h
    }

    private static func classTable(_ night: Night, _ s: NightSummary) -> String {
        guard !s.classes.isEmpty else { return "<p>No sounds.</p>\n" }
        var h = "<table class=\"cards\">" + head(["sound", "tier", "events", "alerts", "minutes", "first", "last"])
        for l in s.classes {
            h += "<tr><td>\(Palette.key(l.soundClass)) \(l.soundClass.rawValue.replacing("_", with: " "))</td>" + td("tier", l.tier.rawValue)
                + td("events", "\(l.events)", "n") + td("alerts", "\(l.alerts)", "n") + td("minutes", String(cFormat: "%.1f", l.seconds / 60), "n")
                + td("first", night.clock(l.first)) + td("last", night.clock(l.last)) + "</tr>\n"
        }
        return h + "</tbody></table>\n"
    }

    /// Alerts with their decision trace and clip, in the order given.
    package static func alertTable(_ night: Night, _ alerts: [Night.Event], web: Web?) -> String {
        guard !alerts.isEmpty else { return "<p>No alerts.</p>\n" }
        let clips = alerts.contains { $0.clip != nil || $0.clipNotKept != nil }
        let marked = !night.labels.isEmpty
        let marking = web?.labelURL
        var h = "<div class=\"wide\"><table class=\"cards\">" + head(["time", "sound", "tier", "lasted", "why"] + (marked ? ["marked"] : []) + (clips ? ["clip"] : [])
                                                                    + (marking != nil ? ["mark"] : []))
        for e in alerts {
            let why = EventWords.why(trace: e.trace, of: e.soundClass)
            let lasted = e.open ? String(cFormat: "%.0f s so far, still open", e.seconds) : String(cFormat: "%.1f s", e.seconds) + (e.truncated ? " (cut off)" : "")
            h += "<tr id=\"\(esc("e-" + e.id))\"><td>\(night.clock(e.onset, seconds: true))</td>"
                + td("sound", e.soundClass.rawValue.replacing("_", with: " ")) + td("tier", "<span class=\"keyed\">\(Palette.key(e.tier)) \(e.tier.rawValue)</span>")
                + td("lasted", lasted) + td("why", esc(why), "whole")
                + (marked ? td("marked", esc(night.labels[e.id]?.verdict.words ?? "")) : "") + (clips ? td(nil, clipCell(e, web: web), "whole") : "")
                + (marking.map { td(nil, markForm(e, url: $0(e)), "whole") } ?? "") + "</tr>\n"
        }
        return h + "</tbody></table></div>\n"
    }

    /// The buttons that label an event (`somniq label` on the page): right, not this, or it
    /// was another class or something else.
    private static func markForm(_ e: Night.Event, url: String) -> String {
        let others = SoundClass.allCases.filter { $0 != e.soundClass && $0 != .breathingPause }
            .map { "<option value=\"\($0.rawValue)\">\($0.rawValue.replacing("_", with: " "))</option>" }.joined()
        return "<form class=\"mark\" method=\"post\" action=\"\(esc(url))\"><button name=\"as\" value=\"right\">right</button> "
            + "<button name=\"as\" value=\"not\">not this</button> <select name=\"was\" aria-label=\"it was\">"
            + "<option value=\"other\">something else</option>\(others)</select> <button name=\"as\" value=\"was\">it was …</button></form>"
    }

    /// An audio element for a kept clip: a file URL in a report (the report and the clips
    /// are on the same machine), an HTTP one on the web page; a note when its file is gone
    /// (the quota, or `somniq clips purge`), or when it was never written (`clip_skipped`:
    /// the disk full, …), whatever path the log names.
    private static func clipCell(_ e: Night.Event, web: Web?) -> String {
        if let why = e.clipNotKept { return "<span class=\"gone\">\(esc(TextReport.notKept(why)))</span>" }
        guard let path = e.clip else { return "" }
        if let web {
            guard let url = web.clipURL(e) else { return "<span class=\"gone\">deleted</span>" }
            var h = "<audio controls preload=\"none\" src=\"\(esc(url))\"></audio>"
            // Deleting asks first: a tap on "delete…" shows the button that deletes (no script).
            if let delete = web.deleteURL?(e) {
                h += " <details class=\"confirm\"><summary>delete…</summary> <form class=\"inline\" method=\"post\" action=\"\(esc(delete))\">"
                    + "<button>delete this clip for good</button></form></details>"
            }
            return h
        }
        guard FileManager.default.fileExists(atPath: path) else { return "<span class=\"gone\">deleted</span>" }
        let url = URL(fileURLWithPath: path).absoluteString
        return "<audio controls preload=\"none\" src=\"\(esc(url))\" title=\"\(esc(path))\"></audio>"
    }

    static func incidents(_ night: Night) -> String {
        guard !night.incidents.isEmpty else { return "<p>The microphone was heard all night: no device loss, silence, clipping or overrun.</p>\n" }
        return "<ul>\n" + night.incidents.map {
            "<li>\(night.clock($0.time, seconds: true)) <b>\(esc($0.status.rawValue))</b> \(esc($0.detail))</li>"
        }.joined(separator: "\n") + "\n</ul>\n"
    }

    // MARK: helpers

    /// A table's head row, and the start of its body: on a phone, the head is hidden and
    /// each row is a card whose cells say what they are (`td`'s label).
    static func head(_ names: [String]) -> String {
        "<thead><tr>" + names.map { "<th>\(esc($0))</th>" }.joined() + "</tr></thead><tbody>\n"
    }

    /// A cell of a row that is a card on a phone, where it is preceded by `label`.
    static func td(_ label: String?, _ html: String, _ cls: String? = nil) -> String {
        "<td" + (label.map { " data-label=\"\(esc($0))\"" } ?? "") + (cls.map { " class=\"\($0)\"" } ?? "") + ">\(html)</td>"
    }

    private static func points(_ p: [(Double, Double)]) -> String { p.map { "\(f($0.0)),\(f($0.1))" }.joined(separator: " ") }
    private static func f(_ v: Double) -> String { String(cFormat: "%.1f", v) }

    /// Text for HTML: markup characters as entities, control characters as escapes.
    package static func esc(_ s: String) -> String {
        var out = ""
        for ch in LogText.escape(s) {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }
}
