import Foundation
@testable import SomniqAudio
@testable import SomniqConfig
@testable import SomniqSinks
import SomniqTestSupport
import Testing
import SomniqCore

/// `somniq run` through real ALSA: the `file` plugin for fixtures, PulseAudio's null
/// sink for a paced device that can vanish. No mock of ALSA anywhere.
@Suite(.serialized) struct LiveTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    @Test func fixtureThroughALSAGivesTheSameEventsAsReplay() async throws {
        let raw = try rig.raw(from: 95, seconds: 40)
        let wav = rig.home + "/same.wav"
        try sox("-t", "raw", "-e", "signed", "-b", "16", "-c", "1", "-r", "16000", raw, wav)
        let log = rig.home + "/run.jsonl"
        let p = try rig.start(["--device", "fixture:FILE=\(raw)", "--log", log, "--max-seconds", "40"])
        #expect(try waitForExit(p, timeout: 30) == 0)
        let live = records(log)
        let ends = live.filter { $0["kind"] == .string("event_end") }
            .map { "\($0["class"]!.compactText)@\($0["onset_s"]!.compactText)-\($0["offset_s"]!.compactText)" }
        let replayed = try await detections(wav).map { "\"\($0.soundClass.rawValue)\"@\(JSONValue.rounded($0.onset).compactText)-\(JSONValue.rounded($0.offset).compactText)" }
        #expect(!replayed.isEmpty)
        #expect(ends.sorted() == replayed.sorted())
        #expect(kinds(live).first == "session_start" && kinds(live).last == "session_end")
        #expect(kinds(live).contains("status:listening"))
        // Live records carry wall-clock times.
        #expect(live.filter { $0["kind"] == .string("event_start") }.allSatisfy { $0["onset_time"] != nil })
    }

    @Test func aLiveNightKeepsAPlayableClipOfEachHighOrCriticalAlert() throws {
        // 95–135 s of the demo night: a baby crying (high) and a smoke alarm (critical).
        let raw = try rig.raw(from: 95, seconds: 40)
        let log = rig.home + "/clips.jsonl", config = rig.home + "/clips-config.json"
        try #"{"log": "\#(log)", "clips": {"enabled": true}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let p = try rig.start(["--config", config, "--device", "fixture:FILE=\(raw)", "--max-seconds", "40"])
        #expect(try waitForExit(p, timeout: 30) == 0)
        let ends = records(log).filter { $0["kind"] == .string("event_end") }
        let clipped = ends.compactMap { e in e["clip"]?.stringValue.map { (e["class"]!.stringValue!, $0) } }
        #expect(clipped.map(\.0).sorted() == ["baby_cry", "smoke_alarm"])
        for (_, path) in clipped {
            // Beside the log, named by its wall-clock time, decodable, private.
            #expect(path.hasPrefix(rig.home + "/clips/20"))
            let reader = try AudioFileReader(path: path)
            #expect(reader.sampleRate == 16_000 && reader.frames > 16_000 * 8)
            var st = stat()
            #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o640)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: rig.home + "/clips").count == 2)
    }

    @Test func aKilledSessionsOpenEventsAreClosedByTheNextSession() throws {
        // The first 20 s of the demo night: a snore is still sounding when the source stalls.
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 0, seconds: 20))
        defer { writer.terminate() }
        let log = rig.home + "/killed.jsonl"
        let first = try rig.start(["--device", "fixture:FILE=\(fifo)", "--log", log])
        try waitUntil(timeout: 30) { kinds(records(log)).contains("event_start:snoring") }
        kill(first.processIdentifier, SIGKILL)
        _ = try waitForExit(first, timeout: 5)
        // The event still open when it was killed: on a busy machine the first snore may have
        // ended, and another begun, before the kill.
        let endedBeforeKill = Set(records(log).filter { $0["kind"] == .string("event_end") }.compactMap { $0["id"]?.stringValue })
        let open = try #require(records(log).last { $0["kind"] == .string("event_start") && !endedBeforeKill.contains($0["id"]?.stringValue ?? "") }?["id"])
        #expect(UncleanEnd.scan(log) == [UncleanEnd.OpenEvent(id: open.stringValue!, soundClass: .snoring)])

        let second = try rig.start(["--device", "fixture:FILE=\(try rig.raw(from: 150, seconds: 2))", "--log", log, "--max-seconds", "2"])
        #expect(try waitForExit(second, timeout: 30) == 0)
        let after = records(log).drop { $0["kind"] != .string("session_start") }.dropFirst().drop { $0["kind"] != .string("session_start") }
        #expect(Array(kinds(Array(after)).prefix(3)) == ["session_start", "status:previous_session_unclean", "event_end:snoring"])
        let status = try #require(after.first { $0["status"] == .string("previous_session_unclean") })
        #expect(status["open_ids"] == .array([open]))
        let closed = try #require(after.first { $0["kind"] == .string("event_end") })
        #expect(closed["id"] == open && closed["truncated"] == .bool(true) && closed["offset_s"] == nil)
        // Every event in the log is closed now, and the log's last session ended cleanly.
        let all = records(log)
        let opened: Set<String> = Set(all.filter { $0["kind"] == .string("event_start") }.compactMap { $0["id"]?.stringValue })
        let ended: Set<String> = Set(all.filter { $0["kind"] == .string("event_end") }.compactMap { $0["id"]?.stringValue })
        #expect(opened == ended && !opened.isEmpty)
        #expect(UncleanEnd.scan(log) == nil)
        // Two sessions, status records and an event closed unseen: each line as the schema says.
        try EventLogSchemaTests.expectValid(log)
    }

    @Test func deviceMissingAtStartIsLoggedAlertedAndReopened() throws {
        let source = try rig.raw(from: 0, seconds: 5)
        let late = rig.home + "/late.raw"
        let log = rig.home + "/lost.jsonl"
        let p = try rig.start(["--device", "fixture:FILE=\(late)", "--log", log, "--max-seconds", "5"])
        try waitUntil(timeout: 10) { kinds(records(log)).contains("status:device_lost") }
        try FileManager.default.copyItem(atPath: source, toPath: late)
        #expect(try waitForExit(p, timeout: 15) == 0)
        let log1 = records(log)
        #expect(kinds(log1) == ["session_start", "status:device_lost", "status:listening"]
                + kinds(log1).dropFirst(3).dropLast() + ["session_end"])
        let lost = log1.first { $0["status"] == .string("device_lost") }
        #expect(lost?["alert"] == .bool(true) && lost?["tier"] == .string("critical"))
        try EventLogSchemaTests.expectValid(log)
    }

    @Test func deviceThatVanishesMidStreamIsSaidLostAndReopened() throws {
        try rig.startPulse()
        defer { rig.stopPulse() }
        let log = rig.home + "/vanish.jsonl"
        let p = try rig.start(["--device", "pulsefix", "--log", log, "--max-seconds", "8"])
        defer { if p.isRunning { p.terminate() } }
        try waitUntil(timeout: 10) { kinds(records(log)).contains("status:listening") }
        rig.stopPulse()                                   // the device goes away …
        try waitUntil(timeout: 10) { kinds(records(log)).contains("status:device_lost") }
        // The retries' 1 s, then 2 s, while it stays away are PlayTests' (on a test clock).
        try rig.startPulse()                              // … and comes back
        try waitUntil(timeout: 40) { kinds(records(log)).filter { $0 == "status:listening" }.count == 2 }
        #expect(try waitForExit(p, timeout: 20) == 0)
        let log1 = records(log)
        let lost = log1.first { $0["status"] == .string("device_lost") }
        #expect(lost?["alert"] == .bool(true))
        #expect((lost?["error"]).map { $0.compactText.contains("went away") } == true)
    }

    @Test func systemdHearsReadyWatchdogAndStopping() throws {
        let socketPath = rig.home + "/notify.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in socketPath.utf8.enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 0, seconds: 3))
        defer { writer.terminate() }
        let log = rig.home + "/notify.jsonl"
        let p = try rig.start(["--device", "fixture:FILE=\(fifo)", "--log", log],
                              environment: ["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "100000"])
        var messages: [String] = []
        func drain(for seconds: Double) {
            let end = Date(timeIntervalSinceNow: seconds)
            var buffer = [UInt8](repeating: 0, count: 512)
            while Date() < end {
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 { messages.append(String(decoding: buffer[0..<n], as: UTF8.self)) }
            }
        }
        drain(for: 2)
        // Audio stopped arriving 3 s in (the FIFO stalls): the watchdog must go quiet.
        let pingsBeforeStall = messages.filter { $0 == "WATCHDOG=1" }.count
        drain(for: 1.5)
        let pingsDuringStall = messages.filter { $0 == "WATCHDOG=1" }.count - pingsBeforeStall
        p.terminate()
        drain(for: 1.5)
        #expect(try waitForExit(p, timeout: 3) == 0)
        #expect(messages.first?.hasPrefix("READY=1") == true, "\(messages)")
        #expect(pingsBeforeStall >= 1)
        #expect(pingsDuringStall == 0)
        #expect(messages.last == "STOPPING=1")
    }

    @Test func sigtermClosesOpenEventsWritesSessionEndAndExitsZero() throws {
        // 12.5 s of the demo night from 115 s: the smoke alarm starts at 118 s and is still
        // sounding when the source stalls, so an event is open when SIGTERM comes. (A stall
        // at 127 s, just as a T3 tone is cut, let the end-of-stream flush end the alarm as
        // over in about half the runs, once a T3 alarm stopped being held 6 s past its last
        // tone; at 127.5 s it did in none of 20.)
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 115, seconds: 12.5))
        defer { writer.terminate() }
        let log = rig.home + "/term.jsonl"
        let p = try rig.start(["--device", "fixture:FILE=\(fifo)", "--log", log])
        try waitUntil(timeout: 20) { kinds(records(log)).contains("event_start:smoke_alarm") }
        // A SIGTERM while the daemon (a process of its own) is hearing the rest of the
        // 12.5 s, not just as the event is written: once the fixture is in the FIFO whole.
        try waitUntil(timeout: 20) { rig.writtenWhole(writer) }
        p.terminate()                                     // SIGTERM
        // 5 s is the unit's TimeoutStopSec, after which systemd would kill it: a guard
        // against a stop that hangs (waitForExit throws then), not a measure of the stop.
        #expect(try waitForExit(p, timeout: 5) == 0)
        // Every event still open is closed, cut off (the alarm, and whatever else the rest of the
        // 12.5 s opened: a door's shut, in some runs), then the minute in progress is reported,
        // after the events it counts, and the session's end.
        let all = records(log)
        let seen = kinds(all)
        #expect(seen.suffix(2) == ["level", "session_end"], "\(seen.suffix(4))")
        let closing = all.dropLast(2).reversed().prefix { $0["kind"] == .string("event_end") && $0["truncated"] == .bool(true) }
        #expect(closing.contains { $0["class"] == .string("smoke_alarm") }, "\(seen.suffix(4))")
        #expect(all.last?["reason"] == .string("signal"))
    }

    @Test func sighupWithABrokenProfileKeepsTheOldOne() throws {
        let profile = rig.home + "/night.json"
        try FileManager.default.copyItem(atPath: Paths.package + "/profiles/sensitive.json", toPath: profile)
        let config = rig.home + "/config.json"
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 0, seconds: 3))
        defer { writer.terminate() }
        let log = rig.home + "/hup.jsonl"
        try #"{"device": "fixture:FILE=\#(fifo)", "profile": "\#(profile)", "log": "\#(log)"}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let p = try rig.start(["--config", config])
        try waitUntil(timeout: 10) { kinds(records(log)).contains("status:listening") }
        let broken = try String(contentsOfFile: profile, encoding: .utf8).replacingOccurrences(of: "\"off\": 0.4", with: "\"off\": 0.8")
        try broken.write(toFile: profile, atomically: true, encoding: .utf8)
        kill(p.processIdentifier, SIGHUP)
        try waitUntil(timeout: 5) { kinds(records(log)).contains("status:profile_rejected") }
        #expect(p.isRunning)
        let rejected = records(log).first { $0["status"] == .string("profile_rejected") }
        #expect(rejected?["error"] == .string("\(profile): base.off: 0.8 is above on (0.6)"))
        // A profile of 2 MiB is refused by its size, before it is parsed.
        try (String(repeating: " ", count: 2 << 20) + broken).write(toFile: profile, atomically: true, encoding: .utf8)
        kill(p.processIdentifier, SIGHUP)
        try waitUntil(timeout: 5) { kinds(records(log)).filter { $0 == "status:profile_rejected" }.count == 2 }
        #expect(records(log).last { $0["status"] == .string("profile_rejected") }?["error"]
                == .string("\(profile): is larger than 1 MiB; a profile (.json) is a few KB"))
        #expect(p.isRunning)
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
    }

    /// The daemon says at start that this home's learning is in force and what it holds,
    /// its memory and its fit: in its journal, on /healthz and on the page.
    @Test func theDaemonSaysAtStartWhatThisHomesLearningHolds() throws {
        let webPort = try freePort()
        let config = rig.home + "/holds-config.json"
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 0, seconds: 3))
        defer { writer.terminate() }
        let log = rig.home + "/holds.jsonl"
        try #"{"device": "fixture:FILE=\#(fifo)", "log": "\#(log)", "http": {"listen": "127.0.0.1:\#(webPort)"}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let x = [Float](repeating: 1, count: LearnedInputs.count), y = [Float](repeating: 2, count: LearnedInputs.count)
        var memory = HomeMemory(entries: [
            .init(kind: .not, soundClass: .door, eventID: "r1-e2", at: nil, inputs: x),
            .init(kind: .right, soundClass: .cough, eventID: "r1-e3", at: nil, inputs: x),
            .init(kind: .right, soundClass: .cough, eventID: "r1-e3", at: nil, inputs: y),
            .init(kind: .not, soundClass: .scream, eventID: "r1-e5", at: nil, inputs: y, was: .snoring),
            .init(kind: .right, soundClass: .snoring, eventID: "r1-e5", at: nil, inputs: y),
        ], radius: 0.5)
        memory.header = [("learned", "2026-11-23T12:00:00.000Z")]
        try HomeMemoryFile.write(memory, to: HomeMemoryFile.besideLog(log))
        // And this home's fit beside it: the classes it decides, from how many marks, learned when.
        let fit = HomeFit(classes: [
            .init(soundClass: .cough, shift: 1.25, used: true, right: 2, against: 1, shippedErrors: 2, fitErrors: 1),
            .init(soundClass: .door, shift: 0.5, used: false, right: 0, against: 1, shippedErrors: 1, fitErrors: 1),
        ], header: [("learned", "2026-11-23T12:00:00.000Z")])
        try HomeFitFile.write(fit, to: HomeFitFile.beside(HomeMemoryFile.besideLog(log)))
        let journal = rig.home + "/holds-journal.txt"
        let p = try rig.start(["--config", config], journal: journal)
        try waitUntil(timeout: 10) { kinds(records(log)).contains("status:listening") }
        let said = "this home's learning is in force: 3 sounds marked (1 scream, 1 cough, 1 door), learned 2026-11-2"
        let fitSaid = "this home's fit decides cough (+1.25, from 3 marks); the shipped rules the rest, learned 2026-11-2"
        let written = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(written.contains(said) && written.contains(fitSaid), "\(written)")
        var health = ""
        try waitUntil(timeout: 10) {
            health = (try? runProgram("/usr/bin/curl", ["-s", "-m", "5", "http://127.0.0.1:\(webPort)/healthz"]).stdout) ?? ""
            return health.hasPrefix("ok: ")
        }
        #expect(health.hasPrefix("ok: listening on fixture:FILE=\(fifo); " + said), "\(health)")
        #expect(health.contains("; " + fitSaid), "\(health)")
        let page = try runProgram("/usr/bin/curl", ["-s", "-m", "5", "http://127.0.0.1:\(webPort)/"]).stdout
        #expect(page.contains(said.replacing("'", with: "&#39;")), "\(page)")
        #expect(page.contains(fitSaid.replacing("'", with: "&#39;")), "\(page)")
        // The longer status line still fits a phone's screen (390 px, chromium).
        let laid = try runProgram("/usr/bin/python3", [Paths.package + "/scripts/chromium-layout.py", "--size", "390x844", "--mobile",
                                                       "http://127.0.0.1:\(webPort)/"])
        let phone = try JSONValue(parsing: String(laid.stdout.split(separator: "\n").first ?? ""))
        #expect((phone["scrollWidth"]?.numberValue ?? 1e9) <= (phone["width"]?.numberValue ?? 0), "\(laid.stdout)\(laid.stderr)")
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
    }

    /// After `somniq learn --home` by hand, a reload puts the new memory in force; a memory
    /// file that cannot be read is refused by name and the one in force kept.
    @Test func sighupReadsThisHomesMemoryAgain() throws {
        let config = rig.home + "/home-config.json"
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 0, seconds: 3))
        defer { writer.terminate() }
        let log = rig.home + "/home-hup.jsonl"
        try #"{"device": "fixture:FILE=\#(fifo)", "log": "\#(log)"}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let p = try rig.start(["--config", config])
        try waitUntil(timeout: 10) { kinds(records(log)).contains("status:listening") }
        let memory = HomeMemory(entries: [.init(kind: .not, soundClass: .door, eventID: "r1-e2", at: nil,
                                                inputs: [Float](repeating: 1, count: LearnedInputs.count))], radius: 0.5)
        try HomeMemoryFile.write(memory, to: HomeMemoryFile.besideLog(log))
        kill(p.processIdentifier, SIGHUP)
        try waitUntil(timeout: 5) { kinds(records(log)).contains("status:profile_reloaded") }
        let reloaded = records(log).last { $0["status"] == .string("profile_reloaded") }
        #expect(reloaded?["home"] == .string("1 windows of 1 events (1 not this, 0 right), radius 0.5, ratio 1"))
        try "somniq-home-memory 9\n".write(toFile: HomeMemoryFile.besideLog(log), atomically: true, encoding: .utf8)
        kill(p.processIdentifier, SIGHUP)
        try waitUntil(timeout: 5) { kinds(records(log)).filter { $0 == "status:profile_reloaded" }.count == 2 }
        let refused = records(log).last { $0["status"] == .string("profile_reloaded") }
        #expect(refused?["home_refused"]?.stringValue?.hasSuffix("line 1: format 9; this somniq reads formats 2 to \(HomeMemory.formatVersion): learn it again (somniq learn --home)") == true,
                "\(String(describing: refused))")
        #expect(p.isRunning)
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
    }

    @Test func fullDiskLosesNoEventOnceSpaceReturns() throws {
        // A file-size limit stands in for a full disk: writes past 1 KiB fail with EFBIG,
        // within the first event.
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 40, seconds: 60))
        defer { writer.terminate() }
        let log = rig.home + "/full.jsonl"
        let port = try freePort()
        let config = rig.home + "/full.json"
        try #"{"http": {"listen": "127.0.0.1:\#(port)"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let p = try rig.start(["--config", config, "--device", "fixture:FILE=\(fifo)", "--log", log],
                              prefix: ["/usr/bin/prlimit", "--fsize=1024:unlimited"])
        // All 60 s judged: the page's stream time says so, the log cannot (its writes are
        // refused). The FIFO gives whole periods, so the stream is the 60 s written.
        try waitUntil(timeout: 120) {
            let status = (try? fetch("http://127.0.0.1:\(port)/api/status", timeout: 1)).flatMap { try? JSONValue(parsing: $0.text) }
            return (status?["stream_s"]?.numberValue ?? 0) >= 59.95
        }
        #expect(p.isRunning, "the daemon must survive a full disk")
        let sizeWhileFull = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        #expect(sizeWhileFull <= 1024)
        // Space returns: lift the limit on the running process.
        try runProgram("/usr/bin/prlimit", ["--pid", "\(p.processIdentifier)", "--fsize=unlimited:unlimited"])
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
        let log1 = records(log)
        let starts = Set(log1.filter { $0["kind"] == .string("event_start") }.compactMap { $0["id"]?.compactText })
        let ends = Set(log1.filter { $0["kind"] == .string("event_end") }.compactMap { $0["id"]?.compactText })
        #expect(starts.count >= 2, "40–100 s of the demo hold speech and a cough: \(kinds(log1))")
        #expect(starts == ends)
        #expect(kinds(log1).contains("status:log_write_failed"))
        #expect(kinds(log1).last == "session_end")
    }

    @Test func checkConfigValidatesAndExits() throws {
        let good = rig.home + "/good.json", bad = rig.home + "/bad.json"
        try #"{"device": "null", "profile": "sensitive", "log": "/tmp/x.jsonl", "silence_s": 60}"#
            .write(toFile: good, atomically: true, encoding: .utf8)
        try #"{"device": "default", "silence": 60}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let ok = try somniq("run", "--config", good, "--check-config")
        #expect(ok.status == 0 && ok.stdout.contains("profile sensitive"))
        let no = try somniq("run", "--config", bad, "--check-config")
        #expect(no.status == 65)
        #expect(no.stderr == "somniq: \(bad): silence: unknown key (expected one of: device, profile, log, silence_s, clipping_s, room, metrics, sinks, clips, night_audio, http, time_zone, home, morning_summary)\n")
    }
}

