import FoundationEssentials
import Glibc

/// The one rule by which a live stream's time becomes wall-clock time. Every record the
/// daemon writes carries the times this gives (an event's `onset_time` and `offset_time`,
/// a minute's `time`), and every reader (notifications, MQTT, the page, its API, the
/// report, the history) takes those logged times rather than working them out again.
///
/// The rule: a block of audio has been heard by the time it arrives, so the wall time of
/// its last sample is at most its arrival. The stream is anchored at the first block's end
/// and arrival, and keeps that anchor while blocks keep arriving on time; the anchor moves
/// when a block arrives
/// - sooner than the anchor says its last sample was heard (a burst of audio held back
///   somewhere, or a sound card whose clock runs fast): its last sample is timed at its
///   arrival, never later — no time is ever in the future — and the stretch since the
///   last stall moves with it, merged with the one before if it would pass it, so that
///   times never go back;
/// - more than `slack` later (the stream stood still while the wall clock ran on: a stalled
///   capture, a lost device, samples lost to an overrun): a new stretch begins at the
///   block's first sample, timed from its arrival, and a time before it (the onset of an
///   event confirmed after a stall) keeps the anchor of its own stretch.
/// Before the first block, a stream time is now.
final class LiveClock {
    /// How late a block may arrive before the stream is taken to have stood still: more
    /// than a read held up on a busy machine, less than anything a carer would notice.
    static let slack = 1.0
    /// Stretches kept: more than a minute's worth of stalls and bursts (a `level` record
    /// times a minute from its start).
    static let kept = 32

    private let wall: @Sendable () -> Date
    /// From stream time `from` on, wall time is stream time + `offset`; oldest first, at
    /// most `kept`, storage reserved at init.
    private var stretches: [(from: Double, offset: Double)] = []

    init(wall: @escaping @Sendable () -> Date) {
        self.wall = wall
        stretches.reserveCapacity(Self.kept)
    }

    /// A block of audio from stream time `start` to `end` has arrived at `arrival` (Unix
    /// time): the anchor moves if the rule says so.
    func heard(from start: Double, to end: Double, arrival: Double) {
        let offset = arrival - end
        guard let current = stretches.last?.offset else {
            stretches.append((start, offset))
            return
        }
        if offset < current {
            while stretches.count > 1, offset <= stretches[stretches.count - 2].offset { stretches.removeLast() }
            stretches[stretches.count - 1].offset = offset
        } else if offset > current + Self.slack {
            if stretches.count == Self.kept { stretches.removeFirst() }
            stretches.append((start, offset))
        }
    }

    /// The Unix time of a stream time: by the anchor of the stretch it lies in.
    func unix(_ streamSeconds: Double) -> Double {
        guard let first = stretches.first else { return wall().timeIntervalSince1970 }
        let stretch = stretches.last { $0.from <= streamSeconds } ?? first
        return streamSeconds + stretch.offset
    }

    func time(_ streamSeconds: Double) -> String { WallClock.iso8601(Date(timeIntervalSince1970: unix(streamSeconds))) }
}
