import FoundationEssentials
import Glibc

/// Maps a live stream's time to wall-clock time, anchored when audio (re)starts
/// arriving; before the first audio, now.
final class LiveClock {
    private let wall: @Sendable () -> Date
    private var anchor: (date: Date, stream: Double)?

    init(wall: @escaping @Sendable () -> Date) { self.wall = wall }

    func anchor(at streamSeconds: Double) { anchor = (wall(), streamSeconds) }

    func unix(_ streamSeconds: Double) -> Double {
        guard let anchor else { return wall().timeIntervalSince1970 }
        return anchor.date.timeIntervalSince1970 + streamSeconds - anchor.stream
    }

    func time(_ streamSeconds: Double) -> String { WallClock.iso8601(Date(timeIntervalSince1970: unix(streamSeconds))) }
}
