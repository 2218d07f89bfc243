import Foundation
@testable import SomniqDaemon
@testable import SomniqSupport
import Synchronization
import Testing

/// One rule turns a live stream's time into wall time, through stalls, bursts and a wall
/// clock stepped: a sample is never timed after the block that held it arrived, a stream
/// that stood still is timed from when it moves again, its earlier audio keeping its own
/// times, and no time goes back.
struct LiveClockTests {
    let t0 = 1_750_000_000.0
    /// Blocks of 0.1 s (1600 frames), the first arriving at `t0`.
    func clock() -> LiveClock { LiveClock(clocks: Clocks(wall: t0).clocks) }

    /// A monotonic and a wall clock the test moves, in seconds.
    final class Clocks: Sendable {
        let now: Mutex<(monotonic: Double, wall: Double)>
        init(wall: Double) { now = Mutex((100, wall)) }
        /// Both clocks run on `seconds`.
        func run(_ seconds: Double) { now.withLock { $0.monotonic += seconds; $0.wall += seconds } }
        /// The wall clock alone is stepped (NTP).
        func step(_ seconds: Double) { now.withLock { $0.wall += seconds } }
        var clocks: DaemonClocks {
            DaemonClocks(monotonic: { .milliseconds(Int64((self.now.withLock { $0.monotonic } * 1000).rounded())) },
                         wall: { Date(timeIntervalSince1970: self.now.withLock { $0.wall }) })
        }
    }

    @Test func beforeTheFirstBlockAStreamTimeIsNow() {
        #expect(clock().unix(5) == t0)
    }

    @Test func blocksOnTimeKeepTheFirstAnchorThroughJitter() {
        let c = clock()
        c.heard(from: 0, to: 0.1, arrival: t0)
        // Each arrives 0 to 0.3 s late (a busy machine): the anchor stays.
        for (k, late) in [0.0, 0.3, 0.05, 0.2, 0.0, 0.1].enumerated() {
            let end = 0.1 * Double(k + 2)
            c.heard(from: end - 0.1, to: end, arrival: t0 + end - 0.1 + late)
        }
        #expect(abs(c.unix(0.45) - (t0 + 0.35)) < 1e-6)
    }

    @Test func aBurstIsNeverTimedInTheFuture() {
        let c = clock()
        // 4 s of audio arrive within 40 ms, a block each millisecond (an unpaced source).
        for k in 0..<40 {
            let end = 0.1 * Double(k + 1)
            c.heard(from: end - 0.1, to: end, arrival: t0 + 0.001 * Double(k))
            #expect(c.unix(end) <= t0 + 0.001 * Double(k) + 1e-9)
        }
        // Then paced at real time from there on: the last block's anchor holds.
        for k in 40..<60 {
            let end = 0.1 * Double(k + 1)
            c.heard(from: end - 0.1, to: end, arrival: t0 + 0.039 + 0.1 * Double(k - 39))
        }
        #expect(abs(c.unix(6.0) - (t0 + 0.039 + 2.0)) < 1e-6)
    }

    @Test func afterAStallAudioIsTimedFromItsArrivalAndEarlierAudioKeepsItsTimes() {
        let c = clock()
        for k in 0..<30 {
            let end = 0.1 * Double(k + 1)
            c.heard(from: end - 0.1, to: end, arrival: t0 + end)
        }
        // The stream stands still at 3.0 s for 18 s of wall clock.
        c.heard(from: 3.0, to: 3.1, arrival: t0 + 21.1)
        #expect(abs(c.unix(3.05) - (t0 + 21.05)) < 1e-6)
        // An event heard from 2.5 s, confirmed after the stall, starts before it.
        #expect(abs(c.unix(2.5) - (t0 + 2.5)) < 1e-6)
        #expect(c.time(3.1) == WallClock.iso8601(Date(timeIntervalSince1970: t0 + 21.1)))
    }

