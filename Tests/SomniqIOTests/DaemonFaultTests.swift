import Foundation
import Testing
import SomniqCore
@testable import SomniqIO

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
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(fifo)"])
        let memory = HomeMemoryFile.besideLog(log)
        try waitUntil(timeout: 60) { FileManager.default.fileExists(atPath: memory) || !p.isRunning }
        Thread.sleep(forTimeInterval: 1)
        #expect(p.isRunning, "the daemon died learning (status \(p.isRunning ? 0 : p.terminationStatus))")
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
        let live = records(log).drop { $0["kind"] != .string("session_start") || $0["source"]?["type"] != .string("device") }
        #expect(kinds(Array(live)).contains("status:listening") && kinds(Array(live)).last == "session_end", "\(kinds(Array(live)))")
        #expect(!live.contains { $0["status"] == .string("home_learning_failed") })
        let learned = try HomeMemoryFile.read(path: memory)
        #expect(Set(learned.entries.map(\.eventID)) == [Night.dog], "the cough is skipped")
    }
}
