import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

/// `somniq test-alert`, and notifications a person reads: with the real parts (a Mosquitto
/// broker on loopback, an HTTP server, a program run by the exec sink).
@Suite(.serialized) struct TestAlertTests {
    let home = temporaryDirectory()

    func config(_ json: String) throws -> String {
        let path = home + "/config-\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aTestAlertReachesEverySinkAndSaysWhichFailedAndWhy() throws {
        let endpoints = try Endpoints(in: home, name: "test-alert")
        defer { endpoints.stop() }
        let closed = try freePort()
        let cfg = try config("""
        {"room": "nursery", "sinks": [
          {"type": "mqtt", "host": "127.0.0.1", "port": \(endpoints.broker.port)},
          {"type": "webhook", "name": "phone", "url": "http://127.0.0.1:\(endpoints.httpPort)/", "format": "ntfy", "min_tier": "critical"},
          {"type": "exec", "command": [\(String(reflecting: endpoints.program))], "min_tier": "critical"},
          {"type": "webhook", "name": "dead", "url": "http://127.0.0.1:\(closed)/"}]}
        """)
        let r = try somniq("test-alert", "--config", cfg, "--timeout", "2")
        #expect(r.status == 69, "\(r.stdout)\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("mqtt (mqtt): delivered in "))
        #expect(lines[1].hasPrefix("phone (webhook): delivered in "))
        #expect(lines[2].hasPrefix("exec (exec): delivered in "))
        #expect(lines[3].hasPrefix("dead (webhook): not delivered: ") && lines[3].contains("127.0.0.1:\(closed)"), "\(lines[3])")

        // What each endpoint got: a test, said as one.
        let hook = try JSONValue(parsing: try endpoints.web.first { $0.contains("test notification") }.line)
        #expect(hook["headers"]?["Title"]?.stringValue == "somniq nursery: test")
        #expect(hook["headers"]?["Priority"]?.stringValue == "5")
        #expect(hook["body"]?.stringValue == "somniq in nursery: a test notification; somniq's alerts from this room reach you here")
        let event = try endpoints.subscriber.first { $0.hasPrefix("somniq/nursery/event ") }
        #expect(event.line.contains("\"kind\":\"test\""))
        try waitUntil(timeout: 5) { !records(endpoints.execOut).isEmpty }
        #expect(records(endpoints.execOut).first?["env"]?["SOMNIQ_KIND"]?.stringValue == "test")
        // The test's MQTT client says nothing of the room: no availability, no states, no
        // discovery, so a daemon running beside it is left as it was. (It has ended: what it
        // sent, the broker has passed on before a probe sent now.)
        try endpoints.broker.caughtUp(endpoints.subscriber, on: "somniq/#")
        #expect(endpoints.subscriber.lines.map(\.line).filter { !$0.hasPrefix("somniq/nursery/event ") && !$0.hasPrefix("somniq/probe-") } == [])
    }

