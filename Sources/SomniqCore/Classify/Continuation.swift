/// Carries a sound that is recognised by its start (a crash, a gasp) through the rest
/// of it: once the class has scored high, the following windows keep 80 % of that
/// score for as long as the sound goes on without a new attack, up to `maxWindows`.
/// Breaking glass goes on as falling, ringing shards; a gasp as the rest of the
/// inhalation. A new sharp onset is a new sound and is judged on its own.
///
/// A sound that dies away (`fades`) keeps one window more after it has sunk into the
/// floor: its decay goes on beneath the background for a while (a shard rings out,
/// an inhalation trails off), and the window after the last loud one still holds the
/// start of that tail. A sound that is cut off, as a scream is, ends with its last window.
struct Continuation: Sendable {
    let maxWindows: Int
    let fades: Bool
    private var held: Float = 0
    private var left = 0

    init(maxWindows: Int, fades: Bool) {
        self.maxWindows = maxWindows
        self.fades = fades
    }

    /// `goingOn`: the window is still filled with the sound (active, no new attack).
    mutating func update(_ x: Float, goingOn: Bool) -> Float {
        if x >= 0.5 {
            held = x
            left = maxWindows
            return x
        }
        if !goingOn { left = fades ? min(left, 1) : 0 }
        guard left > 0 else { return x }
        left -= 1
        return max(x, 0.8 * held)
    }
}
