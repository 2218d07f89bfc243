/// Descriptors of one short frame (512 samples = 32 ms, hop 250 samples ≈ 15.6 ms)
/// inside an analysis window. Levels are in dBFS (0 dB = mean square 1.0).
public struct SubFrame: Sendable {
    public var energyDb: Float = Decibels.silence
    /// Power per band, linear, in the same units as the mean square.
    public var bands = BandVector()
    public var centroidHz: Float = 0
    public var rolloffHz: Float = 0
    public var flatness: Float = 0
    public var flux: Float = 0
    public var zcr: Float = 0
    public var f0Hz: Float = 0
    public var harmonicity: Float = 0
    public var tonalHz: Float = 0
    public var tonalProminenceDb: Float = 0
    public init() {}

    /// Frame length in samples, and hop between frames.
    public static let length = 512
    public static let hop = 250
    /// Frames per window: every frame that lies wholly inside the 1.0 s window.
    public static let perWindow = (StreamClock.windowLength - length) / hop + 1      // 62
    /// Frames a window shares with the next one.
    public static let shared = perWindow - StreamClock.hop / hop                    // 30
    /// Frames per second (for turning frame counts into seconds).
    public static let rate = Float(StreamClock.sampleRate) / Float(hop)
}
