import SomniqCore
import SomniqReports
import SomniqSinks
import SomniqSupport

extension HTMLReport {
    /// What the web page's first page says of the capture: the daemon's state, or, for
    /// `somniq serve`, the log it serves.
    public enum Capture: Sendable {
        case daemon(LiveState.Snapshot)
        case log(String)
    }

    /// How many alerts tonight's page lists, newest first.
    public static let latestAlerts = 10

    /// Tonight so far: whether the daemon listens (the device, the level now, the floor),
    /// the night's figures and timeline, and its latest alerts with their clips. The parts
    /// marked `data-live` are what /static/live.js replaces every few seconds.
    public static func tonight(_ night: Night?, key: String, previous: String?, capture: Capture, now: Double,
                               version: String, web: Web) -> String {
        var h = "<h1>somniq · tonight</h1>\n"
        var web = web
        web.live = true
        web.previous = previous
        h += navigation(web)
        h += "<div id=\"status\" data-live>" + status(capture, now: now) + "</div>\n"
        let logged = night
        let night = night.map { soFar($0, capture: capture, now: now) }
        h += "<div id=\"sounding\" data-live>" + (logged.map { sounding($0, capture: capture, now: now) } ?? "") + "</div>\n"
        h += "<div id=\"tonight\" data-live>\n"
        if let night {
            h += "<div class=\"sub\">Night of \(esc(key)) · \(esc(subtitle(night)))</div>\n"
            let s = NightSummary(night)
            h += figures(night, s)
            h += "<h2>The night so far</h2>\n" + timeline(night)
            let latest = Array(s.alerts.reversed().prefix(latestAlerts))
            h += "<h2>Latest alerts</h2>\n" + alertTable(night, latest, web: web)
            if s.alerts.count > latest.count {
                h += "<p><a href=\"\(esc(nightURL(key)))#alerts\">All \(s.alerts.count) alerts of the night</a></p>\n"
            }
            let heldBack = night.events.count { $0.suppressed == .home }
            if heldBack > 0 {
                h += "<p><a href=\"\(esc(nightURL(key)))#held-back\">\(heldBack) \(heldBack == 1 ? "sound" : "sounds") held back by this home's memory</a>: hear and mark them.</p>\n"
            }
            h += "<p><a href=\"\(esc(nightURL(key)))\">The whole report of the night so far</a></p>\n"
        } else {
            h += "<p>Nothing heard tonight (the night of \(esc(key))) yet.</p>\n"
        }
        h += "</div>\n"
        if let sinks = web.testSinks { h += testForm(sinks) }
        h += "<p class=\"sub\">somniq \(esc(version)) · this page updates itself every 5 s.</p>\n"
        return page(title: "somniq · tonight", body: h, web: web)
    }

    /// A session's log is fresh while it has been written to within this long: a level
    /// record comes every minute, final up to 11 s after the minute ends.
    static let freshSeconds = 150.0

    /// Tonight's night as the page shows it: the log's, brought up to now. The log's level
    /// records come a minute at a time, so the daemon's stream time says what was heard
    /// since the last one (before the first, all of it); an event still open at the log's
    /// end lasts until now. The night itself stays as the log has it.
    static func soFar(_ night: Night, capture: Capture, now: Double) -> Night {
        var n = night
        var end: Double?
        switch capture {
        case let .daemon(s):
            // The daemon writes the log it serves: the session open at its end is its own.
            if let open = night.openSession {
                n.heard += max(0, s.streamSeconds - open.logged)
                end = open.offset + max(s.streamSeconds, open.logged)
            }
        case .log:
            if goesOn(night, capture: capture, now: now), let start = night.start { end = now - start }
        }
        guard let end else { return n }
        n.span = max(n.span, end)
        for i in n.events.indices where n.events[i].open { n.events[i].offset = max(n.events[i].offset, end) }
        return n
    }

    /// Whether the session open at the log's end (`night`, as the log has it) goes on now:
    /// the daemon's, while it listens; for `somniq serve`, while its log is fresh.
    static func goesOn(_ night: Night, capture: Capture, now: Double) -> Bool {
        guard night.openSession != nil else { return false }
        switch capture {
        case let .daemon(s): return LiveState.problem(s, now: now) == nil
        case .log: return night.start.map { now - ($0 + night.span) < freshSeconds } ?? false
        }
    }

