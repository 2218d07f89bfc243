/// Watches each window, as its features are made, for input the daemon cannot hear
/// through: digital silence or a stuck value (a muted or unplugged microphone, a dead
/// driver), and sustained clipping (the capture gain is too high). Each spell is
/// reported once, when it has lasted its limit; it may be reported again after it clears.
public struct InputWatch: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Seconds of digital silence or a stuck value before `input_silent`.
        public var silenceSeconds: Double
        /// Seconds of continuous clipping before `clipping`.
        public var clippingSeconds: Double
        public init(silenceSeconds: Double = 60, clippingSeconds: Double = 5) {
            self.silenceSeconds = silenceSeconds
            self.clippingSeconds = clippingSeconds
        }
    }

    /// A condition of the input that has lasted `seconds`; it was seen in the window
    /// ending at `streamSeconds`.
    public struct Condition: Sendable, Equatable {
        public enum Kind: String, Sendable { case silent = "input_silent", clipping }
        public var kind: Kind
        public var seconds: Double
        public var streamSeconds: Double
        public init(kind: Kind, seconds: Double, streamSeconds: Double) {
            self.kind = kind
            self.seconds = seconds
            self.streamSeconds = streamSeconds
        }
    }

    public var limits: Limits
    private var silence = Spell(), clipping = Spell()
    private var previousLevel: Float = .nan

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Feeds one window; `report` receives each condition on the window where it reaches its limit.
    public mutating func add(_ f: WindowFeatures, report: (Condition) -> Void) {
        // A real microphone never gives the same level twice with nothing active: a stuck
        // value repeats; a muted one sits at the −120 dBFS floor of the level measure.
        let stuck = f.levelDbfs <= Decibels.silence + 1 || f.activeFraction == 0 && f.levelDbfs == previousLevel
        previousLevel = f.levelDbfs
        let end = f.startSeconds + Double(StreamClock.windowLength) / Double(StreamClock.sampleRate)
        if silence.update(stuck, limit: limits.silenceSeconds) {
            report(Condition(kind: .silent, seconds: limits.silenceSeconds, streamSeconds: end))
        }
        if clipping.update(f.clippedSamples > 0, limit: limits.clippingSeconds) {
            report(Condition(kind: .clipping, seconds: limits.clippingSeconds, streamSeconds: end))
        }
    }
}

/// A condition reported once it has lasted long enough, and once per spell.
struct Spell: Sendable {
    private var windows = 0
    private var reported = false

    /// Feeds one window; true on the window where the spell first reaches `limit` seconds.
    mutating func update(_ holds: Bool, limit: Double) -> Bool {
        windows = holds ? windows + 1 : 0
        if windows == 0 { reported = false; return false }
        guard !reported, Double(windows) * StreamClock.frameSeconds >= limit else { return false }
        reported = true
        return true
    }
}
