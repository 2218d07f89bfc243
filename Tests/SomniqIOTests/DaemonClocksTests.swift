import Foundation
@testable import SomniqIO
import SomniqLog
import Testing

/// The daemon measures intervals on a monotonic clock: a wall clock stepped back (a board
/// without an RTC when NTP first answers) must not stop the watchdog's pings, which would
/// have systemd kill a daemon that hears the room.
struct DaemonClocksTests {
    @Test func theWatchdogIsPingedThroughAWallClockStepBack() {
        let clock = TestClock()
        let interval = try! #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "2000000"]).watchdogInterval)
        #expect(interval == .seconds(1))
        var pacer = WatchdogPacer(interval: interval, clocks: DaemonClocks(clock))
        var pings: [Int] = []
        // A block of audio every 0.5 s for 20 s; 10 s in, the wall clock steps an hour back.
        for block in 0..<40 {
            if block == 20 { clock.stepWall(-3600) }
            if pacer.due() { pings.append(block) }
            clock.advance(.milliseconds(500))
        }
        #expect(pings == Array(stride(from: 0, to: 40, by: 2)))
    }

    @Test func aWatchdogIntervalIsHalfWhatSystemdAsks() {
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "100000"]).watchdogInterval == .milliseconds(50))
        #expect(SystemdNotifier(environment: [:]).watchdogInterval == nil)
    }
}

/// A stall is measured on the daemon's monotonic clock: a test clock stands still until the
/// test moves it, so the stall is said at `stallSeconds` exactly, and a wall clock stepped
/// back meanwhile changes nothing.
@Suite(.serialized) final class DaemonStallClockTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// A device that is heard once (a block of silence), then sends nothing until the task ends.
    struct StallingDevice: DeviceSource {
        var source: LogRecord.SessionStart.Source { .device(name: "stalling") }
        func close() {}
        func makeAsyncIterator() -> AsyncThrowingStream<AudioEvent, any Error>.Iterator {
            AsyncThrowingStream { c in
                let zeros = [Float](repeating: 0, count: 1600)
                c.yield(.listening)
                zeros.withUnsafeBufferPointer { c.yield(.samples(AudioBlock($0))) }
            }.makeAsyncIterator()
        }
    }

    @Test func aStallIsSaidAtStallSecondsOfTheMonotonicClockThroughAWallStepBack() async throws {
        let clock = TestClock()
        let config = try DaemonConfig.parse(#"{"room": "nursery", "log": "\#(dir)/events.jsonl", "silence_s": 3}"#, file: "config.json")
        var options = SessionService.Options(config: config, configPath: nil)
        options.clocks = DaemonClocks(clock)
        options.profileDirectory = dir
        let live = LiveState(device: "stalling")
        options.live = live
        let service = try SessionService(options: options, source: StallingDevice(), controls: AsyncStream { $0.finish() },
                                         logger: JournalLines().logger)
        let running = Task { try await service.run() }
        try waitUntil(timeout: 30) { live.snapshot.listening }
        clock.advance(.milliseconds(2900))
        clock.stepWall(-3600)
        await service.checkStall()
        #expect(!live.snapshot.stalled)
        clock.advance(.milliseconds(100))
        await service.checkStall()
        #expect(live.snapshot.stalled)
        running.cancel()
        _ = try? await running.value
        let stalls = records(dir + "/events.jsonl").filter { $0["status"]?.stringValue == "capture_stalled" }
        #expect(stalls.count == 1)
        #expect(stalls.first?["seconds"]?.numberValue == 3)
    }
}
