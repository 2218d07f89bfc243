/// Thunder: a loud low-frequency sound that fills the windows for longer than a snore
/// lasts (≥ 2.5 s: four full windows in a row), then a rumble that decays for seconds
/// while staying above the floor below 300 Hz. The rumble is held until it sinks into
/// the floor or gives way to another sound (at most 20 s), so one thunderclap is one event.
struct Rumble: Sendable {
    private var run = 0
    private(set) var storming = false
    private var held = 0
    private var quiet = 0

    static let confirmWindows = 4
    static let maxWindows = 40

    /// `instant`: the window's thunder rule; `full`: the window is continuously active;
    /// `lowExcessDb`: how far the band below 300 Hz stands above its floor.
    /// `otherSound`: the window is loud enough to be judged, so a low `instant` means
    /// another sound has taken over (speech after the thunder), not a fading rumble.
    mutating func update(instant: Float, full: Bool, lowExcessDb: Float, otherSound: Bool) -> Float {
        run = instant > 0.4 && full ? run + 1 : 0
        if !storming, run >= Self.confirmWindows {
            storming = true
            held = 0
            quiet = 0
        }
        guard storming else {
            // Before confirmation: a rising score, so the event starts near the crack.
            return instant * ramp(Float(run), 0, 2)
        }
        held += 1
        quiet = lowExcessDb < 8 || (instant < 0.2 && otherSound) ? quiet + 1 : 0
        if quiet >= 2 || held > Self.maxWindows { storming = false; run = 0; return 0 }
        return max(instant, 0.9)
    }
}
