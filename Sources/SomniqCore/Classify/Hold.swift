/// Holds 80 % of a high score for a few windows while the sound `resumes` (within the
/// classifier's lookahead) or goes on: 80 % of the highest score since the hold began, so a
/// sound that fades out (a scream that trails off) is held at its peak's strength, not at
/// its last strong window's. Two uses:
///
/// - Bridging the short silences inside one event — between two coughs of a bout, the
///   barks of one dog, the breaths of a cry — so one bout is one event. Only a gap that
///   the sound resumes after is bridged.
/// - Carrying a sound that is recognised by its start (a crash, a gasp) through the rest
///   of it, while the window is still filled with it and no new attack comes: breaking
///   glass goes on as falling, ringing shards, a gasp as the rest of the inhalation. A
///   new sharp onset is a new sound and is judged on its own.
///
/// When the sound stops, a `tail` keeps one window more: a sound that dies away goes on
/// beneath the floor for a while (a cough's last breath, a shard ringing out), and the
/// window after the last loud one still holds the start of that tail. A sound that is
/// cut off, as a scream is, ends with its last window.
struct Hold: Sendable {
    let windows: Int
    let tail: Bool
    private var held: Float = 0
    private var left = 0

    init(windows: Int, tail: Bool = true) {
        self.windows = windows
        self.tail = tail
    }

    mutating func update(_ x: Float, resumes: Bool = true) -> Float {
        if x >= 0.5 {
            held = left > 0 ? max(held, x) : x
            left = windows
            return x
        }
        if !resumes { left = tail ? min(left, 1) : 0 }
        guard left > 0 else { return x }
        left -= 1
        return max(x, 0.8 * held)
    }
}
