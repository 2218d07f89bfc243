import Foundation
@testable import SomniqAudio
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Testing
import SomniqCore

/// `somniq run` keeping the night's audio, through real ALSA (the `file` plugin), real
/// libsndfile and a real file-size limit.
@Suite(.serialized) struct NightAudioLiveTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    private func config(_ body: String) throws -> String {
        let path = rig.home + "/config-\(UUID().uuidString).json"
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The events a log's sessions ended, as `class@onset-offset`.
    private func ends(_ log: [JSONValue]) -> [String] {
        log.filter { $0["kind"] == .string("event_end") }
            .map { "\($0["class"]!.stringValue!)@\($0["onset_s"]!.compactText)-\($0["offset_s"]!.compactText)" }.sorted()
    }

    /// The events of a raw fixture replayed in process.
    private func replayedEnds(_ raw: String) async throws -> [String] {
        let wav = raw + ".wav"
        try sox("-t", "raw", "-e", "signed", "-b", "16", "-c", "1", "-r", "16000", raw, wav)
        return try await detections(wav).map { "\($0.soundClass.rawValue)@\(JSONValue.rounded($0.onset).compactText)-\(JSONValue.rounded($0.offset).compactText)" }.sorted()
    }

    @Test func theDaemonKeepsExactlyTheSamplesItHeardInPartsCutOnTheClock() async throws {
        // 25 s of the demo night from 95 s (a baby crying), in parts of 10 s.
        let raw = try rig.raw(from: 95, seconds: 25)
        let log = rig.home + "/night.jsonl"
        let c = try config(#"{"log": "\#(log)", "night_audio": {"enabled": true, "part_s": 10}}"#)
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(raw)", "--max-seconds", "25"])
        #expect(try waitForExit(p, timeout: 30) == 0)
        let live = records(log)
        let parts = nightParts(live)
        #expect(parts.count >= 3, "25 s cut every 10 s of the clock: \(parts.map(\.path))")
        var joined: [Int16] = []
        for (k, part) in parts.enumerated() {
            let unix = try #require(WallClock.parse(part.startTime))
            // In its night's folder, named by the local time of its first sample.
            #expect(part.night == WallClock.night(unix))
            #expect(part.path == rig.home + "/nights/" + part.night + "/" + NightStore.place(unix: unix).name)
            // Each part goes on where the one before it stopped, the stream time said.
            #expect(abs(part.startS - Double(joined.count) / 16_000) < 0.001, "\(part.path) starts at \(part.startS) s")
            let got = try samples16(part.path)
            // The fixture is not paced (25 s of audio in about a second): the daemon times it
            // no later than it arrived (LiveClock), and the parts go on on their own axis
            // from the first, so that each but the first begins on a multiple of 10 s of the
            // clock and each but the last holds 10 s.
            if k > 0 { #expect(abs(unix - (unix / 10).rounded() * 10) < 0.001, "\(part.startTime)") }
            if k > 0 && k < parts.count - 1 { #expect(got.count == 160_000) }
            #expect(got.count <= 160_000)
            var st = stat()
            #expect(stat(part.path, &st) == 0 && st.st_mode & 0o777 == 0o640)
            joined += got
        }
        #expect(joined == (try raw16(raw)), "the parts joined are the samples the pipeline heard, exactly")
        var st = stat()
        #expect(stat(rig.home + "/nights", &st) == 0 && st.st_mode & 0o777 == 0o750)
        // Keeping the audio changes nothing heard.
        #expect(ends(live) == (try await replayedEnds(raw)))
        #expect(!ends(live).isEmpty)

        // Joined with sox and replayed, the night gives the live log's events.
        let night = rig.home + "/joined.flac"
        try runProgram("/usr/bin/sox", parts.map(\.path) + [night])
        let r = try runProgram(Paths.somniq, ["replay", night, "--start", parts[0].startTime, "--format", "jsonl"])
        #expect(r.status == 0, "\(r.stderr)")
        let replayed = r.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        #expect(ends(replayed) == ends(live))
    }

    @Test func offByDefaultNothingIsKept() throws {
        let raw = try rig.raw(from: 0, seconds: 3)
        let log = rig.home + "/off.jsonl"
        let c = try config(#"{"log": "\#(log)", "night_audio": {"part_s": 10}}"#)
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(raw)", "--max-seconds", "3"])
        #expect(try waitForExit(p, timeout: 20) == 0)
        #expect(kinds(records(log)).last == "session_end")
        #expect(!kinds(records(log)).contains { $0.hasPrefix("status:night_audio") })
        #expect(!FileManager.default.fileExists(atPath: rig.home + "/nights"))
    }

    @Test func aNightsDirectoryThatCannotBeMadeCostsTheAudioNotTheSession() throws {
        // Nothing can be made under /proc, whoever runs the test.
        let raw = try rig.raw(from: 0, seconds: 3)
        let log = rig.home + "/unmade.jsonl"
        let c = try config(#"{"log": "\#(log)", "night_audio": {"enabled": true, "dir": "/proc/somniq-nights"}}"#)
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(raw)", "--max-seconds", "3"])
        #expect(try waitForExit(p, timeout: 20) == 0)
        let log1 = records(log)
        #expect(Array(kinds(log1).prefix(3)) == ["session_start", "status:optional_refused", "status:listening"])
        let failed = try #require(log1.first { $0["status"] == .string("optional_refused") })
        #expect(failed["what"] == .string("night_audio") && failed["path"] == .string("/proc/somniq-nights") && failed["tier"] == .string("critical"))
        #expect(failed["error"]?.stringValue?.hasPrefix("cannot create the night audio directory") == true, "\(failed.compactText)")
        #expect(nightParts(log1).isEmpty && kinds(log1).last == "session_end")
    }

    @Test func theOldestNightsGoAtTheFirstPartTonightsStays() throws {
        let dir = rig.home + "/kept"
        for name in ["2000-01-01", "2000-01-02", "2000-01-03"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + name, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: dir + "/\(name)/\(name)_23-00-00.flac", contents: Data(count: 1000)))
        }
        let raw = try rig.raw(from: 0, seconds: 3)
        let log = rig.home + "/rotate.jsonl"
        let c = try config(#"{"log": "\#(log)", "night_audio": {"enabled": true, "dir": "\#(dir)", "keep_nights": 2}}"#)
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(raw)", "--max-seconds", "3"])
        #expect(try waitForExit(p, timeout: 20) == 0)
        let log1 = records(log)
        let deleted = log1.filter { $0["status"] == .string("night_audio_deleted") }
        #expect(deleted.map { $0["night"]?.stringValue } == ["2000-01-01", "2000-01-02"])
        #expect(deleted.allSatisfy { $0["reason"] == .string("keep_nights") })
        let tonight = try #require(nightParts(log1).first).night
        #expect(NightStore(directory: dir).nights().map(\.name) == ["2000-01-03", tonight])
    }

    @Test func aDiskThatRefusesWritesCostsNoEventAndIsSaid() async throws {
        // 60 s of the demo night from 40 s (speech, a cough, a dog). 150 kB a file stands for
        // a full disk: a part holds under 9 s; then the audio is lost, and a part tried again
        // 30 s later, which is kept until the limit refuses it too.
        let raw = try rig.raw(from: 40, seconds: 60)
        let log = rig.home + "/refused.jsonl"
        let c = try config(#"{"log": "\#(log)", "night_audio": {"enabled": true}}"#)
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(raw)", "--max-seconds", "60"],
                              prefix: ["/usr/bin/prlimit", "--fsize=150000:unlimited"])
        #expect(try waitForExit(p, timeout: 60) == 0, "the daemon must survive a disk that refuses")
        let live = records(log)
        #expect(kinds(live).last == "session_end")
        #expect(ends(live) == (try await replayedEnds(raw)), "no event is lost to the disk")
        let failed = live.filter { $0["status"] == .string("night_audio_failed") }
        let dropped = live.filter { $0["status"] == .string("night_audio_dropped") }
        let parts = nightParts(live)
        // The first part, and the one tried again; on a busy machine the unpaced fixture may
        // stall, and LiveClock begin a part anew after it, which the disk refuses in turn.
        // A part's name is the wall-clock second of its first sample, which the machine's
        // load decides: each refusal is matched by name to a part the log said was begun.
        #expect(parts.count >= 2, "the first part, and the one tried again: \(parts.map(\.path))")
        #expect(failed.count >= 2 && failed.allSatisfy { $0["reason"] == .string("no_space") }, "\(failed.map(\.compactText))")
        let begun = Set(parts.map(\.path))
        #expect(failed.allSatisfy { $0["path"]?.stringValue.map(begun.contains) == true }, "\(failed.map(\.compactText)) of \(begun)")
        #expect(failed.allSatisfy { $0["error"]?.stringValue?.contains("File too large") == true })
        #expect(dropped.count >= 2 && dropped.allSatisfy { $0["reason"] == .string("no_space") }, "\(dropped.map(\.compactText))")
        // What was kept is what was heard: each part a stretch of the fixture, the second
        // after the first. (Where a part starts in stream time depends on how the machine's
        // load paced the unpaced fixture; its samples do not.)
        let heard = try raw16(raw)
        var kept = 0.0, after = 0
        for part in parts {
            let got = try samples16(part.path)
            let from = Self.stretch(got, in: heard, after: after)
            #expect(from != nil, "\(part.path) holds \(got.count) samples, a stretch of the fixture")
            after = (from ?? after) + got.count
            kept += Double(got.count) / 16_000
        }
        // A retry follows lost audio, and the loss is said with how much: with what was kept,
        // the whole minute.
        let lost = dropped.compactMap { $0["seconds"]?.numberValue }
        #expect(lost.first.map { $0 > 1 } == true, "\(lost)")
        #expect(abs(kept + lost.reduce(0, +) - 60) < 1, "kept \(kept) s, lost \(lost) s")
    }

    /// Where `got` lies in `heard`, at or after `after`, if it does.
    static func stretch(_ got: [Int16], in heard: [Int16], after: Int) -> Int? {
        guard !got.isEmpty, got.count <= heard.count else { return nil }
        var from = after
        while from + got.count <= heard.count {
            if heard[from] == got[0] && Array(heard[from..<from + got.count]) == got { return from }
            from += 1
        }
        return nil
    }

    @Test func sigtermFinishesThePartWholeBeforeTheUnitsStopTimeout() throws {
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 0, seconds: 12))
        defer { writer.terminate() }
        let log = rig.home + "/term.jsonl"
        let c = try config(#"{"log": "\#(log)", "night_audio": {"enabled": true}}"#)
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(fifo)"])
        try rig.waitUntilJudged(log, seconds: 12)
        p.terminate()
        // 5 s is the unit's TimeoutStopSec, after which systemd would kill it (the part left
        // unfinished): a guard against a stop that hangs, not a measure of the stop.
        #expect(try waitForExit(p, timeout: 5) == 0)
        #expect(kinds(records(log)).last == "session_end")
        // Finished: each part's header has its length, and the parts hold every sample heard
        // (the machine's load may have made the unpaced fixture stall, and begun a part anew).
        let parts = nightParts(records(log))
        #expect(!parts.isEmpty)
        var kept = 0
        for part in parts {
            let reader = try AudioFileReader(path: part.path), samples = try samples16(part.path)
            #expect(!reader.lengthUnknown && reader.frames == samples.count, "\(part.path)")
            kept += samples.count
        }
        #expect(kept >= 12 * 16_000)
    }

    @Test func aPartCutOffByAKillIsReadToWhereItStopped() throws {
        // A raw file, not a FIFO: the file plugin takes what a FIFO holds as a whole period,
        // and the pipeline would hear silence between the fixture's samples.
        // Past the file's end the plugin reads nothing and says it read a period, unpaced:
        // silence. The daemon is killed once the stream has run two minutes past the
        // fixture, so the part holds more than the fixture.
        let raw = try rig.raw(from: 0, seconds: 20)
        let log = rig.home + "/killed.jsonl"
        let c = try config(#"{"log": "\#(log)", "night_audio": {"enabled": true}}"#)
        let p = try rig.start(["--config", c, "--device", "fixture:FILE=\(raw)"])
        try waitUntil(timeout: 30) {
            !nightParts(records(log)).isEmpty
                && records(log).contains { $0["kind"] == .string("level") && ($0["start_s"]?.numberValue ?? 0) >= 120 }
        }
        kill(p.processIdentifier, SIGKILL)
        _ = try waitForExit(p, timeout: 5)
        // The machine's load may have stalled the capture and begun a part anew: the parts
        // finished before the kill have their length, the one under way at the kill has not.
        let parts = nightParts(records(log))
        let part = try #require(parts.last).path
        for earlier in parts.dropLast() {
            let reader = try AudioFileReader(path: earlier.path)
            #expect(!reader.lengthUnknown, "\(earlier.path) was finished before the kill")
        }
        // Every block written is there, in order: the fixture first.
        let got = try parts.flatMap { try samples16($0.path) }, heard = try raw16(raw)
        #expect(got.count > heard.count && Array(got.prefix(heard.count)) == heard, "\(got.count) samples in \(parts.count) parts")
        #expect(try AudioFileReader(path: part).lengthUnknown)
        let r = try runProgram(Paths.somniq, ["replay", part, "--format", "tsv"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("the header gives no length"), "\(r.stderr)")
    }
}
