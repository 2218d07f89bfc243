/// The fixed time base of the pipeline. Every time inside somniq is a sample count
/// at this rate; seconds are `frames / sampleRate`. Wall-clock time is attached only
/// when a live record is written.
public enum StreamClock {
    /// Samples per second of the analysed stream (mono, Float32).
    public static let sampleRate = 16_000
    /// Samples in one analysis window (1.0 s).
    public static let windowLength = 16_000
    /// Samples between the starts of two windows (0.5 s): two frames per second.
    public static let hop = 8_000
    /// Seconds between two frames of the alert processor.
    public static let frameSeconds = Double(hop) / Double(sampleRate)
    /// Frames per second of the alert processor (reported, never configured).
    public static let frameRate = Double(sampleRate) / Double(hop)

    /// Seconds at `frames` samples into the stream.
    public static func seconds(_ frames: Int64) -> Double { Double(frames) / Double(sampleRate) }
}
