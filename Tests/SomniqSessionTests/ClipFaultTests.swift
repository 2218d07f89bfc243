import Foundation
@testable import SomniqConfig
import SomniqTestSupport
import Testing
@testable import SomniqCore

/// Clips where the probe of issue 26 found them wrong: a path that is not a directory, a
/// quota replay ignored, temporaries a killed writer left, a clip named but never kept.
@Suite struct ClipFaultTests {
    /// The clips of a directory and what they take.
    private func kept(_ dir: String) -> (names: [String], bytes: Int64) {
        let entries = ClipStore(directory: dir).entries()
        return (entries.map(\.name), entries.reduce(0) { $0 + $1.bytes })
    }

    @Test func replayWithClipsNamingARegularFileFailsAtTheStartSayingWhatToDo() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/clips"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("not a directory\n".utf8)))
        let r = try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl", "--output", dir + "/log.jsonl",
                                              "--clips", file])
        #expect(r.status != 0, "a replay that can keep no clip must not succeed")
        #expect(r.stderr.contains(file) && r.stderr.contains("is not a directory") && r.stderr.contains("name a directory"),
                "\(r.stderr)")
        #expect(records(dir + "/log.jsonl").isEmpty, "it fails before the first record")
        // A directory under that file could never be made either.
        let under = try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl", "--output", dir + "/log.jsonl",
                                                  "--clips", file + "/night"])
        #expect(under.status != 0 && under.stderr.contains("lies under a file"), "\(under.stderr)")
        #expect(records(dir + "/log.jsonl").isEmpty)
    }

    @Test func aConfigurationWhoseClipsDirectoryIsARegularFileIsRefused() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/clips", contents: Data()))
        let config = dir + "/config.json"
        try #"{"log": "\#(dir)/events.jsonl", "clips": {"enabled": true, "dir": "\#(dir)/clips"}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try DaemonConfig.read(path: config) }
        do { _ = try DaemonConfig.read(path: config) } catch {
            #expect(error.description == "\(config): clips.dir: the clips directory \(dir)/clips is not a directory, so no clip could be kept; name a directory, or move the file away")
        }
        // The default, clips/ beside the log: the same, named by the log it follows.
        try #"{"log": "\#(dir)/events.jsonl", "clips": {"enabled": true}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        do { _ = try DaemonConfig.read(path: config); Issue.record("accepted") } catch {
            #expect(error.keyPath == "log" && error.problem.contains("set clips.dir to a directory"), "\(error)")
        }
        // Clips off: nothing to check.
        try #"{"log": "\#(dir)/events.jsonl", "clips": {"dir": "\#(dir)/clips"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        _ = try DaemonConfig.read(path: config)
        // The command reads it so: it exits saying which key, before listening.
        let r = try runProgram(Paths.somniq, ["run", "--config", config, "--check-config"])
        #expect(r.status != 0)
    }

    @Test func replayKeepsTheConfigurationsQuotaAsTheDaemonDoes() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Without a quota in the way the demo night's six clips take over 2 MB.
        let all = try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl", "--output", dir + "/all.jsonl",
                                                "--clips", dir + "/all"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(kept(dir + "/all").names.count == 6 && kept(dir + "/all").bytes > 2_000_000, "\(kept(dir + "/all"))")
        let config = dir + "/config.json"
        try #"{"log": "\#(dir)/events.jsonl", "clips": {"enabled": true, "max_mb": 1}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let r = try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl", "--output", dir + "/log.jsonl",
                                              "--config", config, "--clips", dir + "/quota"])
        #expect(r.status == 0, "\(r.stderr)")
        let quota = kept(dir + "/quota")
        #expect(quota.bytes <= 1_000_000, "1 MB allowed, \(quota.bytes) bytes kept")
        #expect(!quota.names.isEmpty && quota.names.count < 6, "the newest clips stay: \(quota.names)")
        // The newest are the ones kept: the last clips the full replay wrote.
        #expect(Array(kept(dir + "/all").names.suffix(quota.names.count)) == quota.names)
    }

    @Test func temporariesNoProcessIsWritingGoAtTheNextStartAndWithTheQuotaNeverListed() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clips = dir + "/clips"
        try FileManager.default.createDirectory(atPath: clips, withIntermediateDirectories: true)
        // What a writer killed mid-clip leaves (SIGKILL drops its lock), and one a live
        // writer holds: this process's lock stands for another process writing.
        let stale = clips + "/.2026-11-22_23-40-02_smoke_alarm_r1-e7.flac.part"
        let live = clips + "/.2026-11-22_23-41-00_dog_bark_r1-e9.flac.part"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data(count: 660_000)))
        #expect(FileManager.default.createFile(atPath: live, contents: Data(count: 1000)))
        let fd = open(live, O_RDONLY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)

        let list = try runProgram(Paths.somniq, ["clips", "list", "--dir", clips])
        #expect(list.status == 0 && !list.stdout.contains(".part"), "\(list.stdout)")

        let r = try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl", "--output", dir + "/log.jsonl",
                                              "--clips", clips])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale), "the stale temporary is gone at the start")
        #expect(FileManager.default.fileExists(atPath: live), "one being written is left to its writer")
        #expect(kept(clips).names.count == 6)

        // The quota removes them too, in a directory no start has prepared.
        #expect(FileManager.default.createFile(atPath: stale, contents: Data(count: 660_000)))
        let store = ClipStore(directory: clips)
        #expect(store.enforce(maxBytes: nil, maxAgeDays: nil, now: Date().timeIntervalSince1970).isEmpty, "no clip is deleted")
        #expect(!FileManager.default.fileExists(atPath: stale) && FileManager.default.fileExists(atPath: live))
    }

    @Test func aReplayKilledWhileWritingAClipLeavesATemporaryTheNextReplayRemoves() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let clips = dir + "/clips"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.somniq)
        p.arguments = ["replay", Paths.demoNight, "--format", "jsonl", "--output", dir + "/killed.jsonl", "--clips", clips]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        // SIGKILL as soon as a clip is being written: as the kernel says its temporary was
        // created (it lives milliseconds).
        try FileManager.default.createDirectory(atPath: clips, withIntermediateDirectories: true)
        let watch = try DirectoryWatch(clips)
        try p.run()
        var caught: String?
        // Only against a replay that ends without writing a clip (nothing is said of its
        // end): the demo night's first is written within seconds, minutes on a loaded machine.
        let end = Date(timeIntervalSinceNow: 600)
        while p.isRunning, caught == nil, Date() < end {
            // Half a second at most at a time: a replay that exits is seen within it.
            caught = watch.next(until: min(end, Date(timeIntervalSinceNow: 0.5))).first { $0.hasSuffix(".flac.part") }
        }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        let part = try #require(caught, "the replay ended before a clip was seen being written")
        #expect(FileManager.default.fileExists(atPath: clips + "/" + part), "the kill left \(part)")

        let list = try runProgram(Paths.somniq, ["clips", "list", "--dir", clips])
        #expect(!list.stdout.contains(".part"), "\(list.stdout)")
        // Another recording's clips (named by their night): none of them is the one killed.
        let r = try runProgram(Paths.somniq, ["replay", Paths.demoNight, "--format", "jsonl", "--output", dir + "/log.jsonl",
                                              "--start", "2026-11-22T23:10", "--clips", clips])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: clips)
        #expect(!names.contains { $0.hasSuffix(".part") }, "\(names)")
        #expect(kept(clips).names.count == 6)
    }

    @Test func aSkippedClipIsWithdrawnByAClipSkippedOfItsEventNamingItsPath() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 200 kB per file: the log and the short clips fit, the long ones do not.
        let r = try runProgram("/usr/bin/prlimit", ["--fsize=200000", Paths.somniq, "replay", Paths.demoNight, "--format", "jsonl",
                                                     "--output", dir + "/log.jsonl", "--clips", dir + "/clips"])
        #expect(r.status == 0, "\(r.stderr)")
        let log = records(dir + "/log.jsonl")
        let skipped = log.enumerated().filter { $0.element["status"] == .string("clip_skipped") }
        #expect(!skipped.isEmpty)
        for (at, end) in log.enumerated() where end["kind"] == .string("event_end") {
            guard let path = end["clip"]?.stringValue else { continue }
            let withdrawn = skipped.first { $0.element["id"] == end["id"] }
            if let withdrawn {
                #expect(withdrawn.offset > at, "the clip_skipped follows its event_end")
                #expect(withdrawn.element["path"]?.stringValue == path, "it names the clip event_end named")
                #expect(!FileManager.default.fileExists(atPath: path))
            } else {
                #expect(FileManager.default.fileExists(atPath: path), "\(path): named, not withdrawn, so kept")
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/clips")
        #expect(!names.contains { $0.hasSuffix(".part") }, "no temporary is left: \(names)")
    }
}
