import Foundation
@testable import SomniqIO
import Testing

/// The daemon measures intervals on a monotonic clock: a wall clock stepped back (a board
/// without an RTC when NTP first answers) must not stop the watchdog's pings, which would
/// have systemd kill a daemon that hears the room.
struct DaemonClocksTests {
    /// A clock the test moves: the monotonic time and the wall clock, stepped apart.
    final class Hands: @unchecked Sendable {   // read and moved on the test's thread only
        var monotonic: Duration = .zero
        var wall = Date(timeIntervalSince1970: 1_750_000_000)
        var clocks: DaemonClocks { DaemonClocks(monotonic: { self.monotonic }, wall: { self.wall }) }
    }

    @Test func theWatchdogIsPingedThroughAWallClockStepBack() {
        let hands = Hands(), clocks = hands.clocks
        let interval = try! #require(SystemdNotifier(environment: ["NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "2000000"]).watchdogInterval)
        #expect(interval == .seconds(1))
        var pacer = WatchdogPacer(interval: interval)
        var pings: [Int] = []
        // A block of audio every 0.5 s for 20 s; 10 s in, the wall clock steps an hour back.
        for block in 0..<40 {
            if block == 20 { hands.wall -= 3600 }
            if pacer.due(at: clocks.monotonic()) { pings.append(block) }
            hands.monotonic += .milliseconds(500)
            hands.wall += 0.5
        }
        #expect(pings == Array(stride(from: 0, to: 40, by: 2)))
    }

    @Test func aWatchdogIntervalIsHalfWhatSystemdAsks() {
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "100000"]).watchdogInterval == .milliseconds(50))
        #expect(SystemdNotifier(environment: [:]).watchdogInterval == nil)
    }
}