/// What the daemon does when it cannot hear, and with a log torn by a power cut.
@Suite(.serialized) struct LiveFaultTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    private func config(_ body: String) throws -> String {
        let path = rig.home + "/config-\(UUID().uuidString).json"
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func digitalSilenceIsReportedAsInputSilent() throws {
        let log = rig.home + "/silent.jsonl"
        let c = try config(#"{"device": "fixture:FILE=/dev/zero", "log": "\#(log)", "silence_s": 3}"#)
        let p = try rig.start(["--config", c, "--max-seconds", "10"])
        #expect(try waitForExit(p, timeout: 20) == 0)
        let silent = records(log).filter { $0["status"] == .string("input_silent") }
        #expect(silent.count == 1, "reported once, not every frame: \(kinds(records(log)))")
        #expect(silent.first?["alert"] == .bool(true))
    }

    @Test func sustainedClippingIsReported() throws {
        // A full-scale square wave: every sample at ±32767.
        let raw = rig.home + "/clipped.raw"
        var samples = [Int16](repeating: 0, count: 16_000 * 8)
        for i in samples.indices { samples[i] = (i / 40) % 2 == 0 ? Int16.max : Int16.min + 1 }
        try samples.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: raw)) }
        let log = rig.home + "/clip.jsonl"
        let c = try config(#"{"device": "fixture:FILE=\#(raw)", "log": "\#(log)", "clipping_s": 2}"#)
        let p = try rig.start(["--config", c, "--max-seconds", "8"])
        #expect(try waitForExit(p, timeout: 20) == 0)
        #expect(kinds(records(log)).filter { $0 == "status:clipping" }.count == 1)
    }

    @Test func tornLastLineIsToleratedOnRestart() throws {
        let log = rig.home + "/torn.jsonl"
        let raw = try rig.raw(from: 0, seconds: 3)
        var p = try rig.start(["--device", "fixture:FILE=\(raw)", "--log", log, "--max-seconds", "3"])
        #expect(try waitForExit(p, timeout: 20) == 0)
        let before = records(log).count
        // Power cut in the middle of a record.
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"v":1,"kind":"event_st"#.utf8))
        try handle.close()
        p = try rig.start(["--device", "fixture:FILE=\(raw)", "--log", log, "--max-seconds", "3"])
        #expect(try waitForExit(p, timeout: 20) == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        // Nothing before the torn line is lost; the torn line stands alone; the new session parses.
        #expect(records(log).count == 2 * before)
        #expect(lines.filter { (try? JSONValue(parsing: String($0))) == nil } == [#"{"v":1,"kind":"event_st"#])
        #expect(kinds(records(log)).last == "session_end")
    }
}
