import Foundation
@testable import SomniqReports
@testable import SomniqSinks
@testable import SomniqSupport
import SomniqTestSupport
import Synchronization
import Testing
@testable import SomniqWeb
import SomniqCore

/// The web page on a phone, for a carer reading it at night: no page scrolls sideways, clips
/// play full width, a critical sound still sounding is a banner, and a test notification can
/// be sent from the page. Through the real server (`somniq serve`, `somniq run` on the ALSA
/// file plugin), laid out by chromium as a phone (390 × 844, its meta viewport honoured) and
/// as a desktop (1280 × 900).
@Suite(.serialized) final class WebPhoneTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    static let token = "0123456789abcdef0123456789abcdef"

    /// Three nights with clips, then tonight so far: the demo night replayed as if it began
    /// 150 s ago, its log cut just after its smoke alarm's event began (118 s in), so that
    /// the session goes on and the alarm is still sounding. `alarm`: when (Unix time) its
    /// event began; `zone`: the time zone (TZ) the replay and the page run in, one in which
    /// those 150 s are all tonight's. The page and `replay --start` run in processes of their
    /// own, on the machine's wall clock, which no test moves: so the zone is chosen, UTC, or
    /// UTC+1 when UTC's noon (a night's turn) falls between the replay's start and 10 min from
    /// now (the test's whole run, the pages laid out at two widths with room to spare). UTC+1's
    /// noon is an hour earlier, so one of the two zones holds the whole span.
    func threeNightsAndTonight() throws -> (log: String, clips: String, tonight: String, alarm: Double, zone: String) {
        let (log, clips) = try threeNights(in: dir)
        let start = (Date().timeIntervalSince1970 - 150).rounded(.down)
        func local(_ unix: Double, hours: Double) -> String { WallClock.iso8601(Date(timeIntervalSince1970: unix + hours * 3600)) }
        func night(_ unix: Double, hours: Double) -> String { String(local(unix - 12 * 3600, hours: hours).prefix(10)) }
        let hours: Double = night(start, hours: 0) == night(Date().timeIntervalSince1970 + 600, hours: 0) ? 0 : 1
        let zone = hours == 0 ? "UTC0" : "<+01>-1"
        let replayed = dir + "/tonight.jsonl"
        let at = String(local(start, hours: hours).prefix(19))   // its local date and time, to the second
        let r = try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl", "--output", replayed, "--start", at, "--clips", clips],
                               environment: ProcessInfo.processInfo.environment.merging(["TZ": zone]) { $1 })
        #expect(r.status == 0, "\(r.stderr)")
        var lines: [String] = [], alarm = Double.nan
        for line in try String(contentsOfFile: replayed, encoding: .utf8).split(separator: "\n") {
            lines.append(String(line))
            if line.contains("\"kind\":\"event_start\"") && line.contains("\"class\":\"smoke_alarm\"") {
                // The session began at `start`, a whole second.
                alarm = start + (try JSONValue(parsing: String(line))["onset_s"]?.numberValue ?? .nan)
                break
            }
        }
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        handle.closeFile()
        return (log, clips, night(start, hours: hours), alarm, zone)
    }

    /// What chromium laid out: one line per page (scripts/chromium-layout.py).
    struct Layout {
        var url: String
        var scrollWidth: Int, width: Int
        var widest: String?
        var audio: [Int]
        var banner: String?
    }

    /// `extra`: a script whose value is the layout's `banner` (by default, the alarm banner's text).
    func layout(_ urls: [String], size: String, mobile: Bool,
                extra: String = "(document.querySelector('.alarm') || {}).textContent || null") throws -> [Layout] {
        let r = try runProgram("/usr/bin/python3", [Paths.package + "/scripts/chromium-layout.py", "--size", size]
            + (mobile ? ["--mobile"] : []) + ["--header", "Authorization: Bearer \(Self.token)", "--eval", extra] + urls)
        #expect(r.status == 0, "\(r.stderr)")
        return try r.stdout.split(separator: "\n").map { line in
            let v = try JSONValue(parsing: String(line))
            guard case let .array(audio)? = v["audio"] else { throw CurlFailed(message: "no audio in \(line)") }
            return Layout(url: v["url"]?.stringValue ?? "", scrollWidth: Int(v["scrollWidth"]?.numberValue ?? -1),
                          width: Int(v["width"]?.numberValue ?? -1), widest: v["widest"]?.stringValue,
                          audio: audio.compactMap { $0.numberValue.map(Int.init) }, banner: v["extra"]?.stringValue)
        }
    }

    /// `somniq serve` of `log` and `clips`, its page behind `token` (its file private, as
    /// the daemon asks), in the time zone `zone` (TZ) if given.
    func served(_ log: String, clips: String, zone: String? = nil) throws -> WebTests.Served {
        try WebTests.Served(log, clips: clips, tokenFile: try tokenFile(in: dir), zone: zone)
    }

    /// A token file holding `token`, readable by its owner alone.
    func tokenFile(in directory: String) throws -> String {
        let path = directory + "/token"
        try Self.token.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// At 390 × 844 as a phone and at 1280 × 900 as a desktop, tonight, a night (with its
    /// episode form open), the history and the history by week are no wider than the screen;
    /// on the phone every clip player is as wide as its card; tonight's smoke alarm, its
    /// event still open in the log, is a banner and is listed as still open.
    @Test func noPageScrollsSidewaysAndAnAlarmStillSoundingIsABanner() throws {
        let (log, clips, tonight, alarm, zone) = try threeNightsAndTonight()
        let server = try served(log, clips: clips, zone: zone)
        defer { server.stop() }
        let base = server.base
        let paths = ["/", "/night/2026-11-22", "/history", "/history?group=week", "/night/\(tonight)"]

        let laying = Date().timeIntervalSince1970
        let phone = try layout(paths.map { base + $0 }, size: "390x844", mobile: true)
        let laid = Date().timeIntervalSince1970
        let desktop = try layout(paths.map { base + $0 }, size: "1280x900", mobile: false)
        #expect(phone.count == paths.count && desktop.count == paths.count)
        for page in phone + desktop {
            print("\(page.width) px: \(page.url.dropFirst(base.count)) is \(page.scrollWidth) px wide, clips \(page.audio) px")
            #expect(page.scrollWidth <= page.width, "\(page.url) at \(page.width) px: \(page.scrollWidth) px wide (\(page.widest ?? "?"))")
        }
        for page in phone {
            // A card is the screen less the page's 12 px margins, its border and its 10 px padding.
            #expect(page.audio.allSatisfy { $0 >= 300 }, "\(page.url): clip players \(page.audio) px wide")
        }
        #expect(phone[0].audio.count >= 4 && phone[1].audio.count == 6, "tonight's and the night's clips")

        let banner = try #require(phone[0].banner, "no banner on tonight's page")
        let said = try #require(banner.firstMatch(of: /^Smoke alarm — sounding for (\d+(?:\.\d)?) (s|min) \(since \d\d:\d\d:\d\d\)$/), "\(banner)")
        let sounding = Double(said.1)! * (said.2 == "min" ? 60 : 1)
        // As long as it had sounded while chromium laid the phone's pages out, which the test
        // measured around it (a slow machine may take minutes), to the page's rounding: a
        // second, or a tenth of a minute past one.
        let rounding = sounding >= 60 ? 3.0 : 0.5
        print("the banner says \(said.1) \(said.2); the alarm had sounded \(Int(laying - alarm))-\(Int(laid - alarm)) s while the phone's pages were laid out")
        #expect(sounding >= laying - alarm - rounding && sounding <= laid - alarm + rounding,
                "\(banner): not within \(laying - alarm)-\(laid - alarm) s")
        #expect(desktop[0].banner == banner || desktop[0].banner?.hasPrefix("Smoke alarm — sounding for ") == true)
        #expect(phone.dropFirst().allSatisfy { $0.banner == nil }, "only tonight's page has the banner")

        let page = try fetch(base + "/", headers: ["Authorization: Bearer \(Self.token)"]).text
        #expect(page.contains("s so far, still open") && !page.contains("(cut off)"), "an open event is not cut off")
        let api = try JSONValue(parsing: try fetch(base + "/api/night/\(tonight)", headers: ["Authorization: Bearer \(Self.token)"]).text)
        guard case let .array(events)? = api["events"] else { Issue.record("no events"); return }
        #expect(events.last?["class"] == .string("smoke_alarm") && events.last?["open"] == .bool(true) && events.last?["truncated"] == .bool(false))
        // somniq serve has no sinks: no button, and nothing to send.
        #expect(!page.contains("Send a test notification"))
        let post = try fetch(base + "/test-notification", method: "POST", headers: ["Authorization: Bearer \(Self.token)", "Origin: \(base)"])
        #expect(post.status == 404 && post.text.hasPrefix("no sinks to test"))
    }

    /// Each alert of a night has "right", "not this" and "it was …" on the page: on a phone
    /// they fit its card, and a press appends a label record to the log (POST, with the token
    /// and from the page's own origin, as every other POST), which the page then shows.
    @Test func anEventIsMarkedFromThePhone() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try served(log, clips: clips)
        defer { server.stop() }
        let base = server.base, auth = "Authorization: Bearer \(Self.token)", night = base + "/night/2026-11-22"
        let page = try fetch(night, headers: [auth]).text
        let action = try #require(page.firstMatch(of: /<form class="mark" method="post" action="(\/night\/2026-11-22\/event\/([^\/"]+)\/label)">/), "no mark buttons")
        let id = String(action.2)
        #expect(page.contains("<button name=\"as\" value=\"right\">right</button> <button name=\"as\" value=\"not\">not this</button>"))

        // Laid out as a phone, every form of buttons ends inside the screen.
        let widths = try layout([night], size: "390x844", mobile: true,
                                extra: "String(Math.max(...[...document.querySelectorAll('form.mark')].map(f => f.getBoundingClientRect().right)))")
        #expect(widths.count == 1 && widths[0].scrollWidth <= widths[0].width, "\(widths.first?.widest ?? "?")")
        #expect(Double(widths.first?.banner ?? "") ?? 999 <= 390, "the buttons end at \(widths.first?.banner ?? "?") px")

        let url = base + String(action.1), form = "Content-Type: application/x-www-form-urlencoded"
        #expect(try fetch(url, method: "POST", headers: ["Origin: \(base)", form], body: "as=not").status == 401, "no token")
        #expect(try fetch(url, method: "POST", headers: [auth, form], body: "as=not").status == 403, "no origin")
        #expect(try fetch(url, method: "POST", headers: [auth, "Origin: http://evil.example", form], body: "as=not").status == 403)
        #expect(try fetch(url, method: "POST", headers: [auth, "Origin: \(base)", form], body: "as=maybe").status == 400)
        #expect(try fetch(base + "/night/2026-11-22/event/nope/label", method: "POST", headers: [auth, "Origin: \(base)", form], body: "as=not").status == 404)
        #expect(!kinds(records(log)).contains("label"), "refused requests write nothing")

        let marked = try fetch(url, method: "POST", headers: [auth, "Origin: \(base)", form], body: "as=was&was=dog_bark")
        #expect(marked.status == 303)
        let label = try #require(records(log).last)
        #expect(label["kind"] == .string("label") && label["id"] == .string(id) && label["as"] == .string("dog_bark") && label["night"] == .string("2026-11-22"))
        #expect(try fetch(url, method: "POST", headers: [auth, "Origin: \(base)", form], body: "as=right").status == 303)
        #expect(try fetch(night, headers: [auth]).text.contains("<td data-label=\"marked\">right</td>"), "a later label wins")
    }

    /// A notification's link (`public_url/night/DATE#e-ID`) opens the night at its event,
    /// highlighted, with its mark buttons; a clip's delete asks first: "delete…" opens the
    /// button that deletes, which fits the phone's screen.
    @Test func theNotificationsLinkOpensItsEventAndDeletingAClipAsksFirst() throws {
        let (log, clips) = try threeNights(in: dir)
        let server = try served(log, clips: clips)
        defer { server.stop() }
        let night = server.base + "/night/2026-11-22"
        let page = try fetch(night, headers: ["Authorization: Bearer \(Self.token)"]).text
        let row = try #require(page.firstMatch(of: /<tr id="e-([^"]+)">/), "no event row")
        let id = String(row.1)
        // The page as the link opens it: scrolled to the event's row, highlighted, its buttons there.
        let script = """
        (function(){var t=document.querySelector('tr:target');var d=document.querySelector('details.confirm');
        var b=d.querySelector('button').getBoundingClientRect();
        return [t?t.id:'none', getComputedStyle(t.cells[0]).backgroundColor, t.querySelector('form.mark')?'mark':'no mark',
                window.scrollY>0?'scrolled':'top', String(Math.round(b.right)), d.querySelector('summary').textContent].join('|');})()
        """
        let shown = try layout([night + "#e-" + id], size: "390x844", mobile: true, extra: script)
        #expect(shown.count == 1 && shown[0].scrollWidth <= shown[0].width, "\(shown.first?.widest ?? "?")")
        let parts = (shown.first?.banner ?? "").split(separator: "|").map(String.init)
        #expect(parts.count == 6, "\(parts)")
        if parts.count == 6 {
            #expect(parts[0] == "e-" + id && parts[1] == "rgb(255, 243, 196)" && parts[2] == "mark" && parts[3] == "scrolled", "\(parts)")
            #expect((Double(parts[4]) ?? 999) <= 390, "the delete button ends at \(parts[4]) px")
            #expect(parts[5] == "delete…")
        }
        // Closed until tapped: the page holds no delete button outside a confirm step.
        #expect(!page.contains("<details class=\"confirm\" open"))
        #expect(page.components(separatedBy: "<button>delete this clip for good</button>").count
                == page.components(separatedBy: "<details class=\"confirm\"><summary>delete…</summary>").count)
    }

    /// A log whose session is still open but no longer written to (a daemon that died)
    /// says where the log stops, not that the alarm sounds; the same event in a session
    /// that ended is cut off.
    @Test func anAlarmOpenInALogNoLongerWrittenIsNotSaidToSound() throws {
        let t0 = Date().timeIntervalSince1970 - 900
        func at(_ s: Double) -> String { WallClock.iso8601(Date(timeIntervalSince1970: t0 + s)) }
        let lines = [
            #"{"v":1,"kind":"session_start","source":{"type":"alsa","device":"hw:0"},"profile":"balanced","profile_sha256":"x","start_time":"\#(at(0))"}"#,
            #"{"v":1,"kind":"level","start_s":0,"seconds":60,"time":"\#(at(0))","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{}}"#,
            #"{"v":1,"kind":"event_start","id":"e1","class":"smoke_alarm","tier":"critical","onset_s":70,"onset_time":"\#(at(70))","alert":true}"#,
        ]
        let log = dir + "/stale.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let index = LogIndex(log: log, indexPath: nil)
        try index.refresh()
        let night = try #require(try index.night(WallClock.night(t0)))
        #expect(night.events.count == 1 && night.events[0].open && !night.events[0].truncated)
        #expect(night.openSession?.logged == 60)
        let page = HTMLReport.tonight(night, key: night.key, previous: nil, capture: .log(log), now: Date().timeIntervalSince1970,
                                      version: "t", web: .init(clipURL: { _ in nil }))
        #expect(!page.contains("sounding for"))
        #expect(page.contains("<b>Smoke alarm</b> — open in the log since \(night.clock(70, seconds: true)), which has nothing after \(night.clock(70, seconds: true)): is somniq listening?"))

        try (lines.joined(separator: "\n") + "\n" + #"{"v":1,"kind":"session_end","stream_s":80,"reason":"signal"}"# + "\n")
            .write(toFile: log, atomically: true, encoding: .utf8)
        let ended = LogIndex(log: log, indexPath: nil)
        try ended.refresh()
        let closed = try #require(try ended.night(WallClock.night(t0)))
        #expect(closed.events[0].truncated && !closed.events[0].open && closed.openSession == nil)
    }

    /// Before the log has its first level record, tonight's page counts what the daemon has
    /// heard from its stream time; the night itself is the log's.
    @Test func tonightCountsWhatTheDaemonHeardBeforeItsFirstMinute() throws {
        let start = Date().timeIntervalSince1970 - 35
        let lines = [
            #"{"v":1,"kind":"session_start","source":{"type":"alsa","device":"hw:0"},"profile":"balanced","profile_sha256":"x","start_time":"\#(WallClock.iso8601(Date(timeIntervalSince1970: start)))"}"#,
        ]
        let log = dir + "/young.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let index = LogIndex(log: log, indexPath: nil)
        try index.refresh()
        let night = try #require(try index.night(WallClock.night(start)))
        #expect(night.heard == 0 && night.openSession?.logged == 0)
        var live = LiveState.Snapshot(device: "hw:0")
        live.listening = true
        live.lastAudio = Date().timeIntervalSince1970
        live.streamSeconds = 35
        let page = HTMLReport.tonight(night, key: night.key, previous: nil, capture: .daemon(live), now: Date().timeIntervalSince1970,
                                      version: "t", web: .init(clipURL: { _ in nil }))
        #expect(page.contains("<div class=\"fig\"><b>35 s</b>heard</div>"))
    }

    /// The page's button sends a test notification through the daemon's sinks, as
    /// `somniq test-alert` does: a POST with the token from the page itself, answered with
    /// each sink's result within the page's timeout, on threads of its own (the pages are
    /// served meanwhile), one test at a time. A real webhook receiver gets it; a sink
    /// nothing listens on says why not.
    @Test func theTestButtonSendsThroughTheDaemonsSinks() throws {
        let rig = try LiveRig()
        let hookPort = try freePort(), closed = try freePort(), port = try freePort()
        let held = rig.home + "/hook-held"
        let hook = try startWebhookServer(port: hookPort, holding: held)
        defer { hook.stop() }
        let token = try tokenFile(in: rig.home)
        let log = rig.home + "/events.jsonl", config = rig.home + "/config.json"
        try """
        {"log": "\(log)", "metrics": null, "room": "nursery",
         "http": {"listen": "127.0.0.1:\(port)", "token_file": "\(token)"},
         "sinks": [{"type": "webhook", "name": "phone", "url": "http://127.0.0.1:\(hookPort)/", "min_tier": "critical"},
                   {"type": "webhook", "name": "dead", "url": "http://127.0.0.1:\(closed)/"}]}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        // The demo night heard at real time (`run --play`), as a microphone would hear it.
        let p = try rig.start(["--config", config, "--play", Paths.demoNight])
        defer { if p.isRunning { p.terminate() } }
        let base = "http://127.0.0.1:\(port)", auth = "Authorization: Bearer \(Self.token)"
        try waitForServer(base + "/healthz")
        try waitUntil(timeout: 10) { (try? fetch(base + "/healthz", headers: [auth]))?.status == 200 }

        // Before the log's first level record (a minute's end, final 11 s later), what was
        // heard comes from the daemon's stream time: a second of it, once it has passed.
        var tonight = ""
        try waitUntil(timeout: 10) {
            tonight = (try? fetch(base + "/", headers: [auth]).text) ?? ""
            return (tonight.firstMatch(of: /<b>(\d+) s<\/b>heard/).flatMap { Int($0.1) } ?? 0) >= 1
        }
        #expect(!kinds(records(log)).contains("level"))
        let heard = try #require(tonight.firstMatch(of: /<div class="fig"><b>(\d+) s<\/b>heard<\/div>/), "\(tonight)").1
        #expect(Int(heard)! >= 1, "heard \(heard) s")
        #expect(tonight.contains("<form method=\"post\" action=\"/test-notification\"><p>Alerts go to <b>phone (webhook)</b>, <b>dead (webhook)</b>. <button>Send a test notification</button></p></form>"))
        #expect(try fetch(base + "/test-notification", method: "POST", headers: ["Origin: \(base)"]).status == 401, "no token")
        let noOrigin = try fetch(base + "/test-notification", method: "POST", headers: [auth])
        #expect(noOrigin.status == 403 && noOrigin.text.contains("no Origin"))
        #expect(try fetch(base + "/test-notification", method: "POST", headers: [auth, "Origin: http://evil.example"]).status == 403)
        #expect(try fetch(base + "/test-notification", headers: [auth]).status != 200, "a GET sends nothing")
        #expect(hook.lines.isEmpty, "refused requests send nothing")

        // The test, and meanwhile a second one (refused: one at a time) and tonight's page.
        let result = Pending<HTTPReply>()
        Thread { result.set(Result { try fetch(base + "/test-notification", method: "POST", headers: [auth, "Origin: \(base)"], timeout: 20) }) }.start()
        // Under way once the phone has it; the phone holds its answer until the test lets
        // it go, so the test cannot end before then (short of the page's 8 s timeout).
        try waitUntil(timeout: 10) { !hook.lines.isEmpty }
        let second = try fetch(base + "/test-notification", method: "POST", headers: [auth, "Origin: \(base)"])
        #expect(second.status == 429 && second.text.hasPrefix("a test notification is being sent"))
        // Served while the test is still being sent (its answer not yet come): a page that
        // waited for the test would wait for the phone, which waits for the page.
        #expect(try fetch(base + "/", headers: [auth]).status == 200)
        #expect(!result.isSet, "pages are served while the test is sent")
        try release(held)
        // Both sinks have answered; a sink still busy 2 s past the page's 8 s would be
        // answered for then (SinkBackoffTests, on a test clock). The fetch's 20 s only guard
        // against a hang.
        let reply = try result.wait().get()
        #expect(reply.status == 200 && reply.headers["content-type"] == "text/html; charset=utf-8")
        #expect(reply.text.contains("<li class=\"delivered\"><b>phone</b> (webhook): delivered in "), "\(reply.text)")
        #expect(reply.text.contains("<li class=\"failed\"><b>dead</b> (webhook): <b>not delivered</b>: POST to http://127.0.0.1:\(closed)"))
        #expect(reply.text.contains("1 of 2 sinks did not."))
        let got = try JSONValue(parsing: try JSONValue(parsing: try hook.first { $0.contains("\\\"kind\\\":\\\"test\\\"") }.line)["body"]!.stringValue!)
        #expect(got["kind"] == .string("test") && got["room"] == .string("nursery"))
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
    }
}

/// What another thread gives once, waited for.
final class Pending<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let value = Mutex<Result<Value, any Error>?>(nil)
    func set(_ v: Result<Value, any Error>) {
        value.withLock { $0 = v }
        done.signal()
    }
    /// Whether it has been given.
    var isSet: Bool { value.withLock { $0 != nil } }
    func wait() -> Result<Value, any Error> {
        done.wait()
        return value.withLock { $0! }
    }
}
