import Foundation
@testable import SomniqIO
import Testing

/// One rule turns a live stream's time into wall time, through stalls and bursts: a sample
/// is never timed after the block that held it arrived, and a stream that stood still is
/// timed from when it moves again, its earlier audio keeping its own times.
struct LiveClockTests {
    let t0 = 1_750_000_000.0
    /// Blocks of 0.1 s (1600 frames), the first arriving at `t0`.
    func clock() -> LiveClock { LiveClock(wall: { Date(timeIntervalSince1970: 1_750_000_000) }) }

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

    @Test func aBurstAfterAStallIsTimedInTheStallNeverBeforeIt() {
        let c = clock()
        for k in 0..<30 {
            let end = 0.1 * Double(k + 1)
            c.heard(from: end - 0.1, to: end, arrival: t0 + end)
        }
        // 18 s without audio, then 6 s of it within 60 ms (held back in a buffer).
        for k in 0..<60 {
            let end = 3.1 + 0.1 * Double(k)
            c.heard(from: end - 0.1, to: end, arrival: t0 + 21.1 + 0.001 * Double(k))
        }
        #expect(abs(c.unix(9.0) - (t0 + 21.159)) < 1e-6)
        #expect(c.unix(3.0) > c.unix(2.999) && abs(c.unix(2.999) - (t0 + 2.999)) < 1e-6)
        // A burst longer than the stall before it: the stretches merge, and times never go back.
        for k in 0..<160 {
            let end = 9.1 + 0.1 * Double(k)
            c.heard(from: end - 0.1, to: end, arrival: t0 + 21.2 + 0.001 * Double(k))
        }
        let times = stride(from: 0.0, through: 25.0, by: 0.05).map { c.unix($0) }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(abs(c.unix(25.0) - (t0 + 21.2 + 0.159)) < 1e-6)
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
