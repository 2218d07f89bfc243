/// What the room has been doing: the lower quartile (25th percentile) of the windows'
/// loudest-frame levels over the last 30 s (60 windows at the 0.5 s hop).
///
/// The background floor (`BackgroundFloor`) follows the quiet between sounds, so a ticking
/// clock, chirping crickets or croaking frogs stand 40 dB over it at every tick. They are
/// background all the same: a sound heard in most windows of the last half minute is
/// the room's normal state, not an event. A one-off event (a shatter, a slam, a shout)
/// stands above that level; habituation to a repeating stimulus is how hearing treats it
/// too. The lower quartile rises only once more than three quarters of the windows hold
/// the sound, so a snore train, a bark every few seconds or a phone's ring cadence (on for
/// a third of the time) leave it at the background's level.
public struct RecentPeaks: Sendable {
    /// Windows remembered: 30 s.
    public static let capacity = 60
    private var levels: [Float]
    private var scratch: [Float]
    private var next = 0
    public private(set) var count = 0

    public init() {
        levels = [Float](repeating: Decibels.silence, count: Self.capacity)
        scratch = levels
    }

    /// The lower quartile of the windows seen, dBFS (`Decibels.silence` before the first).
    public mutating func lowerQuartile() -> Float {
        guard count > 0 else { return Decibels.silence }
        for i in 0..<count { scratch[i] = levels[i] }
        return scratch.withUnsafeMutableBufferPointer { TonalPeak.select($0, count: count, k: (count - 1) / 4) }
    }

    /// Remembers one window's loudest-frame level.
    public mutating func add(_ peakDbfs: Float) {
        levels[next] = peakDbfs
        next = (next + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
    }
}
