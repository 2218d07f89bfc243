import Foundation
@testable import SomniqAudio
@testable import SomniqConfig
@testable import SomniqSession
@testable import SomniqSinks
import SomniqTestSupport
import Testing
@testable import SomniqCore
import SomniqLog

/// Every sample of an audio file, as the pipeline reads it (16 kHz mono files only).
private func decode(_ path: String) throws -> [Float] {
    let reader = try AudioFileReader(path: path)
    #expect(reader.sampleRate == 16_000)
    var all: [Float] = [], block = [Float](repeating: 0, count: 8192)
    while true {
        let n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
        if n == 0 { return all }
        all += block[0..<n]
    }
}

/// The event log records a sink is handed.
private final class JSONRecords: RecordSink {
    var records: [JSONValue] = []
    func write(_ record: SessionRecord, logged: LogRecord?) { if let logged { records.append(logged.json) } }
}

private func level(_ x: ArraySlice<Float>) -> Double {
    10 * log10(max(1e-12, x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))))
}

@Suite struct KeptClipTests {
    @Test func theDemoNightKeepsOnePlayableClipPerHighOrCriticalAlertStartingPreBeforeItsOnset() async throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let replayer = Replayer(profile: .balanced)
        let policy = ClipPolicy()
        replayer.factory.clips = (policy, dir + "/clips")
        let log = JSONRecords(), events = EventCollector()
        try await replayer.replay(path: Paths.demoNight, to: [log, events])
        let source = try decode(Paths.demoNight)

        let kept = events.starts.filter { $0.alert && $0.tier <= .high }
        #expect(kept.count == 6, "snoring twice, cough, bark, cry, smoke alarm")
        #expect(events.starts.contains { $0.soundClass == .speech && $0.alert }, "the night has speech, which keeps no clip")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir + "/clips").sorted()
        #expect(files.count == kept.count)
        for e in events.starts {
            let record = try #require(log.records.first { $0["kind"] == .string("event_end") && $0["id"] == .string(e.id) })
            guard kept.contains(where: { $0.id == e.id }) else {
                #expect(record["clip"] == nil, "\(e.soundClass) at \(e.onset) keeps no clip")
                continue
            }
            let path = try #require(record["clip"]?.stringValue, "\(e.soundClass) at \(e.onset): its clip in event_end")
            var st = stat()
            #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o640, "\(path) is private (0640)")
            let end = try #require(events.ends.first { $0.id == e.id })
            let clip = try decode(path)
            // It starts pre_s before the onset: the same samples as the night's, there.
            let expected = Int((max(0, e.onset - policy.preSeconds) * 16_000).rounded())
            let stop = min(Double(source.count) / 16_000, end.offset + policy.postSeconds)
            #expect(abs(clip.count - Int(((stop - max(0, e.onset - policy.preSeconds)) * 16_000).rounded())) <= SubFrame.hop)
            let found = (max(0, expected - 8000)..<min(source.count - 64, expected + 8000)).first { at in
                source[at..<at + 64].elementsEqual(clip[0..<64])
            }
            #expect(found.map { abs($0 - expected) <= SubFrame.hop } == true, "\(e.soundClass): clip starts at \(found.map(String.init) ?? "nowhere"), wanted \(expected)")
            if let found { #expect(source[found..<found + clip.count].elementsEqual(clip), "the clip is the night's sound, sample for sample") }
            // The event is heard in it: its stretch is louder than the floor it was judged on.
            let from = Int((e.onset - Double(found ?? expected) / 16_000) * 16_000)
            let during = clip[max(0, from)..<min(clip.count, from + Int((end.offset - e.onset) * 16_000))]
            #expect(level(during) > e.trace.floorDbfs + 6, "\(e.soundClass): \(level(during)) dBFS over a floor of \(e.trace.floorDbfs)")
        }
    }

