/// Bridges the short silences inside one event — between two coughs of a bout, the
/// barks of one dog, the breaths of a cry — by holding 80 % of a high score for a
/// few windows, so one bout is one event. Only a gap that the sound `resumes` after
/// (within the classifier's lookahead) is bridged: after the last cough the event
/// keeps one window for its tail, then ends.
struct Hold: Sendable {
    let windows: Int
    private var held: Float = 0
    private var left = 0

    init(windows: Int) { self.windows = windows }

    mutating func update(_ x: Float, resumes: Bool = true) -> Float {
        if x >= 0.5 {
            held = x
            left = windows
            return x
        }
        if !resumes { left = min(left, 1) }     // the tail of the last one, no more
        guard left > 0 else { return x }
        left -= 1
        return max(x, 0.8 * held)
    }
}
