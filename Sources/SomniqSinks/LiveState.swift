import FoundationEssentials
import Glibc
import Synchronization

/// What the running daemon shows its web page: whether it listens, to what, how loud
/// the room is now, and its metrics. The session publishes here (each second, and at once
/// when the device comes or goes); the web page reads a copy. A mutex guards a few fields:
/// a page request never reaches the session's actor, so no client can slow the listening.
public final class LiveState: Sendable {
    public struct Snapshot: Sendable {
        public var device: String
        public var room = ""
        public var profile = ""
        /// Listening: the device is open and audio arrives.
        public var listening = false
        /// Unix time listening began, and of the last audio read.
        public var since: Double?
        public var lastAudio: Double?
        /// The last window's level and the floor under it, dBFS.
        public var levelDbfs: Double?
        public var floorDbfs: Double?
        /// Why the device is not heard (its error), while it is lost.
        public var lost: String?
        /// The session said `capture_stalled`: the device is open and sends nothing.
        public var stalled = false
        /// The metrics in Prometheus' text format, as the textfile holds them.
        public var metrics = ""
        /// Seconds of audio heard this session.
        public var streamSeconds = 0.0
        /// What this home's memory in force holds (`HomeMemoryFile.holdings`); nil: none.
        public var home: String?
        /// What this home's fit in force decides (`HomeFitFile.said`); nil: none.
        public var homeFit: String?
    }

    private let state: Mutex<Snapshot>

    public init(device: String) { state = Mutex(Snapshot(device: device)) }

    public var snapshot: Snapshot { state.withLock { $0 } }

    public func update(_ change: (inout Snapshot) -> Void) {
        state.withLock { change(&$0) }
    }

    /// Audio older than this means the capture has stalled: 5 ALSA periods of 0.1 s would
    /// be 0.5 s, but a loaded machine may hold a read up to the watchdog's scale; 5 s says
    /// it is not a hiccup.
    public static let stalledSeconds = 5.0

    /// nil while the capture is alive; else why not, in a sentence.
    public static func problem(_ s: Snapshot, now: Double) -> String? {
        if let lost = s.lost { return "the capture device \(s.device) is lost: \(lost)" }
        guard s.listening, let last = s.lastAudio else { return "not listening yet: the capture device \(s.device) is being opened" }
        let quiet = now - last
        if s.stalled || quiet > stalledSeconds { return String(cFormat: "no audio from %@ for %.0f s", s.device, quiet) }
        return nil
    }
}