    /// An event this home's memory held back alerted no one, yet it is the one a listener
    /// most needs to hear to say the memory was wrong: it keeps its clip as an alert would.
    @Test func anEventTheHomeMemoryHeldBackKeepsItsClip() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/events.jsonl"
        #expect(try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:10"]).status == 0)
        // The bark marked "not this", remembered at a radius that takes in any bark.
        let dog = "r1795389000-e6"
        #expect(try somniq(["label", dog, "--as", "not", "--log", log]).status == 0)
        let learned = try somniq(["learn", "--home", "--log", log, "--output", dir + "/learned.txt"])
        #expect(learned.status == 0, "\(learned.stderr)")
        var memory = try HomeMemoryFile.read(path: dir + "/learned.txt")
        memory.radius = 100
        try HomeMemoryFile.write(memory, to: dir + "/wide.txt")

        let r = try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--start", "2026-11-22T23:10",
                            "--home-rules", dir + "/wide.txt", "--clips", dir + "/clips"])
        #expect(r.status == 0, "\(r.stderr)")
        let log2 = r.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        let start = try #require(log2.first { $0["kind"] == .string("event_start") && $0["id"] == .string(dog) })
        #expect(start["alert"] == .bool(false) && start["suppressed"] == .string("home"))
        let end = try #require(log2.first { $0["kind"] == .string("event_end") && $0["id"] == .string(dog) })
        let clip = try #require(end["clip"]?.stringValue, "the held-back bark names its clip")
        #expect(FileManager.default.fileExists(atPath: clip))
        #expect(try decode(clip).count > 16_000 * 5, "pre_s, the bark, post_s")
    }

    @Test func theOldestClipsGoFirstPastTheQuotaOrTheirAge() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = ClipStore(directory: dir)
        let now = 1_800_000_000.0
        // Five clips of 100 kB, written a day apart: a is 5 days old, e 1 day.
        for (i, name) in ["a", "b", "c", "d", "e"].enumerated() {
            try store.write([Float](repeating: 0, count: 10), name: "\(name).flac")
            let path = store.path("\(name).flac")
            truncate(path, 100_000)
            let t = now - Double(5 - i) * 86_400
            var times = [timespec(tv_sec: Int(t), tv_nsec: 0), timespec(tv_sec: Int(t), tv_nsec: 0)]
            utimensat(AT_FDCWD, path, &times, 0)
        }
        #expect(store.entries().map(\.name) == ["a.flac", "b.flac", "c.flac", "d.flac", "e.flac"])
        // Older than 3.5 days: a and b.
        #expect(store.enforce(maxBytes: nil, maxAgeDays: 3.5, now: now) == ["a.flac", "b.flac"])
        // 250 kB allowed: the oldest of the three left goes.
        #expect(store.enforce(maxBytes: 250_000, maxAgeDays: 14, now: now) == ["c.flac"])
        #expect(store.entries().map(\.name) == ["d.flac", "e.flac"])
        #expect(store.purge() == 2 && store.entries().isEmpty)
    }

    @Test func aFullDiskSkipsTheClipsAndLosesNoEvent() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plain = try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl"])
        // 64 kB per file: the log fits, no clip does.
        let r = try runProgram("/usr/bin/prlimit", ["--fsize=65536", Paths.somniq, "replay", Paths.demoNight, "--format", "jsonl",
                                                     "--output", dir + "/log.jsonl", "--clips", dir + "/clips"])
        #expect(r.status == 0, "\(r.stderr)")
        let log = records(dir + "/log.jsonl")
        let events = log.filter { $0["kind"] == .string("event_start") || $0["kind"] == .string("event_end") }
            .map { r -> String in
                var r = r
                if case var .object(m) = r { m.removeAll { $0.0 == "clip" }; r = .object(m) }
                return r.compactText
            }
        let expected = plain.stdout.split(separator: "\n").map(String.init).filter { $0.contains("\"kind\":\"event_") }
        #expect(events == expected, "every event is logged, clips or not")
        let skipped = log.filter { $0["status"] == .string("clip_skipped") }
        #expect(skipped.count == 6)
        #expect(skipped.allSatisfy { $0["error"]?.stringValue?.contains("disk may be full") == true })
        #expect(skipped.allSatisfy { $0["reason"] == .string("no_space") }, "what the report says: not kept, no space left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/clips").isEmpty, "no half-written clip is left")
        #expect(log.last?["kind"] == .string("session_end"))
    }

    @Test func theConfigurationsClipsAreOffUnlessEnabledAndNamedWhenWrong() throws {
        #expect(try DaemonConfig.parse("{}", file: "c.json").clips.enabled == false)
        let c = try DaemonConfig.parse(#"{"log": "/srv/s/events.jsonl", "clips": {"enabled": true, "min_tier": "critical", "pre_s": 2, "classes": ["speech", "scream"], "max_mb": 50}}"#, file: "c.json")
        #expect(c.clips.enabled && c.clips.policy.minTier == .critical && c.clips.policy.preSeconds == 2)
        #expect(c.clips.policy.classes == [.speech, .scream] && c.clips.maxMB == 50 && c.clips.maxAgeDays == 14)
        #expect(c.clipsDirectory == "/srv/s/clips")
        for (text, message) in [
            (#"{"clips": {"pre_s": 100}}"#, "c.json: clips.pre_s: 100 must be from 0 to 30 seconds"),
            (#"{"clips": {"classes": ["snore"]}}"#, "c.json: clips.classes: \"snore\" is not a class (see `somniq profiles show balanced`)"),
            (#"{"clips": {"dir": "clips"}}"#, "c.json: clips.dir: \"clips\" must be an absolute path"),
            (#"{"clips": {"keep": true}}"#, "c.json: clips.keep: unknown key (expected one of: enabled, min_tier, pre_s, post_s, max_s, max_mb, max_age_days, classes, dir)"),
            (#"{"clips": true}"#, "c.json: clips: must be an object, not a boolean"),
        ] {
            #expect(throws: ConfigError.self) { try DaemonConfig.parse(text, file: "c.json") }
            do { _ = try DaemonConfig.parse(text, file: "c.json") } catch { #expect(error.description == message) }
        }
    }

    @Test func clipsListAndPurgeFindTheClipsByNight() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl", "--start", "2026-11-22T23:10",
                                      "--clips", dir, "--output", dir + "/log.jsonl"])
        let list = try runProgram(Paths.somniq, ["clips", "list", "--dir", dir, "--night", "2026-11-22"])
        #expect(list.status == 0)
        #expect(list.stdout.hasSuffix("6 clips, 2.3 MB\n"), "\(list.stdout)")
        #expect(list.stdout.contains("2026-11-22  ") && list.stdout.contains(dir + "/2026-11-22_23-11-58_smoke_alarm_r"))
        let other = try runProgram(Paths.somniq, ["clips", "list", "--dir", dir, "--night", "2026-11-23"])
        #expect(other.stdout == "no clips in \(dir) for the night of 2026-11-23\n")
        // The night's report plays each alert's clip where it is listed.
        try runProgram(Paths.somniq, ["report", dir + "/log.jsonl", "--output", dir + "/night.html"])
        let html = try String(contentsOfFile: dir + "/night.html", encoding: .utf8)
        #expect(html.components(separatedBy: "<audio controls preload=\"none\" src=\"file://\(dir)/2026-11-22_").count == 7)
        let purge = try runProgram(Paths.somniq, ["clips", "purge", "--dir", dir])
        #expect(purge.stdout == "deleted 6 clips from \(dir)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["log.jsonl", "night.html"])
        // Once deleted, the report says so instead of offering a player that cannot play.
        try runProgram(Paths.somniq, ["report", dir + "/log.jsonl", "--output", dir + "/night.html"])
        let after = try String(contentsOfFile: dir + "/night.html", encoding: .utf8)
        #expect(!after.contains("<audio") && after.components(separatedBy: "<span class=\"gone\">deleted</span>").count == 7)
    }
}