    /// A banner for each critical sound still sounding (its event open at the log's end):
    /// "Smoke alarm — sounding for 35 s". When the session no longer goes on (the device
    /// lost, or a log no longer written to), it says where the log stops instead.
    /// `night` is as the log has it.
    static func sounding(_ night: Night, capture: Capture, now: Double) -> String {
        let live = goesOn(night, capture: capture, now: now)
        let shown = soFar(night, capture: capture, now: now)
        var h = ""
        for e in shown.events where e.open && e.tier == .critical {
            let since = night.clock(e.onset, seconds: true)
            h += "<div class=\"alarm\" role=\"alert\"><b>\(esc(EventWords.title(e.soundClass)))</b> — "
            if live {
                h += "sounding for \(esc(TextReport.duration(e.seconds))) <span class=\"sub\">(since \(since))</span></div>\n"
            } else {
                h += "open in the log since \(since), which has nothing after \(night.clock(night.span, seconds: true)): is somniq listening?</div>\n"
            }
        }
        return h
    }

    /// Where tonight's page sends a test notification (POST, with the token, from the page).
    public static let testURL = "/test-notification"

    /// The button that sends one test notification through every sink, as `somniq test-alert` does.
    static func testForm(_ sinks: [String]) -> String {
        "<h2 id=\"notifications\">Notifications</h2>\n<form method=\"post\" action=\"\(testURL)\"><p>Alerts go to "
            + sinks.map { "<b>\(esc($0))</b>" }.joined(separator: ", ")
            + ". <button>Send a test notification</button></p></form>\n"
    }

    /// What became of a test notification at each sink, as `somniq test-alert` prints it.
    public static func testResults(_ results: [SinkHub.TestResult], room: String, version: String) -> String {
        var h = "<h1>somniq · test notification</h1>\n" + navigation(Web(clipURL: { _ in nil }))
        let failed = results.filter { $0.failure != nil }.count
        h += "<p>A test notification for the room <b>\(esc(room))</b>, at the critical tier: "
            + (failed == 0 ? "every sink delivered it." : "\(failed) of \(results.count) sink\(results.count == 1 ? "" : "s") did not.") + "</p>\n<ul id=\"results\">\n"
        for r in results {
            let outcome = r.failure.map { "<b>not delivered</b>: \(esc($0))" } ?? String(cFormat: "delivered in %.1f s", r.seconds)
            h += "<li class=\"\(r.failure == nil ? "delivered" : "failed")\"><b>\(esc(r.sink))</b> (\(esc(r.type))): \(outcome)</li>\n"
        }
        h += "</ul>\n<p class=\"sub\">somniq \(esc(version)).</p>\n"
        return page(title: "somniq · test notification", body: h, web: nil)
    }

    static func status(_ capture: Capture, now: Double) -> String {
        switch capture {
        case let .log(path):
            return "<div class=\"status\">Serving the log <b>\(esc(path))</b>: no capture here.</div>"
        case let .daemon(s):
            let updated = "updated \(WallClock.localTime(now, seconds: true))"
            if let problem = LiveState.problem(s, now: now) {
                return "<div class=\"status down\"><b>Not listening</b>: \(esc(problem)). <span class=\"sub\">\(updated)</span></div>"
            }
            var parts = ["<b>Listening</b> on \(esc(s.device))"]
            if let since = s.since { parts[0] += " since \(WallClock.localTime(since))" }
            if let level = s.levelDbfs, let floor = s.floorDbfs {
                parts.append(String(cFormat: "level now %.1f dBFS over a floor of %.1f dBFS", level, floor))
            }
            if !s.profile.isEmpty { parts.append("profile \(esc(s.profile))") }
            parts.append("room \(esc(s.room))")
            if let home = s.home { parts.append(esc(home)) }
            if let fit = s.homeFit { parts.append(esc(fit)) }
            return "<div class=\"status up\">" + parts.joined(separator: " · ") + ". <span class=\"sub\">\(updated)</span></div>"
        }
    }
}