    @Test func oneSinkByNameAndTheErrorsOfAWrongAsk() throws {
        let endpoints = try Endpoints(in: home, name: "one-sink")
        defer { endpoints.stop() }
        let cfg = try config("""
        {"room": "nursery", "sinks": [
          {"type": "webhook", "name": "phone", "url": "http://127.0.0.1:\(endpoints.httpPort)/"},
          {"type": "exec", "command": [\(String(reflecting: endpoints.program))]}]}
        """)
        let one = try somniq("test-alert", "--config", cfg, "--sink", "phone")
        #expect(one.status == 0 && one.stdout.hasPrefix("phone (webhook): delivered in ") && one.stdout.split(separator: "\n").count == 1)
        #expect(records(endpoints.execOut).isEmpty)
        let unknown = try somniq("test-alert", "--config", cfg, "--sink", "pager")
        #expect(unknown.status == 64 && unknown.stderr == "somniq: \(cfg): no sink named pager (there are: phone, exec)\n")
        let none = try somniq("test-alert", "--config", try config(#"{"room": "nursery"}"#))
        #expect(none.status == 65 && none.stderr.hasSuffix(": no sinks to test; add one under \"sinks\" in the configuration\n"))
    }

    @Test func notificationsAreInTheConfiguredTimeZoneWithTheScoreAndALinkToTheEvent() throws {
        let endpoints = try Endpoints(in: home, name: "words")
        defer { endpoints.stop() }
        // India has no daylight saving: 23:12 there is 23:12 in any season.
        let cfg = try config("""
        {"room": "nursery", "time_zone": "Asia/Kolkata",
         "http": {"listen": "127.0.0.1:18080", "public_url": "https://somniq.example:8443/"},
         "sinks": [
          {"type": "mqtt", "host": "127.0.0.1", "port": \(endpoints.broker.port)},
          {"type": "webhook", "url": "http://127.0.0.1:\(endpoints.httpPort)/", "format": "ntfy", "min_tier": "critical"},
          {"type": "exec", "command": [\(String(reflecting: endpoints.program))], "min_tier": "critical"}]}
        """)
        let out = home + "/words.jsonl"
        let r = try somniq("replay", Paths.demoNight, "--config", cfg, "--start", "2026-11-22T23:10", "--format", "jsonl", "--output", out)
        #expect(r.status == 0, "\(r.stderr)")
        let alarm = try #require(records(out).first { $0["kind"] == .string("event_start") && $0["class"] == .string("smoke_alarm") })
        let id = try #require(alarm["id"]?.stringValue)
        let link = "https://somniq.example:8443/night/2026-11-22#e-\(id)"
        try waitUntil(timeout: 10) { !records(endpoints.execOut).isEmpty }
        let exec = try #require(records(endpoints.execOut).first { $0["env"]?["SOMNIQ_KIND"]?.stringValue == "event_start" })
        let message = try #require(exec["env"]?["SOMNIQ_MESSAGE"]?.stringValue)
        // What was heard, when, how loud in words (the loudest second of it over the room:
        // the demo night's alarm stands some 22 dB over it), what to do, and where to mark it.
        let over = (alarm["trace"]?["level_dbfs"]?.numberValue ?? 0) - (alarm["trace"]?["floor_dbfs"]?.numberValue ?? 0)
        #expect(over >= 20, "\(over) dB")
        #expect(message == "Smoke alarm in nursery at 23:11:58 IST: loud, about \(Int(over.rounded())) dB over the room. "
                + "Check the room now; somniq tells you when it stops.\nListen to it and mark it right or not this: \(link)", "\(message)")
        // Its end says from when to when, and for how long.
        try waitUntil(timeout: 10) { records(endpoints.execOut).count >= 2 }
        let end = try #require(records(endpoints.execOut).first { $0["env"]?["SOMNIQ_KIND"]?.stringValue == "event_end" })
        #expect(end["env"]?["SOMNIQ_MESSAGE"]?.stringValue == "Smoke alarm in nursery has stopped: heard from 23:11:58 to 23:12:08 IST (11 s).",
                "\(end["env"]?["SOMNIQ_MESSAGE"]?.stringValue ?? "")")
        #expect(exec["env"]?["SOMNIQ_LINK"]?.stringValue == link)
        let hook = try JSONValue(parsing: try endpoints.web.first { $0.contains("Smoke alarm in nursery") }.line)
        #expect(hook["headers"]?["Title"]?.stringValue == "Urgent: Smoke alarm in nursery")
        #expect(hook["headers"]?["Click"]?.stringValue == link)
        // The score shown is the one the profile compared, and the log says it too.
        #expect(alarm["confidence"] == alarm["trace"]?["peak_smoothed"])

        // Home Assistant: the device links to the page, and a sensor holds the last alert.
        let retained = try endpoints.broker.retained("#")
        let discovery = try JSONValue(parsing: try #require(retained["homeassistant/sensor/somniq_nursery/last_event/config"]))
        #expect(discovery["state_topic"]?.stringValue == "somniq/nursery/last_event")
        #expect(discovery["device"]?["configuration_url"]?.stringValue == "https://somniq.example:8443")
        let last = try JSONValue(parsing: try #require(retained["somniq/nursery/last_event"]))
        let lastAlert = try #require(records(out).last { $0["kind"] == .string("event_start") && $0["alert"] == .bool(true) })
        #expect(last["class"] == lastAlert["class"] && last["tier"] == lastAlert["tier"] && last["time"] == lastAlert["onset_time"])
    }

    /// `somniq test-alert`, ended by `timeout` after `guardSeconds` (its status 124 then): a
    /// guard against a hung sink holding the test run, and what a test that must end before
    /// its --timeout fails by.
    func testAlert(_ arguments: String..., guardSeconds: Int = 30) throws -> (result: CommandResult, seconds: Double) {
        let started = Date()
        let r = try runProgram("/usr/bin/timeout", ["\(guardSeconds)", Paths.somniq, "test-alert"] + arguments)
        return (r, Date().timeIntervalSince(started))
    }

    /// A service that answered 5xx got the request and may have delivered it (a push
    /// service that accepts, then answers 500, has already sounded the phone): the test
    /// is not sent again.
    @Test func aWebhookThatAnswersAnErrorIsPostedToOnce() throws {
        let port = try freePort()
        let server = try startWebhookServer(port: port, status: 500)
        defer { server.stop() }
        let cfg = try config("""
        {"room": "nursery", "sinks": [{"type": "webhook", "name": "push", "url": "http://127.0.0.1:\(port)/topic"}]}
        """)
        let (r, seconds) = try testAlert("--config", cfg, "--timeout", "3")
        #expect(r.status == 69 && r.stdout == "push (webhook): not delivered: POST to http://127.0.0.1:\(port) answered HTTP 500\n", "\(r.stdout)\(r.stderr)")
        // test-alert has ended; the server writes a POST's line before it answers, so a
        // POST of our own, answered, comes after every line of its.
        _ = try runProgram("/usr/bin/curl", ["-s", "-o", "/dev/null", "-X", "POST", "-d", "caught-up", "http://127.0.0.1:\(port)/caught-up"])
        try server.first { $0.contains("caught-up") }
        let posts = server.lines.filter { !$0.line.contains("caught-up") }
        print("a webhook answering HTTP 500: \(posts.count) POST(s) from one test-alert, which took \(Int(seconds * 1000)) ms")
        #expect(posts.count == 1)
    }

    /// Every sink is tried at once, each bounded by --timeout whatever its own timeout_s:
    /// five webhooks that never answer and a program that never ends are given up together,
    /// and the program is killed.
    @Test func hungSinksAreGivenUpAtTheTimeoutAllAtOnce() throws {
        let port = try freePort()
        let hung = try startHangingServer(port: port)
        defer { hung.stop() }
        let pids = home + "/hung-pids"
        let program = home + "/hang.sh"
        try "#!/bin/sh\necho $$ >> \(pids)\nexec sleep 300\n".write(toFile: program, atomically: true, encoding: .utf8)
        chmod(program, 0o755)
        let hooks = (1...5).map { #"{"type": "webhook", "name": "hung\#($0)", "url": "http://127.0.0.1:\#(port)/", "timeout_s": 300}"# }
        let cfg = try config(#"{"room": "nursery", "sinks": [\#(hooks.joined(separator: ", ")), {"type": "exec", "name": "hang", "command": ["\#(program)"], "timeout_s": 300}]}"#)
        // Six sinks of 2 s each, one after another, would take 12 s and be ended by the 10 s
        // guard (124); all at once they take 2.5 s (--timeout, SIGKILL 0.5 s after SIGTERM).
        let (r, seconds) = try testAlert("--config", cfg, "--timeout", "2", guardSeconds: 10)
        print("five hung webhooks and a hung program at --timeout 2: test-alert took \(Int(seconds * 1000)) ms")
        #expect(r.status == 69, "\(r.stdout)\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6 && lines.allSatisfy { $0.contains(": not delivered: ") }, "\(r.stdout)")
        // What was left of --timeout when the program started (2 s, less what starting the
        // sinks took on a loaded machine, to a tenth); the exact words at an exact timeout are
        // SinkBackoffTests', on a test clock.
        let said = try #require(lines.last)
        #expect(said.hasPrefix("hang (exec): not delivered: \(program) did not finish within ") && said.hasSuffix(" s and was stopped"), "\(said)")
        let pid = try #require(Int32((try? String(contentsOfFile: pids, encoding: .utf8))?.split(separator: "\n").first ?? ""))
        #expect(kill(pid, 0) != 0, "the hung program is still running")
        if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
    }

    /// What cannot heal within seconds (a program that is not there) fails at once.
    @Test func aProgramThatIsNotThereFailsAtOnce() throws {
        let cfg = try config(#"{"room": "nursery", "sinks": [{"type": "exec", "command": ["/nonexistent/notify"]}]}"#)
        // It says why it failed: a missing program is not tried again as an unsent one would be
        // (three tries, 1.5 s; the status and the line would be the same, so the time is printed).
        let (r, seconds) = try testAlert("--config", cfg, "--timeout", "120")
        print("an exec sink whose program is not there: test-alert took \(Int(seconds * 1000)) ms")
        #expect(r.status == 69)
        #expect(r.stdout == "exec (exec): not delivered: cannot run /nonexistent/notify: No such file or directory; check the exec sink's command\n", "\(r.stdout)")
    }

    /// A broker that refuses the login is said at once, not waited on until --timeout.
    @Test func aBrokerThatRefusesTheLoginFailsAtOnceSayingSo() throws {
        let broker = try Broker(secure: true)
        let cfg = try config("""
        {"room": "nursery", "sinks": [{"type": "mqtt", "host": "127.0.0.1", "port": \(broker.port),
          "ca_file": \(String(reflecting: broker.caFile!)), "username": \(String(reflecting: Broker.user)), "password": "wrong"}]}
        """)
        // Waited on until --timeout, it would be ended by the 30 s guard instead (124).
        let (r, seconds) = try testAlert("--config", cfg, "--timeout", "120")
        print("an MQTT broker that refuses the login: test-alert took \(Int(seconds * 1000)) ms")
        #expect(r.status == 69 && r.stdout.hasPrefix("mqtt (mqtt): not delivered: 127.0.0.1:\(broker.port) refused the connection: "), "\(r.stdout)")
    }

    @Test func aTimeZoneTheMachineDoesNotKnowIsRefusedByName() throws {
        let cfg = try config(#"{"time_zone": "Mars/Olympus_Mons"}"#)
        let r = try somniq("run", "--config", cfg, "--check-config")
        #expect(r.status == 65)
        #expect(r.stderr == "somniq: \(cfg): time_zone: \"Mars/Olympus_Mons\" is not a time zone this machine knows (a name under /usr/share/zoneinfo, such as \"Europe/Berlin\"; install tzdata)\n")
    }
}
