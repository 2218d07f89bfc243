/// Raises a score only when it has held for several windows in a row: thunder's
/// rumble and music last, a single loud window does not make them.
struct Persistence: Sendable {
    /// Below `startWindows` in a row the score is 0; it reaches the instant score at `fullWindows`.
    let startWindows: Int, fullWindows: Int
    private var run = 0

    init(startWindows: Int, fullWindows: Int) {
        self.startWindows = startWindows
        self.fullWindows = fullWindows
    }

    mutating func update(_ instant: Float) -> Float {
        run = instant > 0.4 ? run + 1 : 0
        return instant * ramp(Float(run), Float(startWindows), Float(fullWindows))
    }
}
