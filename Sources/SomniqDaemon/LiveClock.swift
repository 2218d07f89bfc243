import FoundationEssentials
import Glibc
import SomniqSupport

/// The one rule by which a live stream's time becomes wall-clock time. Every record the
/// daemon writes carries the times this gives (an event's `onset_time` and `offset_time`,
/// a minute's `time`), and every reader (notifications, MQTT, the page, its API, the
/// report, the history) takes those logged times rather than working them out again.
///
/// Arrivals are measured on the monotonic clock (when the capture's read returned), and
/// made wall time by the wall clock's lead over it: the largest lead seen, so that a wall
/// clock stepped forward (a board without an RTC, set by NTP) moves the times on from
/// there as a stall does, and one stepped back moves no time back — a session's times
/// never go back; the next session takes the wall clock as it then is.
///
/// The rule: a block of audio has been heard by the time it arrives, so the wall time of
/// its last sample is at most its arrival. The stream is anchored at the first block's end
/// and arrival, and keeps that anchor while blocks keep arriving on time; the anchor moves
/// when a block arrives
/// - sooner than the anchor says its last sample was heard (a burst of audio held back
///   somewhere, or a sound card whose clock runs fast): its last sample is timed at its
///   arrival, never later — no time is ever in the future — and the stretch since the
///   last stall moves with it;
/// - more than `slack` later (the stream stood still while the wall clock ran on: a stalled
///   capture, a lost device, samples lost to an overrun): a new stretch begins at the
///   block's first sample, timed from its arrival, and a time before it (the onset of an
///   event confirmed after a stall) keeps the anchor of its own stretch.
/// A stretch's audio is never timed before its first block could have been heard (that
/// block's arrival less its length): audio that comes in a burst after a stall is timed
/// from when the room was heard again, never inside the stall the log says went unheard,
/// and the start of a burst that outruns the time since is timed at that moment. Times
/// never go back. Before the first block, a stream time is now.
final class LiveClock {
    /// How late a block may arrive before the stream is taken to have stood still: more
    /// than a read held up on a busy machine, less than anything a carer would notice.
    static let slack = 1.0
    /// Stretches kept: more than a minute's worth of stalls and bursts (a `level` record
    /// times a minute from its start).
    static let kept = 32

    private let clocks: DaemonClocks
    /// The wall clock's largest lead over the monotonic clock yet seen.
    private var lead: Double?
    /// From stream time `from` on, wall time is stream time + `offset`, and never before
    /// `floor`; oldest first, at most `kept`, storage reserved at init.
    private var stretches: [(from: Double, offset: Double, floor: Double)] = []

    init(clocks: DaemonClocks) {
        self.clocks = clocks
        stretches.reserveCapacity(Self.kept)
    }

    /// A block of audio from stream time `start` to `end` arrived `waited` seconds ago (its
    /// read returned then): the anchor moves if the rule says so.
    func heard(from start: Double, to end: Double, waited: Double = 0) {
        let now = clocks.monotonic().inSeconds
        let lead = max(self.lead ?? -.infinity, clocks.wall().timeIntervalSince1970 - now)
        self.lead = lead
        heard(from: start, to: end, arrival: now - waited + lead)
    }

    /// The rule, with the arrival as wall time (Unix seconds).
    func heard(from start: Double, to end: Double, arrival: Double) {
        let offset = arrival - end
        guard let current = stretches.last else {
            stretches.append((start, offset, start + offset))
            return
        }
        if offset < current.offset {
            stretches[stretches.count - 1].offset = offset
        } else if offset > current.offset + Self.slack {
            if stretches.count == Self.kept { stretches.removeFirst() }
            stretches.append((start, offset, Swift.max(start + offset, unix(start))))
        }
    }

    /// The Unix time of a stream time: by the anchor of the stretch it lies in.
    func unix(_ streamSeconds: Double) -> Double {
        guard let first = stretches.first else { return clocks.wall().timeIntervalSince1970 }
        let stretch = stretches.last { $0.from <= streamSeconds } ?? first
        return Swift.max(stretch.floor, streamSeconds + stretch.offset)
    }

    func time(_ streamSeconds: Double) -> String { WallClock.iso8601(Date(timeIntervalSince1970: unix(streamSeconds))) }
}
