import Foundation
@testable import SomniqConfig
@testable import SomniqReports
import SomniqTestSupport
import Testing
import SomniqCore

private typealias Night = DemoNightClips

/// Issue 47: nothing a log, a memory file or a folder holds may take `somniq run` down or
/// stop it from listening. Through real ALSA (the `file` plugin), as the service runs.
@Suite(.serialized) final class DaemonFaultTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    private func config(_ body: String) throws -> String {
        let path = rig.home + "/config-\(UUID().uuidString).json"
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A labelled event confirmed before its onset made the daily learning trap a second
    /// after `listening`, taking the daemon with it (no `session_end`; under systemd a
    /// crash loop). The event is skipped, the memory learned, and the daemon listens on.
    @Test func theDailyLearningOverADamagedLogLeavesTheDaemonListening() throws {
        let dir = rig.home + "/night"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let (log, recording, _) = try Night.replay(in: dir)
        try Night.label(Night.cough, "right", log)
        try Night.label(Night.dog, "not", log)
        try FileManager.default.removeItem(atPath: recording)   // live events: their clips alone
        _ = try craftTrace(log, id: Night.cough, confirmed: "1")

        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 0, seconds: 3))
        defer { writer.terminate() }
        let c = try config(#"{"log": "\#(log)", "home": {"learn_daily": true}, "clips": {"enabled": false}}"#)
        let memory = HomeMemoryFile.besideLog(log), journal = rig.home + "/learn-journal.txt"
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(fifo)"], journal: journal)
        // The memory learned and put in force (its journal line), or the daemon gone.
        try waitUntil(timeout: 60) {
            ((try? String(contentsOfFile: journal, encoding: .utf8)) ?? "").contains("learned this home's memory: ") || !p.isRunning
        }
        #expect(p.isRunning, "the daemon died learning (status \(p.isRunning ? 0 : p.terminationStatus))")
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
        let live = records(log).drop { $0["kind"] != .string("session_start") || $0["source"]?["type"] != .string("device") }
        #expect(kinds(Array(live)).contains("status:listening") && kinds(Array(live)).last == "session_end", "\(kinds(Array(live)))")
        #expect(!live.contains { $0["status"] == .string("home_learning_failed") })
        let learned = try HomeMemoryFile.read(path: memory)
        #expect(Set(learned.entries.map(\.eventID)) == [Night.dog], "the cough is skipped")
    }

    /// A damaged `home-memory.txt` beside the log, a regular file where the clips or the
    /// night audio's folder should be, or a web token file others may read, made `somniq
    /// run` exit 65 at start: nothing heard,
    /// the smoke alarm included, and systemd restarting it into the same refusal. Each is
    /// now refused in a critical `optional_refused` status, and the daemon listens without
    /// it; `--check-config`, the user asking, still refuses them.
    @Test func aBrokenMemoryAndFilesWhereFoldersShouldBeAreRefusedAndTheDaemonListens() throws {
        let dir = rig.home + "/broken"
        try FileManager.default.createDirectory(atPath: dir + "/metrics.prom", withIntermediateDirectories: true)
        let log = dir + "/events.jsonl", memory = HomeMemoryFile.besideLog(dir + "/events.jsonl")
        try "somniq-home-memory 2\nnot a memory\n".write(toFile: memory, atomically: true, encoding: .utf8)
        #expect(FileManager.default.createFile(atPath: dir + "/nights", contents: Data("x".utf8)))
        #expect(FileManager.default.createFile(atPath: dir + "/clips", contents: Data("x".utf8)))
        // A token file every user may read guards nothing: the page is off, never open.
        let token = dir + "/token"
        try "0123456789abcdef0123456789abcdef\n".write(toFile: token, atomically: true, encoding: .utf8)
        #expect(chmod(token, 0o644) == 0)
        let c = try config(#"{"log": "\#(log)", "night_audio": {"enabled": true}, "clips": {"enabled": true}, "metrics": "\#(dir)/metrics.prom", "#
                           + #""http": {"listen": "0.0.0.0:1", "token_file": "\#(token)"}}"#)
        let raw = try rig.raw(from: 0, seconds: 10)
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(raw)", "--max-seconds", "10"])
        #expect(try waitForExit(p, timeout: 30) == 0)
        let live = records(log)
        let refused = live.filter { $0["status"] == .string("optional_refused") }
        #expect(refused.compactMap { $0["what"]?.stringValue } == ["http", "home_memory", "clips", "night_audio", "metrics"], "\(kinds(live))")
        #expect(refused.allSatisfy { $0["alert"] == .bool(true) && $0["tier"] == .string("critical") && $0["error"]?.stringValue != nil })
        #expect(refused.compactMap { $0["path"]?.stringValue } == [token, memory, dir + "/clips", dir + "/nights", dir + "/metrics.prom"])
        #expect(kinds(live).contains("status:listening") && kinds(live).contains("event_start:snoring"), "\(kinds(live))")
        #expect(kinds(live).last == "session_end")
        try EventLogSchemaTests.expectValid(log)

        // The user asking: each is an error.
        let check = try somniq("run", "--config", c, "--device", "fixture:FILE=\(raw)", "--check-config")
        #expect(check.status == 65 && check.stderr.contains("\(token) may be read by other users"), "\(check.stderr)")
        let clips = try config(#"{"log": "\#(log)", "clips": {"enabled": true}}"#)
        let clipsCheck = try somniq("run", "--config", clips, "--device", "fixture:FILE=\(raw)", "--check-config")
        #expect(clipsCheck.status == 65 && clipsCheck.stderr.contains("the clips directory \(dir)/clips is not a directory"), "\(clipsCheck.stderr)")
        let alone = try config(#"{"log": "\#(log)"}"#)
        let memoryCheck = try somniq("run", "--config", alone, "--device", "fixture:FILE=\(raw)", "--check-config")
        #expect(memoryCheck.status == 65 && memoryCheck.stderr.contains(memory), "\(memoryCheck.stderr)")
        // A memory file that is a looping link is refused by name, not taken for none.
        try FileManager.default.removeItem(atPath: memory)
        #expect(symlink(memory, memory) == 0)
        let loop = try somniq("run", "--config", alone, "--device", "fixture:FILE=\(raw)", "--check-config")
        #expect(loop.status == 65 && loop.stderr.contains(memory), "\(loop.stderr)")
    }

    /// A damaged `home-fit.txt` beside the log is refused in a critical `optional_refused`
    /// status naming it, and the daemon listens on the shipped rules: the night's snoring is
    /// heard, its trace naming no fit; `--check-config` refuses it as an error.
    @Test func aDamagedHomeFitIsRefusedAndTheDaemonListensOnTheShippedRules() throws {
        let dir = rig.home + "/fit"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let log = dir + "/events.jsonl", fit = HomeFitFile.beside(HomeMemoryFile.besideLog(log))
        try "somniq-home-fit 1\npenalty 1\nclass cough used -2 right 0 against 9 held_out_errors 1 0\n".write(toFile: fit, atomically: true, encoding: .utf8)
        let c = try config(#"{"log": "\#(log)", "clips": {"enabled": false}}"#)
        let raw = try rig.raw(from: 0, seconds: 10)
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(raw)", "--max-seconds", "10"])
        #expect(try waitForExit(p, timeout: 30) == 0)
        let live = records(log)
        let refused = live.filter { $0["status"] == .string("optional_refused") }
        #expect(refused.compactMap { $0["what"]?.stringValue } == ["home_fit"], "\(kinds(live))")
        #expect(refused.first?["path"]?.stringValue == fit)
        #expect(refused.first?["error"]?.stringValue?.contains("line 3: class: lowers cough: a home's fit only raises a score") == true)
        #expect(kinds(live).contains("status:listening") && kinds(live).contains("event_start:snoring"), "\(kinds(live))")
        #expect(!live.contains { $0["trace"]?["fit"] != nil })
        #expect(kinds(live).last == "session_end")
        let check = try somniq("run", "--config", c, "--device", "fixture:FILE=\(raw)", "--check-config")
        #expect(check.status == 65 && check.stderr.contains(fit), "\(check.stderr)")
    }
}
