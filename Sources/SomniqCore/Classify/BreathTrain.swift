/// Follows a sequence of calm breaths: soft, noisy bursts (inhale or exhale) one every
/// 2.5–7 s (9–24 breaths a minute). A lone burst scores just under an alert: breathing
/// is a rhythm, so it is confirmed by the second burst at such an interval, and started
/// with the first (`startedAt`). Then the score is held through the pause until the next
/// breath is due (the median interval plus 35 %), so a sequence is one event; and a burst
/// inside a sequence is a breath, not a gasp. Once the time the next breath is due lies
/// within the classifier's lookahead and no breath is in view, the sequence has ended, with
/// its last breath (`endedAt`). The classifier applies both to the windows it holds back.
struct BreathTrain: Sendable {
    private var inBurst = false
    private var starts: [Int] = { var s = [Int](); s.reserveCapacity(keptBreaths + 1); return s }()

    private static let rate = 2                 // windows per second
    /// Breaths come every 2.5–7 s (9–24 a minute, calm breathing awake and asleep), in
    /// windows.
    private static let intervals = 5...(7 * rate)
    /// The breaths a sequence keeps in view (its interval is their median).
    private static let keptBreaths = 6
    /// The next breath is due the median interval plus 35 % after the last began: breath
    /// to breath, calm breathing varies by about a third.
    private static let jitter = 0.35

    /// The score a sequence holds between its breaths, over the balanced profile's `on`.
    static let held: Float = 0.8
    /// A lone burst scores at most 0.65, just under the balanced profile's `on` (0.7).
    static let lone: Float = 0.65

    /// True while bursts keep coming at a breathing rhythm.
    private(set) var active = false

    /// Set by the update that starts a sequence: the window where its first breath began
    /// (or, if a sequence ended since, the window after that), as in `SnoreTrain`.
    private(set) var startedAt: Int?
    private var lastActive = Int.min / 2
    /// Set by the update that ends a sequence: the first window after its last breath.
    private(set) var endedAt: Int?
    private var lastEnd = Int.min / 2

    /// `nextInView`: a burst comes within the next `horizon` windows (the lookahead).
    mutating func update(instant: Float, frame: Int, nextInView: Bool = true, horizon: Int = 0) -> Float {
        if instant >= Arbitration.heard, !inBurst {
            inBurst = true
            if let last = starts.last, frame - last > Self.intervals.upperBound { starts.removeAll(keepingCapacity: true) }
            starts.append(frame)
            if starts.count > Self.keptBreaths { starts.removeFirst() }
        } else if inBurst, instant < Arbitration.heard {
            inBurst = false
            lastEnd = frame
        }
        let wasActive = active
        defer { endedAt = wasActive && !active ? lastEnd : nil }
        var rhythmic = starts.count >= 2
        for k in starts.indices.dropFirst() where !Self.intervals.contains(starts[k] - starts[k - 1]) { rhythmic = false }
        guard rhythmic, let last = starts.last else {
            active = false
            startedAt = nil
            return min(instant, Self.lone)
        }
        let interval = medianInterval(starts)
        let due = last + interval + Int((Self.jitter * Double(interval)).rounded(.up))
        active = inBurst || (frame <= due && (nextInView || frame + horizon < due))
        startedAt = nil
        if active {
            if frame > lastActive + 1 { startedAt = max(starts[starts.count - 2], lastActive + 1) }
            lastActive = frame
        }
        return active ? max(instant, Self.held) : instant
    }
}
