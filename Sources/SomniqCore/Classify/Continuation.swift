/// Carries a sound that is recognised by its start (a crash, a gasp) through the rest
/// of it: once the class has scored high, the following windows keep 80 % of that
/// score for as long as the sound goes on without a new attack, up to `maxWindows`.
/// Breaking glass goes on as falling, ringing shards; a gasp as the rest of the
/// inhalation. A new sharp onset is a new sound and is judged on its own.
struct Continuation: Sendable {
    let maxWindows: Int
    private var held: Float = 0
    private var left = 0

    init(maxWindows: Int) { self.maxWindows = maxWindows }

    /// `goingOn`: the window is still filled with the sound (active, no new attack).
    mutating func update(_ x: Float, goingOn: Bool) -> Float {
        if x >= 0.5 {
            held = x
            left = maxWindows
            return x
        }
        guard left > 0, goingOn else { left = 0; return x }
        left -= 1
        return max(x, 0.8 * held)
    }
}
