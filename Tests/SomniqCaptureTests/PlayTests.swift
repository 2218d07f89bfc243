import Foundation
@testable import SomniqAudio
@testable import SomniqSupport
import SomniqTestSupport
import Synchronization
import Testing
import SomniqCapture
import SomniqCore
import SomniqLog

/// A source whose reads come short, of sizes that never fill a period: a counter 1, 2, 3 …
/// in reads of 700, 1, 1600, 333 … samples, then the end.
private final class ShortReads: PeriodReader {
    let periodFrames = 1600
    let total: Int
    private var given = 0
    private let sizes = [700, 1, 1600, 333, 1599, 2]
    private var k = 0
    init(total: Int) { self.total = total }

    func readPeriod(into out: UnsafeMutableBufferPointer<Float>) throws(CaptureError) -> AlsaCapture.Read? {
        guard given < total else { return nil }
        let n = min(sizes[k % sizes.count], total - given, out.count)
        k += 1
        for i in 0..<n { out[i] = Float(given + i + 1) }
        given += n
        return AlsaCapture.Read(frames: n, overrunFrames: 0)
    }

    func close() {}
}

/// A device that sends a period and then goes away (a USB microphone pulled out).
private final class VanishingReads: PeriodReader {
    let periodFrames = 1600
    private var given = false

    func readPeriod(into out: UnsafeMutableBufferPointer<Float>) throws(CaptureError) -> AlsaCapture.Read? {
        guard !given else { throw CaptureError(kind: .failed, device: "flaky", message: "went away") }
        given = true
        for i in 0..<periodFrames { out[i] = 0.5 }
        return AlsaCapture.Read(frames: periodFrames, overrunFrames: 0)
    }

    func close() {}
}

