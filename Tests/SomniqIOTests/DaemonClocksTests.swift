import Foundation
@testable import SomniqIO
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
