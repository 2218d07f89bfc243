import Foundation
@testable import SomniqSinks
import SomniqTestSupport
import Testing
import SomniqCore
import SomniqSupport

/// Several writers append to one event log — the daemon, `somniq episode add`, the web
/// page's form — and one writer's failure must never cost another's record: each record
/// starts on a line of its own, whoever tore the line before it, and a failed append takes
/// its own torn bytes back.
@Suite(.serialized) struct LogWritersTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    /// Every line of the log, and whether it parses.
    func lines(_ log: String) throws -> [(text: String, parses: Bool)] {
        try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map {
            (String($0), (try? JSONValue(parsing: String($0))) != nil)
        }
    }

    func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1 }

    let episode = ["episode", "add", "--night", "2026-11-20", "--severity", "mild", "--note", "woke at three"]

    @Test func anEpisodeCutShortByAFileSizeLimitCostsTheDaemonNothing() throws {
        // 1 s of audio, 4 s of nothing (the episode is added then), then 40 s with a door, speech
        // and a cough, whose records follow the failed append.
        let (fifo, writer) = try rig.pausingFIFO(try rig.raw(from: 0, seconds: 1), pause: 4, try rig.raw(from: 40, seconds: 40))
        defer { writer.terminate() }
        let log = rig.home + "/fsize.jsonl"
        let p = try rig.start(["--device", "fixture:FILE=\(fifo)", "--log", log])
        try waitUntil(timeout: 10) { kinds(records(log)).contains("status:listening") }
        let before = size(log)
        // The limit lets 20 bytes of the episode's line through, then EFBIG (exit 74).
        let cut = try runProgram("/usr/bin/prlimit", ["--fsize=\(before + 20)", Paths.somniq] + episode + ["--log", log])
        #expect(cut.status == 74, "\(cut.stderr)")
        #expect(cut.stderr.contains("File too large"))
        #expect(size(log) == before, "the failed append took its bytes back")

        try waitUntil(timeout: 30) { kinds(records(log)).contains("event_start:cough") }
        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
        let all = try lines(log)
        #expect(all.allSatisfy { $0.parses }, "\(all.filter { !$0.parses })")
        let k = kinds(records(log))
        #expect(k.first == "session_start" && k.last == "session_end")
        #expect(k.filter { $0.hasPrefix("event_start:") }.count == k.filter { $0.hasPrefix("event_end:") }.count)
        #expect(!k.contains("episode"))
    }

    @Test func anEpisodeCutShortByAFullDiskCostsTheDaemonNothingOnceSpaceReturns() throws {
        let disk = rig.home + "/small-disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try runChecked("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk])
        defer { _ = try? runProgram("/usr/bin/umount", ["-l", disk]) }
        let (fifo, writer) = try rig.stallingFIFO(feeding: try rig.raw(from: 0, seconds: 2))
        defer { writer.terminate() }
        let log = disk + "/events.jsonl"
        let p = try rig.start(["--device", "fixture:FILE=\(fifo)", "--log", log])
        try rig.waitUntilJudged(log, seconds: 2)

        // The episode's line, measured on a log elsewhere.
        let scratch = rig.home + "/scratch.jsonl"
        #expect(try somniq(episode + ["--log", scratch]).status == 0)
        let length = size(scratch)
        // A record of another writer puts the log's end where the page it ends in has room
        // for half of the episode's line: the disk, filled, then takes half of it.
        let page = 4096, now = size(log)
        var pad = ((page - length / 2) - now % page + 2 * page) % page
        if pad < 64 { pad += page }
        let padding = JSONValue.object([("v", .number(1)), ("kind", .string("padding")), ("text", .string(""))])
        let text = String(repeating: "x", count: pad - padding.compactText.count - 1)
        try EventLogWriter(path: log).append(.object([("v", .number(1)), ("kind", .string("padding")), ("text", .string(text))]))
        #expect(size(log) % page == page - length / 2)
        // Fill the disk, add the episode (it fails part-way), free the disk.
        _ = try runProgram("/bin/dd", ["if=/dev/zero", "of=\(disk)/filler", "bs=4096"])
        let full = try somniq(episode + ["--log", log])
        #expect(full.status == 74 && full.stderr.contains("No space left on device"), "\(full.stderr)")
        #expect(size(log) % page == page - length / 2, "the failed append took its bytes back")
        try FileManager.default.removeItem(atPath: disk + "/filler")

        p.terminate()
        #expect(try waitForExit(p, timeout: 5) == 0)
        let all = try lines(log)
        #expect(all.allSatisfy { $0.parses }, "\(all.filter { !$0.parses }.map { String($0.text.prefix(80)) })")
        let k = kinds(records(log))
        #expect(k.first == "session_start" && k.last == "session_end")
        #expect(k.contains("padding") && !k.contains("episode"))
    }

    @Test func aRecordAfterALineTornByAnotherWriterStartsOnALineOfItsOwn() throws {
        let log = rig.home + "/torn-by-other.jsonl"
        let daemon = try EventLogWriter(path: log)
        try daemon.append(.object([("v", .number(1)), ("kind", .string("first"))]))
        // Another writer, killed mid-line, left a torn line behind.
        let other = try #require(FileHandle(forWritingAtPath: log))
        other.seekToEndOfFile()
        other.write(Data(#"{"v":1,"kind":"epis"#.utf8))
        try other.close()
        try daemon.append(.object([("v", .number(1)), ("kind", .string("second"))]))
        #expect(try String(contentsOfFile: log, encoding: .utf8)
                == "{\"v\":1,\"kind\":\"first\"}\n{\"v\":1,\"kind\":\"epis\n{\"v\":1,\"kind\":\"second\"}\n")
    }

    /// Another writer's lock is waited for `lockWait` of real time (the lock is another
    /// process's, let go in real time), then given up with a named error; the line is not
    /// written, and the next append, the lock let go, is.
    @Test func aWriterWaitsForAnothersLockAndSaysWhenItIsHeldTooLong() throws {
        let log = rig.home + "/locked.jsonl"
        let writer = try EventLogWriter(path: log)
        writer.lockWait = .milliseconds(200)
        let holder = open(log, O_RDONLY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        let start = ContinuousClock.now
        do throws(LogWriteError) {
            try writer.append(.object([("kind", .string("held"))]))
            Issue.record("written under another writer's lock")
        } catch {
            #expect(ContinuousClock.now - start >= .milliseconds(200), "gave up before lockWait")
            #expect(error.description == "\(log): cannot write the event log: another writer has held its lock for over 0.2 s (a `somniq episode` command stopped mid-write?)")
        }
        #expect(size(log) == 0)
        flock(holder, LOCK_UN)
        try writer.append(.object([("kind", .string("free"))]))
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "{\"kind\":\"free\"}\n")
    }

    /// The daemon's log holds what the disk refuses and tries again once a second of its
    /// clock (a test's here, stepped by hand): not sooner, whatever is appended meanwhile;
    /// then it says first how long the log could not be written, at its clock's wall time.
    /// Its wait for another writer's lock (50 ms) is real time, as a real lock's must be:
    /// on this clock, which stands still until the test moves it, the append still returns,
    /// holding the record in memory.
    @Test func theDaemonsLogTriesAgainOnceASecondOfItsClock() throws {
        let path = rig.home + "/held.jsonl"
        let clock = TestClock(unix: 1_750_000_000)
        let log = try DurableLog(path: path, logger: JournalLines().logger, clock: clock)
        let holder = open(path, O_RDONLY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX) == 0)
        log.append(.object([("kind", .string("first"))]))    // the lock waited for: held in memory
        #expect(size(path) == 0)
        flock(holder, LOCK_UN)
        clock.advance(.milliseconds(600))
        log.append(.object([("kind", .string("second"))]))
        clock.advance(.milliseconds(399))
        log.flush()
        #expect(size(path) == 0, "tried again within a second of the failure")
        clock.advance(.milliseconds(1))
        log.flush()
        let written = records(path)
        #expect(written.map { $0["kind"]?.stringValue ?? "" } == ["status", "first", "second"])
        #expect(written.first?["status"] == .string("log_write_failed"))
        #expect(written.first?["seconds"] == .number(1))
        #expect(written.first?["records_held"] == .number(2))
        #expect(written.first?["time"] == .string(WallClock.iso8601(Date(timeIntervalSince1970: 1_750_000_001))))
    }
}
