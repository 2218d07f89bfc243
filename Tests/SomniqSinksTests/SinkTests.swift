import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

/// Sinks with the real parts: a Mosquitto broker on loopback, an HTTP server, a program
/// run by the exec sink, and `somniq run` reading through real ALSA.
@Suite(.serialized) struct SinkTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    func config(_ json: String) throws -> String {
        let path = rig.home + "/config-\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Waits for the first log line that holds every one of `needles`; its arrival time: the
    /// log is read again each time the kernel says it was written (or moved into place, as
    /// a replay's output is when it ends).
    func logLine(_ log: String, containing needles: [String], timeout: Double = 20) throws -> Double {
        let end = Date(timeIntervalSinceNow: timeout)
        let path = log as NSString
        let watch = try DirectoryWatch(path.deletingLastPathComponent)
        while true {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").contains(where: { line in needles.allSatisfy { line.contains($0) } }) {
                return Date().timeIntervalSince1970
            }
            repeat {
                guard Date() < end else { throw Timeout() }
            } while !watch.next(until: end).contains(path.lastPathComponent)
        }
    }

    /// Each sink has the alarm while it still sounds: before the log says it ended (its
    /// `event_end`, at least the 11.5 s it sounds after its start, in real time through ALSA).
    /// An order of events, not a bound on the time: the latencies are printed.
    @Test func aSmokeAlarmReachesBrokerWebhookAndExecWhileItSounds() throws {
        let endpoints = try Endpoints(in: rig.home, name: "live")
        defer { endpoints.stop() }
        let (broker, subscriber, httpPort, web, execOut, program) =
            (endpoints.broker, endpoints.subscriber, endpoints.httpPort, endpoints.web, endpoints.execOut, endpoints.program)
        let cfg = try config("""
        {"room": "nursery", "sinks": [
          {"type": "mqtt", "host": "127.0.0.1", "port": \(broker.port)},
          {"type": "webhook", "url": "http://127.0.0.1:\(httpPort)/somniq-test", "format": "ntfy", "min_tier": "critical"},
          {"type": "exec", "command": [\(String(reflecting: program)), "--loud"], "min_tier": "critical",
           "classes": ["smoke_alarm", "scream"]}]}
        """)
        let log = rig.home + "/alarm.jsonl"
        // 1:50-2:15 of the demo night: the smoke alarm sounds from 7.5 s to 19 s.
        let raw = try rig.raw(from: 110, seconds: 25)
        let p = try rig.start(["--device", "fixture:FILE=\(raw)", "--config", cfg, "--log", log, "--max-seconds", "25"])
        let logged = try logLine(log, containing: ["\"event_start\"", "\"smoke_alarm\""])
        let ended = try logLine(log, containing: ["\"event_end\"", "\"smoke_alarm\""])
        #expect(try waitForExit(p, timeout: 30) == 0)

        let mqtt = try subscriber.first { $0.hasPrefix("somniq/nursery/event ") && $0.contains("\"event_start\"") && $0.contains("smoke_alarm") }
        let on = try subscriber.first { $0 == "somniq/nursery/smoke_alarm ON" }
        let hook = try web.first { $0.contains("\"Priority\": \"5\"") }
        try waitUntil(timeout: 10) { records(execOut).count >= 2 }
        let execs = records(execOut)
        let execTime = try #require(execs.first?["time"]?.numberValue)
        let arrivals = [("mqtt", mqtt.time), ("mqtt state", on.time), ("webhook", hook.time), ("exec", execTime)]
        printLatencies(arrivals, after: logged, "live")
        for (name, time) in arrivals { #expect(time < ended, "\(name): \(time - logged) s after the start, the end logged \(ended - logged) s after it") }

        // Each sink got what it should: the record, the ntfy headers, the arguments and environment.
        #expect(mqtt.line.contains("\"room\":\"nursery\""))
        try subscriber.first { $0 == "somniq/nursery/smoke_alarm OFF" }
        let hookJSON = try JSONValue(parsing: hook.line)
        #expect(hookJSON["path"]?.stringValue == "/somniq-test")
        #expect(hookJSON["headers"]?["Title"]?.stringValue == "Urgent: Smoke alarm in nursery")
        #expect(hookJSON["headers"]?["Tags"]?.stringValue == "rotating_light,smoke_alarm,nursery")
        #expect(hookJSON["body"]?.stringValue?.hasPrefix("Smoke alarm in nursery at ") == true)
        // How loud in words, and what to do; the score stays in the record's trace.
        let body = hookJSON["body"]?.stringValue ?? ""
        #expect(body.contains(": loud, about ") && body.contains(" dB over the room. Check the room now; somniq tells you when it stops."), "\(body)")
        #expect(!body.contains("score"))
        #expect(execs.map { $0["env"]?["SOMNIQ_KIND"]?.stringValue } == ["event_start", "event_end"])
        #expect(execs[0]["argv"] == .array([.string("--loud")]))
        #expect(execs[0]["env"]?["SOMNIQ_CLASS"]?.stringValue == "smoke_alarm")
        #expect(execs[0]["env"]?["SOMNIQ_TIER"]?.stringValue == "critical")
        #expect(execs[0]["env"]?["SOMNIQ_ROOM"]?.stringValue == "nursery")
        let stdin = try JSONValue(parsing: try #require(execs[0]["stdin"]?.stringValue))
        #expect(stdin["kind"]?.stringValue == "event_start" && stdin["class"]?.stringValue == "smoke_alarm")
        // The exec sink's class list kept the other events away from it.
        #expect(execs.allSatisfy { $0["env"]?["SOMNIQ_CLASS"]?.stringValue == "smoke_alarm" })
    }

    /// A replay's alarm reaches the same sinks (a replay reads faster than real time: its
    /// latencies are printed).
    @Test func aReplayedSmokeAlarmReachesTheSameSinks() throws {
        let endpoints = try Endpoints(in: rig.home, name: "replay")
        defer { endpoints.stop() }
        let (broker, subscriber, httpPort, web, execOut, program) =
            (endpoints.broker, endpoints.subscriber, endpoints.httpPort, endpoints.web, endpoints.execOut, endpoints.program)
        let cfg = try config("""
        {"room": "replayed", "sinks": [
          {"type": "mqtt", "host": "127.0.0.1", "port": \(broker.port), "min_tier": "critical"},
          {"type": "webhook", "url": "http://127.0.0.1:\(httpPort)/", "min_tier": "critical"},
          {"type": "exec", "command": [\(String(reflecting: program))], "min_tier": "critical"}]}
        """)
        let out = rig.home + "/replayed.jsonl"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.somniq)
        p.arguments = ["replay", Paths.demoNight, "--format", "jsonl", "--output", out, "--config", cfg]
        p.standardError = FileHandle.nullDevice
        try p.run()
        let logged = try logLine(out, containing: ["\"event_start\"", "\"smoke_alarm\""])
        #expect(try waitForExit(p, timeout: 30) == 0)
        let mqtt = try subscriber.first { $0.hasPrefix("somniq/replayed/event ") && $0.contains("\"event_start\"") }
        let hook = try web.first { $0.contains("smoke_alarm") }
        try waitUntil(timeout: 10) { !records(execOut).isEmpty }
        let execTime = try #require(records(execOut).first?["time"]?.numberValue)
        printLatencies([("mqtt", mqtt.time), ("webhook", hook.time), ("exec", execTime)], after: logged, "replay")
    }

    @Test func homeAssistantDiscoveryStateAndLastWill() throws {
        let broker = try Broker()
        let subscriber = try broker.subscribe("somniq/#")
        defer { subscriber.stop() }
        let cfg = try config("""
        {"room": "bedroom_2", "sinks": [{"type": "mqtt", "host": "127.0.0.1", "port": \(broker.port)}]}
        """)
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 110, seconds: 25))
        defer { writer.terminate() }
        let p = try rig.start(["--device", "fixture:FILE=\(fifo)", "--config", cfg, "--log", rig.home + "/ha.jsonl"])
        defer { if p.isRunning { p.terminate() } }
        try subscriber.first { $0 == "somniq/bedroom_2/status online" }
        try subscriber.first { $0 == "somniq/bedroom_2/smoke_alarm ON" }
        try subscriber.first { $0 == "somniq/bedroom_2/smoke_alarm OFF" }
        // All 25 s judged: the states retained are the last (the alarm may sound again
        // after its first OFF). The capture then stalls (the fixture's end), and the daemon
        // says the room unheard: `offline`, so that Home Assistant shows every sensor
        // unavailable.
        try rig.waitUntilJudged(rig.home + "/ha.jsonl", seconds: 25)
        let offline = "somniq/bedroom_2/status offline"
        try subscriber.first { $0 == offline }

        let configs = try broker.retained("homeassistant/#")
        let smoke = try JSONValue(parsing: try #require(configs["homeassistant/binary_sensor/somniq_bedroom_2/smoke_alarm/config"]))
        #expect(smoke["device_class"]?.stringValue == "smoke")
        #expect(smoke["state_topic"]?.stringValue == "somniq/bedroom_2/smoke_alarm")
        #expect(smoke["payload_on"]?.stringValue == "ON" && smoke["payload_off"]?.stringValue == "OFF")
        #expect(smoke["unique_id"]?.stringValue == "somniq_bedroom_2_smoke_alarm")
        #expect(smoke["availability_topic"]?.stringValue == "somniq/bedroom_2/status")
        #expect(smoke["device"]?["identifiers"] == .array([.string("somniq_bedroom_2")]))
        #expect(smoke["device"]?["name"]?.stringValue == "somniq bedroom_2")
        let cough = try JSONValue(parsing: try #require(configs["homeassistant/binary_sensor/somniq_bedroom_2/cough/config"]))
        #expect(cough["device_class"]?.stringValue == "sound")
        let level = try JSONValue(parsing: try #require(configs["homeassistant/sensor/somniq_bedroom_2/level/config"]))
        #expect(level["state_topic"]?.stringValue == "somniq/bedroom_2/level")
        #expect(level["value_template"]?.stringValue == "{{ value_json.leq_dbfs }}")
        #expect(level["unit_of_measurement"]?.stringValue == "dBFS")
        // The room's sounds as Home Assistant's MQTT event entity: its event types are the
        // classes, and each event's start comes as {"event_type": "<class>", …}.
        let sound = try JSONValue(parsing: try #require(configs["homeassistant/event/somniq_bedroom_2/sound/config"]))
        #expect(sound["state_topic"]?.stringValue == "somniq/bedroom_2/sound")
        #expect(sound["event_types"] == .array(SoundClass.allCases.map { .string($0.rawValue) }))
        #expect(sound["unique_id"]?.stringValue == "somniq_bedroom_2_sound")
        #expect(sound["availability_topic"]?.stringValue == "somniq/bedroom_2/status")
        #expect(sound["device"]?["identifiers"] == .array([.string("somniq_bedroom_2")]))
        let fired = try JSONValue(parsing: String(try subscriber.first { $0.hasPrefix("somniq/bedroom_2/sound ") }.line
            .dropFirst("somniq/bedroom_2/sound ".count)))
        #expect(fired["event_type"]?.stringValue == "smoke_alarm" && fired["tier"]?.stringValue == "critical", "\(fired.compactText)")
        #expect(fired["id"]?.stringValue != nil && fired["time"]?.stringValue != nil && fired["class"] == nil, "\(fired.compactText)")
        // One binary sensor per class, the event entity, the level sensor, the last event's
        // and last night's, all on one device.
        #expect(configs.count == SoundClass.allCases.count + 4)

        // The retained state is what a late subscriber (Home Assistant restarting) sees.
        let state = try broker.retained("somniq/bedroom_2/#")
        #expect(state["somniq/bedroom_2/smoke_alarm"] == "OFF")
        #expect(state["somniq/bedroom_2/status"] == "offline")
        #expect(state["somniq/bedroom_2/sound"] == nil, "an event is a moment: not retained, or a restarting Home Assistant fires it again")

        // Killed without a goodbye: the broker publishes the last will, `offline` once more.
        let said = subscriber.lines.filter { $0.line == offline }.count
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        try waitUntil(timeout: 5) { subscriber.lines.filter { $0.line == offline }.count > said }
        #expect(try broker.retained("somniq/bedroom_2/status")["somniq/bedroom_2/status"] == "offline")
    }

    @Test func threeRoomsShareOneBroker() throws {
        let broker = try Broker()
        let subscriber = try broker.subscribe("somniq/#")
        defer { subscriber.stop() }
        let raw = try rig.raw(from: 0, seconds: 180)
        var daemons: [Process] = []
        for room in ["room_1", "room_2", "room_3"] {
            let cfg = try config("""
            {"room": "\(room)", "sinks": [{"type": "mqtt", "host": "127.0.0.1", "port": \(broker.port), "min_tier": "critical"}]}
            """)
            daemons.append(try rig.start(["--device", "fixture:FILE=\(raw)", "--config", cfg, "--log", rig.home + "/\(room).jsonl",
                                          "--max-seconds", "180"]))
        }
        for p in daemons { #expect(try waitForExit(p, timeout: 60) == 0) }
        for room in ["room_1", "room_2", "room_3"] {
            try subscriber.first { $0 == "somniq/\(room)/status online" }
            try subscriber.first { $0.hasPrefix("somniq/\(room)/event ") && $0.contains("smoke_alarm") && $0.contains("\"room\":\"\(room)\"") }
            try subscriber.first { $0 == "somniq/\(room)/status offline" }
            // What is sent at shutdown lands before the goodbye: the last minute's level.
            let lines = subscriber.lines.map(\.line)
            let level = try #require(lines.firstIndex { $0.hasPrefix("somniq/\(room)/level ") && $0.contains("\"start_s\":120,") })
            #expect(level < lines.firstIndex(of: "somniq/\(room)/status offline")!)
        }
        let announced = try broker.retained("homeassistant/#").keys
        let devices = Set(announced.map { $0.split(separator: "/")[2] })
        #expect(devices == ["somniq_room_1", "somniq_room_2", "somniq_room_3"])
        // min_tier critical: only the classes that can reach the sink are announced.
        let critical = SoundClass.allCases.filter { Profile.balanced.rule(for: $0).tier == .critical }.map(\.rawValue)
        #expect(critical.contains("smoke_alarm") && critical.count < SoundClass.allCases.count)
        let sensors = announced.filter { $0.hasPrefix("homeassistant/binary_sensor/somniq_room_1/") }.map { String($0.split(separator: "/")[3]) }
        #expect(Set(sensors) == Set(critical))
        // min_tier critical: the snoring in the clip went to no room's event topic.
        #expect(!subscriber.lines.contains { $0.line.contains("/event ") && $0.line.contains("\"class\":\"snoring\"") })
    }

    @Test func tlsAndAPasswordReachABrokerThatRequiresThem() throws {
        let broker = try Broker(secure: true)
        let subscriber = try broker.subscribe("somniq/#")
        defer { subscriber.stop() }
        func sink(password: String) throws -> String {
            try config("""
            {"room": "tls-room", "sinks": [{"type": "mqtt", "host": "127.0.0.1", "port": \(broker.port), "min_tier": "critical",
              "ca_file": \(String(reflecting: broker.caFile!)), "username": \(String(reflecting: Broker.user)),
              "password": \(String(reflecting: password))}]}
            """)
        }
        let good = try somniq("replay", Paths.demoNight, "--format", "tsv", "--config", try sink(password: Broker.password))
        #expect(good.status == 0, "\(good.stderr)")
        _ = try subscriber.first { $0.hasPrefix("somniq/tls-room/event ") && $0.contains("\"smoke_alarm\"") }
        _ = try subscriber.first { $0 == "somniq/tls-room/smoke_alarm ON" }
        // A wrong password is refused and said, and what did not go out is summed up (exit
        // 75); the replay's own output is whole all the same.
        let bad = try somniq("replay", Paths.demoNight, "--format", "tsv", "--config", try sink(password: "wrong"))
        #expect(bad.status == 75)
        #expect(bad.stderr.contains("sink mqtt: 127.0.0.1:\(broker.port) refused the connection: Connection Refused: not authorised"), "\(bad.stderr)")
        #expect(bad.stderr.contains("somniq: sink mqtt: 2 of 2 notifications not delivered: not connected to 127.0.0.1:\(broker.port)"), "\(bad.stderr)")
        #expect(bad.stdout == good.stdout)
    }

    @Test func aHungWebhookCostsNothingElse() throws {
        let hungPort = try freePort()
        let hung = try startHangingServer(port: hungPort)
        defer { hung.stop() }
        let execOut = rig.home + "/exec-hung.jsonl"
        let program = try writeRecorderScript(in: rig.home, out: execOut)
        let metrics = rig.home + "/somniq.prom"
        let cfg = try config("""
        {"room": "bedroom", "metrics": "\(metrics)", "sinks": [
          {"type": "webhook", "name": "hung", "url": "http://127.0.0.1:\(hungPort)/", "timeout_s": 1, "queue": 2},
          {"type": "exec", "command": [\(String(reflecting: program))], "max_per_minute": 100}]}
        """)
        let log = rig.home + "/hung.jsonl"
        let p = try rig.start(["--device", "fixture:FILE=\(try rig.raw(from: 0, seconds: 180))", "--config", cfg, "--log", log,
                               "--max-seconds", "180"])
        #expect(try waitForExit(p, timeout: 60) == 0)
        let withSinks = records(log)
        // The log holds the night's nine events (its eight sounds and the speech heard in the
        // cough), as it does with no sink at all.
        let events = withSinks.filter { $0["kind"]?.stringValue == "event_end" }.map { $0["class"]!.stringValue! }
        #expect(events == ["snoring", "door", "speech", "cough", "speech", "dog_bark", "baby_cry", "smoke_alarm", "snoring"])
        #expect(kinds(withSinks).last == "session_end")
        // The exec sink beside the hung one got every start and end of the eight alerts.
        #expect(records(execOut).count == 16)
        // What the hung webhook's queue dropped is in the log and the metrics.
        let dropped = withSinks.filter { $0["status"]?.stringValue == "sink_dropped" }
        #expect(dropped.first?["sink"]?.stringValue == "hung")
        let count = dropped.compactMap { $0["dropped"]?.numberValue }.reduce(0, +)
        #expect(count >= 10, "\(dropped)")
        let prom = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(prom.contains("somniq_sink_dropped_total{room=\"bedroom\",sink=\"hung\"} \(Int(count))"))
        #expect(prom.contains("somniq_sink_deliveries_total{room=\"bedroom\",sink=\"exec\"} 16"))
    }

    @Test func theMetricsFileParsesAsPrometheusText() throws {
        let python = Paths.sedevalPython
        try #require(FileManager.default.isExecutableFile(atPath: python), "no virtualenv at \(python): run `make sedeval`")
        let metrics = rig.home + "/m.prom"
        let cfg = try config("{\"room\": \"bedroom\", \"metrics\": \"\(metrics)\"}")
        let p = try rig.start(["--device", "fixture:FILE=\(try rig.raw(from: 0, seconds: 180))", "--config", cfg,
                               "--log", rig.home + "/m.jsonl", "--max-seconds", "180"])
        #expect(try waitForExit(p, timeout: 60) == 0)
        let script = """
        import sys
        from prometheus_client.parser import text_string_to_metric_families
        for f in text_string_to_metric_families(open(sys.argv[1]).read()):
            for s in f.samples:
                print(f.type, s.name, ",".join(f"{k}={v}" for k, v in sorted(s.labels.items())), "%g" % s.value)
        """
        let r = try runProgram(python, ["-c", script, metrics])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = Set(r.stdout.split(separator: "\n").map(String.init))
        #expect(lines.contains("counter somniq_events_total class=smoke_alarm,room=bedroom,tier=critical 1"))
        #expect(lines.contains("counter somniq_events_total class=snoring,room=bedroom,tier=high 2"))
        #expect(lines.contains("counter somniq_alerts_total class=door,room=bedroom,tier=medium 1"))
        #expect(lines.contains("counter somniq_events_total class=glass_break,room=bedroom,tier=critical 0"))
        #expect(lines.contains("gauge somniq_device_up room=bedroom 0"))
        #expect(lines.contains("counter somniq_stream_seconds_total room=bedroom 180"))
        #expect(lines.contains { $0.hasPrefix("gauge somniq_level_dbfs room=bedroom -") })
        #expect(lines.contains { $0.hasPrefix("gauge somniq_last_audio_timestamp_seconds room=bedroom 1") })
    }

    @Test func journalLinesCarryTheAlertsSyslogPriority() throws {
        let err = rig.home + "/stderr.txt"
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        var st = stat()
        stat(err, &st)
        let handle = try #require(FileHandle(forWritingAtPath: err))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.somniq)
        p.arguments = ["run", "--device", "fixture:FILE=\(try rig.raw(from: 0, seconds: 180))", "--log", rig.home + "/j.jsonl",
                       "--max-seconds", "180"]
        p.environment = rig.environment.merging(["JOURNAL_STREAM": "\(st.st_dev):\(st.st_ino)"]) { $1 }
        p.standardError = handle
        try p.run()
        #expect(try waitForExit(p, timeout: 60) == 0)
        let lines = try String(contentsOfFile: err, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.range(of: #"^<[2-7]>"#, options: .regularExpression) != nil }, "\(lines)")
        // `journalctl -p crit` shows exactly the critical alerts.
        #expect(lines.filter { $0.hasPrefix("<2>") }.map { String($0.prefix(29)) } == ["<2>critical alert: smoke_alar"])
        #expect(lines.filter { $0.hasPrefix("<4>high alert: ") }.count == 5)
        #expect(lines.filter { $0.hasPrefix("<5>medium alert: ") }.count == 2)

        // Not the journal: a time and the level in words, no priority prefix.
        let plain = try runProgram(Paths.somniq, ["run", "--device", "fixture:FILE=\(try rig.raw(from: 110, seconds: 25))",
                                                  "--log", rig.home + "/k.jsonl", "--max-seconds", "25"],
                                   environment: rig.environment.merging(["JOURNAL_STREAM": "1:1"]) { $1 })
        #expect(plain.stderr.contains(" critical somniq: critical alert: smoke_alarm at "))
        #expect(!plain.stderr.contains("<2>"))
    }
}