/// `somniq run --play FILE`: a recording heard through the live path at real time, and a
/// capture source whose reads come short never hands on audio twice.
@Suite(.serialized) struct PlayTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    /// Through the capture thread and `CaptureSource`, as the daemon reads: every sample
    /// once, in order, however short the reads, and the stream ends with the source.
    @Test func shortReadsReachTheSessionOnceEachAndInOrder() async throws {
        let total = 20_000
        let source = CaptureSource(device: "short") { () throws(CaptureError) in ShortReads(total: total) }
        var heard: [Float] = []
        var events: [String] = []
        for try await event in source {
            switch event {
            case let .samples(block): heard += block.samples
            case .listening: events.append("listening")
            case .overrun: events.append("overrun")
            case .lost: events.append("lost")
            }
        }
        source.close()
        #expect(events == ["listening"])
        #expect(heard == (1...total).map(Float.init), "\(heard.count) samples heard of \(total)")
    }

    /// `run --play`'s pace is its clock's (a test's here, stepped by hand): the read that
    /// ends at sample n returns once n / 16000 s of it have passed since the first read
    /// began, not before; a read already late returns at once, and the lateness is not
    /// carried on.
    @Test func aRecordingIsPlayedAtThePaceOfItsClock() throws {
        let clock = TestClock()
        let reader = try PlayReader(path: Paths.demoNight, clock: clock)
        let out = UnsafeMutableBufferPointer<Float>.allocate(capacity: 1600)
        defer { out.deallocate() }
        /// A read on a thread of its own that returns a period once `wait` of the clock has
        /// passed, and not 1 µs before (`due` names the time it ends at).
        func readReturns(after wait: Duration, _ due: String) throws {
            let read = OnItsOwnThread { try? reader.readPeriod(into: out) }
            try #require(clock.waitForWaiters(1))
            clock.advance(wait - .microseconds(1))
            try #require(clock.waitForWaiters(1))
            #expect(!read.finished, "returned before its \(due)")
            clock.advance(.microseconds(1))
            #expect(read.value?.frames == 1600)
        }
        try readReturns(after: .milliseconds(100), "0.1 s")
        clock.advance(.milliseconds(150))     // 0.25 s: the second read (to 0.2 s) is late
        #expect(try reader.readPeriod(into: out)?.frames == 1600)
        try readReturns(after: .milliseconds(50), "0.3 s")
    }

    /// A device that cannot be opened, or that goes away while it is listened to, is tried
    /// again after 1 s, then 2 s, of the source's clock (a test's here, stepped by hand on a
    /// thread of its own), not sooner; it is said lost once.
    @Test(arguments: [false, true]) func aDeviceIsTriedAgainAfterOneThenTwoSecondsOfItsClock(vanishing: Bool) async throws {
        let clock = TestClock()
        let opens = Mutex(0)
        let source = CaptureSource(device: "flaky", clock: clock) { () throws(CaptureError) in
            let n = opens.withLock { n in
                n += 1
                return n
            }
            if n == 1 && vanishing { return VanishingReads() }
            if n < 3 { throw CaptureError(kind: .failed, device: "flaky", message: "not there") }
            return ShortReads(total: 100)
        }
        let steps = OnItsOwnThread { () -> [Int] in
            var seen: [Int] = []
            for wait in [1, 2] {
                guard clock.waitForSleepers(1) else { return seen }
                clock.advance(.seconds(wait) - .milliseconds(1))
                guard clock.waitForSleepers(1) else { return seen }
                seen.append(opens.withLock { $0 })
                clock.advance(.milliseconds(1))
            }
            return seen
        }
        var events: [String] = []
        for try await event in source {
            switch event {
            case .lost: events.append("lost")
            case .listening: events.append("listening")
            case .samples, .overrun: break
            }
            if events.last == "listening" && events.contains("lost") { break }
        }
        source.close()
        #expect(events == (vanishing ? ["listening", "lost", "listening"] : ["lost", "listening"]))
        #expect(steps.value == [1, 2], "opened before its wait was over")
        #expect(opens.withLock { $0 } == 3)
    }

    /// Through real ALSA: the `file` plugin reading a FIFO that holds less than a period
    /// counts the short read as a whole period, its tail the buffer's old contents. The
    /// daemon must hear each sample once (a short read's tail is silence, never the period
    /// before it): what its night audio kept, silence aside, is what was written.
    @Test func aShortReadThroughALSAIsNeverFilledWithThePeriodBefore() throws {
        // 3 s of a ramp that is never 0, written 1000 bytes (500 samples) at a time, each
        // once the daemon has taken the one before: every read comes short.
        let samples = (0..<48_000).map { Int16(($0 % 30_000) + 1) }
        let raw = rig.home + "/ramp.raw"
        try samples.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
        let fifo = rig.home + "/short.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        writer.arguments = ["-c", """
        import fcntl, os, struct, sys, termios, time
        data = open(sys.argv[1], 'rb').read()
        out = os.open(sys.argv[2], os.O_WRONLY)
        def unread():
            return struct.unpack('i', fcntl.ioctl(out, termios.FIONREAD, b'\\0' * 4))[0]
        for k in range(0, len(data), 1000):
            while unread() > 0:
                time.sleep(0.001)   # a poll for the daemon's read (an event)
            os.write(out, data[k:k + 1000])
        """, raw, fifo]
        try writer.run()
        defer { writer.terminate() }
        let nights = rig.home + "/nights"
        let config = rig.home + "/short.json"
        try """
        {"log": "\(rig.home)/short.jsonl", "night_audio": {"enabled": true, "dir": "\(nights)"}}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        // The writer's end closed, the file plugin's input ends: from then on every read is
        // a period of silence, at once. Each read before takes one write of 500 samples, so
        // the ramp lies in the first 96 periods (9.6 s); the daemon stops by itself after
        // 30 s of stream, every sample of the ramp heard, with no judge of time or CPU.
        let p = try rig.start(["--config", config, "--device", "fixture:FILE=\(fifo)", "--max-seconds", "30"])
        #expect(try waitForExit(p, timeout: 120) == 0)
        // Its parts in the order the log names them (a machine that holds the daemon up
        // for over a second has it begin a part anew).
        let parts = nightParts(records(rig.home + "/short.jsonl"))
        #expect(!parts.isEmpty)
        let kept = try parts.flatMap { try samples16($0.path) }
        #expect(kept.count >= samples.count)
        let heard = kept.filter { $0 != 0 }
        #expect(heard.count == samples.count, "\(heard.count) samples heard of \(samples.count) written")
        let first = zip(heard, samples).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(first == nil, "sample \(first ?? 0) heard is not the one written: a period heard twice, or out of order")
    }

    /// A recording with a smoke alarm played through the live path gives the events its
    /// replay gives, onsets equal, at real time, and reaches the sinks as a microphone's
    /// alarm does; the session ends with the recording (`end_of_input`).
    @Test func aPlayedRecordingGivesTheEventsOfItsReplayAtRealTime() throws {
        let endpoints = try Endpoints(in: rig.home, name: "play")
        defer { endpoints.stop() }
        // 1:50-2:15 of the demo night (its smoke alarm sounds from 7.5 s to 19 s), as a
        // 44.1 kHz stereo WAV: both resample it alike.
        let file = rig.home + "/alarm.wav"
        try sox(Paths.demoNight, "-r", "44100", "-c", "2", file, "trim", "110", "25")
        let replay = try somniq(["replay", file, "--format", "tsv"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let expected = replay.stdout.split(separator: "\n").map { $0.split(separator: "\t") }.map { "\($0[2]) \($0[0])" }
        #expect(expected.contains { $0.hasPrefix("smoke_alarm ") }, "\(expected)")

        let log = rig.home + "/play.jsonl"
        let config = rig.home + "/play.json"
        try """
        {"room": "playroom", "log": "\(log)", "sinks": [
          {"type": "mqtt", "host": "127.0.0.1", "port": \(endpoints.broker.port), "min_tier": "critical"},
          {"type": "webhook", "url": "http://127.0.0.1:\(endpoints.httpPort)/", "format": "ntfy", "min_tier": "critical"}]}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let started = Date()
        let p = try rig.start(["--config", config, "--play", file])
        #expect(try waitForExit(p, timeout: 60) == 0)
        let took = Date().timeIntervalSince(started)
        #expect(took >= 25, "25 s of audio played in \(took) s: not at real time")

        let records = records(log)
        let played = records.filter { $0["kind"] == .string("event_start") }.map {
            "\($0["class"]?.stringValue ?? "?") \(String(format: "%.3f", $0["onset_s"]?.numberValue ?? -1))"
        }
        #expect(played == expected)
        let start = try #require(records.first { $0["kind"] == .string("session_start") })
        #expect(start["source"]?["device"] == .string("play:\(file)"), "\(start.compactText)")
        let end = try #require(records.last)
        #expect(end["kind"] == .string("session_end") && end["reason"] == .string("end_of_input"), "\(end.compactText)")
        // A live session's wall times: the alarm's onset time is its stream time after the start.
        let alarm = try #require(records.first { $0["class"] == .string("smoke_alarm") && $0["kind"] == .string("event_start") })
        let listening = try #require(records.first { $0["status"] == .string("listening") }?["time"]?.stringValue.flatMap(WallClock.parse))
        let onsetTime = try #require(alarm["onset_time"]?.stringValue.flatMap(WallClock.parse))
        let onset = try #require(alarm["onset_s"]?.numberValue)
        #expect(abs(onsetTime - listening - onset) < 1, "onset_time \(onsetTime - listening) s after listening, onset_s \(onset)")
        // The sinks heard it as they hear a microphone's.
        try endpoints.subscriber.first { $0 == "somniq/playroom/smoke_alarm ON" }
        try endpoints.web.first { $0.contains("Smoke alarm in playroom") }
    }

    @Test func playRefusesWhatItCannotPlay() throws {
        let missing = rig.home + "/nothing.flac"
        let r = try runProgram(Paths.somniq, ["run", "--play", missing, "--log", rig.home + "/x.jsonl"], environment: rig.environment)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("somniq: \(missing): "), "\(r.stderr)")
        let both = try runProgram(Paths.somniq, ["run", "--play", missing, "--device", "default"], environment: rig.environment)
        #expect(both.status == 64 && both.stderr.contains("give --device or --play, not both"), "\(both.stderr)")
    }
}
