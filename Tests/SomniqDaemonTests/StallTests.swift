import Foundation
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Testing
import SomniqCore
import SomniqLog

/// A microphone that stops sending audio is the worst thing a listening device can keep
/// quiet about: the daemon says it through every sink, on its page and in the night's
/// report, and says when the room is heard again. Through real ALSA (the file plugin on a
/// FIFO held open without data), a real broker, HTTP server and program.
@Suite(.serialized) struct StallTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    /// The room "nursery" heard through a real broker, HTTP server (ntfy's format) and
    /// program (`Endpoints` named `name`), its log and configuration in the rig's home:
    /// `silence_s` 3, the configuration's other `members`, and each sink's `min_tier`.
    func nursery(_ name: String, _ members: String = "", minTier: String? = nil) throws -> (endpoints: Endpoints, log: String, config: String) {
        let endpoints = try Endpoints(in: rig.home, name: name)
        let log = rig.home + "/\(name).jsonl"
        let config = rig.home + "/\(name).json"
        let tier = minTier.map { #", "min_tier": "\#($0)""# } ?? ""
        try """
        {"room": "nursery", "log": "\(log)", "silence_s": 3\(members), "sinks": [
          {"type": "mqtt", "host": "127.0.0.1", "port": \(endpoints.broker.port)},
          {"type": "webhook", "url": "http://127.0.0.1:\(endpoints.httpPort)/", "format": "ntfy"\(tier)},
          {"type": "exec", "command": [\(String(reflecting: endpoints.program))]\(tier)}]}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        return (endpoints, log, config)
    }

    /// The night the log holds, as the report reads it.
    func night(_ log: String) throws -> Night? {
        var builder = NightBuilder()
        for r in records(log) { _ = builder.add(try LogRecord(json: r)) }
        return builder.finish()
    }

    func curl(_ url: String) throws -> (status: Int, body: String) {
        let r = try runProgram("/usr/bin/curl", ["-s", "-m", "5", "-w", "\n%{http_code}", url])
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    @Test func aStalledCaptureIsACriticalAlertEverywhereAndItsRecoveryIsSaid() throws {
        let webPort = try freePort()
        // silence_s 3: the stall is said 3 s after the last audio (10 s at most by default).
        let (endpoints, log, config) = try nursery("stall", #", "http": {"listen": "127.0.0.1:\#(webPort)"}"#, minTier: "critical")
        defer { endpoints.stop() }
        // 4 s of a quiet stretch of the demo night, 9 s of nothing, then 6 s with a cough.
        let (fifo, writer) = try rig.pausingFIFO(try rig.raw(from: 0, seconds: 4), pause: 9, try rig.raw(from: 71, seconds: 6))
        defer { writer.terminate() }
        let p = try rig.start(["--device", "fixture:FILE=\(fifo)", "--config", config])

        try waitUntil(timeout: 20) { kinds(records(log)).contains("status:capture_stalled") }
        let stalled = try #require(records(log).first { $0["status"] == .string("capture_stalled") })
        #expect(stalled["alert"] == .bool(true) && stalled["tier"] == .string("critical"))
        #expect(stalled["device"] == .string("fixture:FILE=\(fifo)"))
        #expect((stalled["seconds"]?.numberValue ?? 0) >= 3)
        // The page and its health check say it while it lasts.
        let health = try curl("http://127.0.0.1:\(webPort)/healthz")
        #expect(health.status == 503 && health.body.hasPrefix("no audio from fixture:FILE="), "\(health)")
        #expect(try curl("http://127.0.0.1:\(webPort)/").body.contains("Not listening"))

        // Audio again: `listening`, with how long the room went unheard.
        try waitUntil(timeout: 20) { kinds(records(log)).filter { $0 == "status:listening" }.count == 2 }
        try waitUntil(timeout: 10) { (try? curl("http://127.0.0.1:\(webPort)/healthz"))?.status == 200 }
        let back = try #require(records(log).last { $0["status"] == .string("listening") })
        let unheard = try #require(back["unheard_s"]?.numberValue)
        #expect(unheard >= 8 && unheard <= 12, "the FIFO paused for 9 s: \(unheard)")
        #expect(back["alert"] == nil)
        // Times after the stall are the wall clock's: the stream stood still for the 9 s the
        // wall clock ran on. The 6 s after it came at once (the file plugin is not paced): the
        // cough in them is timed no later than it was read, and not inside the stall the log
        // says went unheard: no sooner than the room was heard again, less the first read's
        // 0.1 s and the turn it waited for in the capture's queue (0.25 s at most on a busy
        // machine), however far the burst outran the clock.
        try waitUntil(timeout: 20) { kinds(records(log)).contains("event_start:cough") }
        let seen = Date().timeIntervalSince1970
        let heardAgain = try #require(back["time"]?.stringValue.flatMap(WallClock.parse))
        let cough = try #require(records(log).first { $0["class"] == .string("cough") }?["onset_time"]?.stringValue.flatMap(WallClock.parse))
        #expect(cough >= heardAgain - 0.1 - 0.25 && cough <= seen, "cough at \(cough - heardAgain) s after the room was heard again, \(seen - cough) s before it was read")

        // Every sink heard both: MQTT's availability went offline and back.
        let webhookDown = try endpoints.web.first { $0.contains("has sent no audio") }
        let down = try JSONValue(parsing: webhookDown.line)
        #expect(down["headers"]?["Priority"]?.stringValue == "5")
        #expect(down["headers"]?["Title"]?.stringValue == "Urgent: somniq nursery cannot hear")
        // Since when, what somniq does, and what to do.
        let said = down["body"]?.stringValue ?? ""
        #expect(said.hasPrefix("somniq in nursery cannot hear: the microphone has sent no audio since ")
                && said.hasSuffix("somniq waits for it and tells you when it hears the room again. "
                                  + "Check the microphone's cable, then run `somniq devices` on the box to see whether it is there."), "\(said)")
        let webhookUp = try endpoints.web.first { $0.contains("listening again") }
        #expect(try JSONValue(parsing: webhookUp.line)["headers"]?["Priority"]?.stringValue == "3")
        var statusLines: [String] { endpoints.subscriber.lines.map(\.line).filter { $0.hasPrefix("somniq/nursery/status ") } }
        try waitUntil(timeout: 10) { statusLines.count >= 3 }
        #expect(Array(statusLines.prefix(3)) == ["somniq/nursery/status online", "somniq/nursery/status offline",
                                                 "somniq/nursery/status online"], "\(statusLines)")
        try waitUntil(timeout: 10) { records(endpoints.execOut).count >= 2 }
        #expect(records(endpoints.execOut).map { $0["env"]?["SOMNIQ_STATUS"]?.stringValue } == ["capture_stalled", "listening"])

        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
        // The night's report counts the unheard seconds and lists the stall.
        let night = try #require(try night(log))
        #expect(abs(night.unheard - unheard) < 0.01)
        #expect(night.incidents.map(\.status) == [.captureStalled, .listening])
        let text = try somniq("report", log, "--format", "text")
        #expect(text.stdout.contains(" s not heard (no audio)"), "\(text.stdout)")
    }

    /// The wall time `date` gives a Unix time in `zone`, in `format`.
    func date(_ t: Double, _ format: String, zone: String = "Europe/Berlin") throws -> String {
        try runProgram("/usr/bin/env", ["TZ=\(zone)", "date", "-d", "@\(Int(t.rounded(.down)))", "+" + format])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One event, one time: the log times it once, when it is confirmed, and every other
    /// writer and reader (the notification, the exec program, MQTT, the web API, the report)
    /// gives that time, in the configuration's zone, across a stall and a burst of audio.
    @Test func anEventAfterAStallAndABurstHasOneTimeEverywhere() throws {
        let webPort = try freePort()
        let (endpoints, log, config) = try nursery("onetime", #", "time_zone": "Europe/Berlin", "http": {"listen": "127.0.0.1:\#(webPort)"}"#)
        defer { endpoints.stop() }
        // A burst of 4 s (the file plugin is not paced), 9 s of nothing, a burst of 6 s with a cough.
        let (fifo, writer) = try rig.pausingFIFO(try rig.raw(from: 0, seconds: 4), pause: 9, try rig.raw(from: 71, seconds: 6))
        defer { writer.terminate() }
        let p = try rig.start(["--device", "fixture:FILE=\(fifo)", "--config", config])
        try waitUntil(timeout: 30) { kinds(records(log)).contains("event_start:cough") }
        let start = try #require(records(log).first { $0["kind"] == .string("event_start") && $0["class"] == .string("cough") })
        let id = try #require(start["id"]?.stringValue)
        let logged = try #require(start["onset_time"]?.stringValue)
        let t = try #require(WallClock.parse(logged))
        let clock = try date(t, "%H:%M:%S"), zoned = try date(t, "%H:%M:%S %Z")

        // The notification names that time, in Berlin's zone, and was not sent before it.
        let hook = try endpoints.web.first { $0.contains("Cough in nursery") }
        let body = try #require(try JSONValue(parsing: hook.line)["body"]?.stringValue)
        #expect(body.hasPrefix("Cough in nursery at \(zoned)"), "\(body)")
        #expect(t <= hook.time, "timed \(t - hook.time) s after the notification arrived")
        // The exec program and MQTT carry the logged time itself.
        try waitUntil(timeout: 10) { records(endpoints.execOut).contains { $0["env"]?["SOMNIQ_EVENT_ID"]?.stringValue == id } }
        let exec = try #require(records(endpoints.execOut).first { $0["env"]?["SOMNIQ_EVENT_ID"]?.stringValue == id })
        #expect(exec["env"]?["SOMNIQ_TIME"]?.stringValue == logged)
        let last = try endpoints.subscriber.first { $0.hasPrefix("somniq/nursery/last_event ") && $0.contains(id) }
        let attributes = try JSONValue(parsing: String(last.line.dropFirst("somniq/nursery/last_event ".count)))
        #expect(attributes["time"]?.stringValue == logged)
        #expect(attributes["message"]?.stringValue == body)

        // The web API, and the report in the configuration's zone.
        let night = try date(t - 12 * 3600, "%F")
        let api = try JSONValue(parsing: try curl("http://127.0.0.1:\(webPort)/api/night/\(night)").body)
        guard case let .array(events)? = api["events"] else { Issue.record("no events: \(api)"); return }
        let event = try #require(events.first { $0["id"]?.stringValue == id })
        #expect(event["onset_time"]?.stringValue == logged)
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
        let report = try somniq("report", log, "--format", "text", "--night", night, "--config", config).stdout
        let line = try #require(report.split(separator: "\n").first { $0.contains(id) })
        #expect(line.hasPrefix("  \(clock)  \(id)"), "\(line)")
        // So does the HTML report's row of the alert, which the notification's link opens.
        let html = try somniq("report", log, "--night", night, "--config", config).stdout
        #expect(html.contains("<tr id=\"e-\(id)\"><td>\(clock)</td>"))
    }

    @Test func aStallThatLastsToTheEndIsCountedUntilTheSessionEnds() throws {
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 0, seconds: 3))
        defer { writer.terminate() }
        let log = rig.home + "/stall-end.jsonl"
        let config = rig.home + "/stall-end.json"
        try #"{"log": "\#(log)", "silence_s": 2}"#.write(toFile: config, atomically: true, encoding: .utf8)
        // Its standard error as the journal's stream: lines carry their syslog priority.
        let err = rig.home + "/stall-journal.txt"
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        var st = stat()
        stat(err, &st)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.somniq)
        p.arguments = ["run", "--device", "fixture:FILE=\(fifo)", "--config", config]
        p.environment = rig.environment.merging(["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"]) { $1 }
        let errHandle = try #require(FileHandle(forWritingAtPath: err))
        p.standardError = errHandle
        let started = Date()
        try p.run()
        defer { if p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        try waitUntil(timeout: 20) { kinds(records(log)).contains("status:capture_stalled") }
        // Stopped as soon as the stall is seen: this process's test bounds the time unheard;
        // that it counts to the end, however long the stall goes on, is checked to the second
        // on the daemon's clock, a test's (DaemonStallClockTests).
        p.terminate()
        // Only against a hang: the unit's TimeoutStopSec.
        #expect(try waitForExit(p, timeout: 5) == 0)
        let ended = Date()
        // Said once, however long it lasts; unheard from the last audio to the end: at least
        // the 2 s before it was said, at most the process's life (bounds the test measured
        // around the daemon, its records' times in ms and the stall's length in tenths of a
        // second).
        #expect(kinds(records(log)).filter { $0 == "status:capture_stalled" }.count == 1)
        let night = try #require(try night(log))
        let least = 2 - 0.002, most = ended.timeIntervalSince(started) + 0.052
        #expect(night.unheard >= least && night.unheard <= most, "\(night.unheard) s unheard, not within \(least)-\(most) s")
        // `journalctl -p crit` shows it.
        let journal = try String(contentsOfFile: err, encoding: .utf8)
        #expect(journal.contains("<2>no audio from fixture:FILE=\(fifo) for 2 s: the device is open but sends nothing"), "\(journal)")
    }

    @Test func digitalSilenceReachesEverySink() throws {
        let (endpoints, log, config) = try nursery("zeros", minTier: "critical")
        defer { endpoints.stop() }
        let p = try rig.start(["--device", "fixture:FILE=/dev/zero", "--config", config, "--max-seconds", "8"])
        #expect(try waitForExit(p, timeout: 20) == 0)
        #expect(kinds(records(log)).filter { $0 == "status:input_silent" }.count == 1)
        try endpoints.subscriber.first { $0.hasPrefix("somniq/nursery/event ") && $0.contains("\"input_silent\"") }
        let hook = try endpoints.web.first { $0.contains("the microphone has sent only silence") }
        #expect(try JSONValue(parsing: hook.line)["headers"]?["Priority"]?.stringValue == "5")
        try waitUntil(timeout: 10) { !records(endpoints.execOut).isEmpty }
        #expect(records(endpoints.execOut).map { $0["env"]?["SOMNIQ_STATUS"]?.stringValue } == ["input_silent"])
    }
}
