/// Follows snores across windows.
///
/// Snores come one per breath, every 2–8 s (12–30 breaths a minute in sleep). After
/// a snore burst the snoring score is held for up to one breath period, and a train
/// of regularly spaced bursts is held for 1.5 periods, so a night of snoring is one
/// event with its gaps, not one per breath.
///
/// `breathing_pause` (derived): a regular train of at least three snores stops for
/// ≥ 10 s and resumes with a gasp or a snore at least 3 dB louder than the train's
/// loudest. This is a pattern worth a look, not a diagnosis.
struct SnoreTrain: Sendable {
    private var inBurst = false
    private var bursts: [Int] = { var b = [Int](); b.reserveCapacity(9); return b }()   // starts of recent bursts (≤ 8)
    /// Loudest burst of the train so far, dB above the floor.
    private var trainLevel: Float = -.infinity
    private var burstLevel: Float = -.infinity
    private var lastBurstEnd = Int.min / 2

    /// Windows per second.
    private static let rate = 2

    /// `levelDb`: how far the window's loudest frame stands above the floor.
    mutating func update(instant: Float, gasp: Float, levelDb: Float, frame: Int) -> (snoring: Float, pause: Float) {
        var pause: Float = 0
        let starting = instant >= 0.5 && !inBurst
        if starting || (gasp >= 0.6 && !inBurst) {
            // A new burst (or a gasp): was it the end of a pause in a regular train?
            if let last = bursts.last, bursts.count >= 3, regular,
               frame - lastBurstEnd >= 10 * Self.rate,
               frame - last <= 60 * Self.rate,
               gasp >= 0.6 || (instant >= 0.8 && levelDb > trainLevel + 3) {
                pause = 1
            }
        }
        if starting {
            inBurst = true
            if let last = bursts.last, frame - last > 20 * Self.rate { bursts.removeAll(keepingCapacity: true); trainLevel = -.infinity }
            burstLevel = levelDb
            bursts.append(frame)
            if bursts.count > 8 { bursts.removeFirst() }
        } else if inBurst {
            burstLevel = max(burstLevel, levelDb)
            if instant < 0.3 {
                inBurst = false
                lastBurstEnd = frame
                trainLevel = max(trainLevel, burstLevel)
            }
        }

        if inBurst { return (instant, pause) }
        let gap = frame - lastBurstEnd
        let hold = regular ? Int(1.5 * Double(period)) : 4 * Self.rate
        guard gap <= min(hold, 9 * Self.rate) else { return (instant, pause) }
        let held: Float = regular ? 0.85 : 0.7
        return (max(instant, held), pause)
    }

    /// Median interval between recent bursts, in windows.
    private var period: Int {
        guard bursts.count >= 2 else { return 0 }
        // At most 7 gaps: sorted on the stack, nothing allocated per window.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: bursts.count - 1) { gaps in
            for k in 1..<bursts.count { gaps[k - 1] = bursts[k] - bursts[k - 1] }
            for k in 1..<gaps.count {
                var j = k
                while j > 0, gaps[j - 1] > gaps[j] { gaps.swapAt(j - 1, j); j -= 1 }
            }
            return gaps[gaps.count / 2]
        }
    }

    /// At least two intervals, all 2–8 s and within 35 % of the median.
    private var regular: Bool {
        guard bursts.count >= 3 else { return false }
        let p = period
        guard p >= 2 * Self.rate, p <= 8 * Self.rate else { return false }
        for k in 1..<bursts.count where abs(Double(bursts[k] - bursts[k - 1] - p)) > 0.35 * Double(p) { return false }
        return true
    }
}