    @Test func aBurstAfterAStallIsTimedFromWhenTheRoomWasHeardAgainNeverInsideTheStall() {
        let c = clock()
        for k in 0..<30 {
            let end = 0.1 * Double(k + 1)
            c.heard(from: end - 0.1, to: end, arrival: t0 + end)
        }
        // 18 s without audio (the log says the room went unheard from t0 + 3 to t0 + 21),
        // then 6 s of it within 60 ms (held back in a buffer).
        for k in 0..<60 {
            let end = 3.1 + 0.1 * Double(k)
            c.heard(from: end - 0.1, to: end, arrival: t0 + 21.1 + 0.001 * Double(k))
        }
        // Its last sample at its arrival; none of it before the first block could be heard.
        #expect(abs(c.unix(9.0) - (t0 + 21.159)) < 1e-6)
        #expect(stride(from: 3.0, through: 9.0, by: 0.05).allSatisfy { c.unix($0) >= t0 + 21.0 - 1e-9 && c.unix($0) <= t0 + 21.159 + 1e-9 })
        #expect(abs(c.unix(3.0) - (t0 + 21.0)) < 1e-6 && abs(c.unix(8.5) - (t0 + 21.0)) < 1e-6)
        #expect(abs(c.unix(8.95) - (t0 + 21.109)) < 1e-6)
        // The audio before the stall keeps its times.
        #expect(abs(c.unix(2.999) - (t0 + 2.999)) < 1e-6)
        // A burst longer than the stall before it: still never inside the stall, and times
        // never go back.
        for k in 0..<160 {
            let end = 9.1 + 0.1 * Double(k)
            c.heard(from: end - 0.1, to: end, arrival: t0 + 21.2 + 0.001 * Double(k))
        }
        let times = stride(from: 0.0, through: 25.0, by: 0.05).map { c.unix($0) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(!times.contains { $0 > t0 + 3.0 && $0 < t0 + 21.0 })
        #expect(abs(c.unix(25.0) - (t0 + 21.2 + 0.159)) < 1e-6)
    }

    @Test func aBurstAtTheStartIsNeverTimedBeforeTheFirstBlockCouldBeHeard() {
        let c = clock()
        // 4 s of an unpaced file in 40 ms: its first block arrived at t0, 0.1 s long.
        for k in 0..<40 {
            let end = 0.1 * Double(k + 1)
            c.heard(from: end - 0.1, to: end, arrival: t0 + 0.001 * Double(k))
        }
        #expect(abs(c.unix(0) - (t0 - 0.1)) < 1e-6 && abs(c.unix(3.0) - (t0 - 0.1)) < 1e-6)
        #expect(abs(c.unix(4.0) - (t0 + 0.039)) < 1e-6)
    }

    @Test func aWallClockSteppedBackMovesNoTimeBack() {
        let clocks = Clocks(wall: t0)
        let c = LiveClock(clocks: clocks.clocks)
        var logged: [Double] = []
        for k in 0..<100 {
            clocks.run(0.1)
            // NTP steps the wall clock back by an hour 5 s in.
            if k == 50 { clocks.step(-3600) }
            c.heard(from: 0.1 * Double(k), to: 0.1 * Double(k + 1))
            logged.append(c.unix(0.1 * Double(k) + 0.05))
        }
        // The session's times run on by the monotonic clock, as if nothing had stepped.
        #expect(zip(logged, logged.dropFirst()).allSatisfy { $0 < $1 })
        #expect(abs(c.unix(9.95) - (t0 + 9.95)) < 1e-6)
        #expect(abs(c.unix(2.0) - (t0 + 2.0)) < 1e-6)
    }

    @Test func aWallClockSteppedForwardTimesTheStreamOnFromThere() {
        let clocks = Clocks(wall: t0)
        let c = LiveClock(clocks: clocks.clocks)
        for k in 0..<100 {
            clocks.run(0.1)
            // A board without an RTC: NTP's first answer puts the wall clock 2 h on, 5 s in.
            if k == 50 { clocks.step(7200) }
            c.heard(from: 0.1 * Double(k), to: 0.1 * Double(k + 1))
        }
        #expect(abs(c.unix(4.95) - (t0 + 4.95)) < 1e-6)
        // (To a tenth of a millisecond: Unix times in doubles, stepped by 2 h.)
        #expect(abs(c.unix(5.05) - (t0 + 7200 + 5.05)) < 1e-4)
        #expect(abs(c.unix(9.95) - (t0 + 7200 + 9.95)) < 1e-4)
    }

    @Test func aBlockIsTimedWhenItsReadReturnedNotWhenItsTurnCame() {
        let clocks = Clocks(wall: t0)
        let c = LiveClock(clocks: clocks.clocks)
        for k in 0..<10 {
            clocks.run(0.1)
            c.heard(from: 0.1 * Double(k), to: 0.1 * Double(k + 1))
        }
        // The session was held up for 3 s: the next 30 blocks waited in the capture's queue,
        // read on time, and are taken within 30 ms.
        clocks.run(3.0)
        for k in 10..<40 {
            clocks.run(0.001)
            let read = 0.1 * Double(k + 1)
            c.heard(from: 0.1 * Double(k), to: 0.1 * Double(k + 1), waited: clocks.now.withLock { $0.monotonic } - 100 - read)
        }
        #expect(abs(c.unix(1.0) - (t0 + 1.0)) < 1e-6)
        #expect(abs(c.unix(3.95) - (t0 + 3.95)) < 1e-6)
    }

    @Test func aSmallDelayIsNoStall() {
        let c = clock()
        c.heard(from: 0, to: 0.1, arrival: t0)
        c.heard(from: 0.1, to: 0.2, arrival: t0 + 0.1 + 0.9)
        #expect(abs(c.unix(0.2) - (t0 + 0.1)) < 1e-6)
        c.heard(from: 0.2, to: 0.3, arrival: t0 + 0.2 + 1.2)
        #expect(abs(c.unix(0.3) - (t0 + 1.4)) < 1e-6)
    }
}
