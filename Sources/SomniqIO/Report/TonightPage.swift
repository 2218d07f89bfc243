import SomniqCore

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
            h += "<p><a href=\"\(esc(nightURL(key)))\">The whole report of the night so far</a></p>\n"
        } else {
            h += "<p>Nothing heard tonight (the night of \(esc(key))) yet.</p>\n"
        }
        h += "</div>\n<p class=\"sub\">somniq \(esc(version)) · this page updates itself every 5 s.</p>\n"
        return page(title: "somniq · tonight", body: h, web: web)
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
            return "<div class=\"status up\">" + parts.joined(separator: " · ") + ". <span class=\"sub\">\(updated)</span></div>"
        }
    }
}
