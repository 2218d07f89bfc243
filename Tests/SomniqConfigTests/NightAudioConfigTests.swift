import Foundation
@testable import SomniqConfig
import SomniqTestSupport
import Testing
import SomniqCore

/// `"night_audio"` in config.json: off unless enabled, every value checked with its key path.
@Suite struct NightAudioConfigTests {
    private func problem(_ text: String) -> String? {
        do { _ = try DaemonConfig.parse(text, file: "c.json"); return nil } catch { return error.description }
    }

    @Test func nightAudioIsOffUnlessEnabledAndKeptBesideTheLog() throws {
        let c = try DaemonConfig.parse(#"{"log": "/srv/s/events.jsonl"}"#, file: "c.json")
        #expect(!c.nightAudio.enabled)
        #expect(c.nightAudio.maxMB == 3000 && c.nightAudio.keepNights == 7 && c.nightAudio.partSeconds == 3600)
        #expect(c.nightAudioDirectory == "/srv/s/nights")
        let on = try DaemonConfig.parse(#"{"night_audio": {"enabled": true, "dir": "/data/nights", "max_mb": 500, "keep_nights": 2, "part_s": 10}}"#,
                                        file: "c.json")
        #expect(on.nightAudio.enabled && on.nightAudioDirectory == "/data/nights")
        #expect(on.nightAudio.maxBytes == 500_000_000 && on.nightAudio.keepNights == 2 && on.nightAudio.partSeconds == 10)
    }

    @Test func wrongNightAudioSettingsAreRefusedNamingTheKey() throws {
        for (text, message) in [
            (#"{"night_audio": true}"#, "c.json: night_audio: must be an object, not a boolean"),
            (#"{"night_audio": {"enabled": "yes"}}"#, "c.json: night_audio.enabled: must be true or false, not a string"),
            (#"{"night_audio": {"dir": "nights"}}"#, "c.json: night_audio.dir: \"nights\" must be an absolute path"),
            (#"{"night_audio": {"max_mb": 0}}"#, "c.json: night_audio.max_mb: 0 must be from 1 to 1000000 MB"),
            (#"{"night_audio": {"keep_nights": 2.5}}"#, "c.json: night_audio.keep_nights: 2.5 must be a whole number from 1 to 3650"),
            (#"{"night_audio": {"part_s": 5}}"#, "c.json: night_audio.part_s: 5 must be from 10 to 3600"),
            (#"{"night_audio": {"quota_mb": 2000}}"#,
             "c.json: night_audio.quota_mb: unknown key (expected one of: enabled, dir, max_mb, keep_nights, part_s)"),
        ] {
            #expect(problem(text) == message, "\(text)")
        }
        // Its directory a file: refused before listening, as clips are.
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/nights", contents: Data()))
        let config = dir + "/config.json"
        try #"{"log": "\#(dir)/events.jsonl", "night_audio": {"enabled": true}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        do { _ = try DaemonConfig.read(path: config); Issue.record("accepted") } catch {
            #expect(error.keyPath == "log" && error.problem.contains("set night_audio.dir to a directory"), "\(error)")
        }
        let r = try runProgram(Paths.somniq, ["run", "--config", config, "--check-config"])
        #expect(r.status == 65 && r.stderr.contains("the night audio directory \(dir)/nights is not a directory"), "\(r.stderr)")
    }
}
