/// Follows a sequence of calm breaths: soft, noisy bursts (inhale or exhale) one every
/// 2.5–7 s (9–24 breaths a minute). After a burst the breathing score is held through
/// the pause that should follow it, more firmly once two bursts have come at such an
/// interval, so a sequence is one event; and a burst inside a sequence is a breath, not
/// a gasp.
struct BreathTrain: Sendable {
    private var inBurst = false
    private var starts: [Int] = { var s = [Int](); s.reserveCapacity(7); return s }()
    private var lastEnd = Int.min / 2

    private static let rate = 2                 // windows per second

    /// True while bursts keep coming at a breathing rhythm.
    private(set) var active = false

    mutating func update(instant: Float, frame: Int) -> Float {
        if instant >= 0.5, !inBurst {
            inBurst = true
            if let last = starts.last, frame - last > 7 * Self.rate { starts.removeAll(keepingCapacity: true) }
            starts.append(frame)
            if starts.count > 6 { starts.removeFirst() }
        } else if inBurst, instant < 0.5 {
            inBurst = false
            lastEnd = frame
        }
        var rhythmic = starts.count >= 2
        for k in starts.indices.dropFirst() where !(5...(7 * Self.rate)).contains(starts[k] - starts[k - 1]) { rhythmic = false }
        active = rhythmic && frame - (starts.last ?? frame) <= 8 * Self.rate
        if active { return max(instant, 0.8) }
        // After a single breath, hold a little less until the next one shows the rhythm.
        if let last = starts.last, frame - last <= 6 * Self.rate { return max(instant, 0.7) }
        return instant
    }
}
