/// Fundamental frequency and harmonicity from the autocorrelation of one frame,
/// after Boersma (1993), "Accurate short-term analysis of the fundamental frequency
/// and the harmonics-to-noise ratio of a sampled sound": the frame's normalised
/// autocorrelation is divided by that of the analysis window, and the highest peak
/// in the lag range gives the period; its height is the harmonicity.
public struct PitchEstimator: Sendable {
    public let minHz: Float, maxHz: Float
    private let windowACF: [Float]          // normalised autocorrelation of the window
    private let sampleRate: Float

    /// `windowACF`: normalised autocorrelation of the analysis window, lags 0 … N/2.
    public init(windowACF: [Float], sampleRate: Float = Float(StreamClock.sampleRate),
                minHz: Float = 70, maxHz: Float = 1000) {
        self.windowACF = windowACF
        self.sampleRate = sampleRate
        self.minHz = minHz
        self.maxHz = maxHz
    }

    /// (f0 in Hz, harmonicity in [0, 1]) from a frame's autocorrelation r[0…];
    /// (0, 0) for silence or when no lag stands out. `scratch` (as long as `acf`) holds
    /// the normalised autocorrelation, worked out once for both passes over the peaks.
    public func estimate(_ acf: UnsafeBufferPointer<Float>, scratch: UnsafeMutableBufferPointer<Float>) -> (f0: Float, harmonicity: Float) {
        let r0 = acf[0]
        // Only digital silence has no pitch: any absolute bar here would be a level, and a
        // voice 20 dB down (a quieter microphone, a farther bed) would lose its pitch.
        guard r0 > .leastNormalMagnitude else { return (0, 0) }
        let minLag = max(2, Int(sampleRate / maxHz))
        let maxLag = min(acf.count - 2, windowACF.count - 2, Int(sampleRate / minHz))
        guard maxLag > minLag else { return (0, 0) }
        precondition(scratch.count >= maxLag + 2, "pitch scratch shorter than the lag range")
        windowACF.withUnsafeBufferPointer { w in
            for lag in (minLag - 1)...(maxLag + 1) {
                scratch[lag] = w[lag] > 1e-6 ? acf[lag] / (r0 * w[lag]) : 0
            }
        }
        let r = UnsafeBufferPointer(scratch)
        // The highest peak sets the bar; the shortest lag whose peak comes within 5 % of
        // it is the period (whole multiples of the period score as high: octave errors).
        var best: Float = 0
        forEachPeak(r, minLag, maxLag) { _, v in best = max(best, v) }
        guard best > 0 else { return (0, 0) }
        var bestLag = 0
        forEachPeak(r, minLag, maxLag) { lag, v in
            if bestLag == 0, v >= 0.95 * best { bestLag = lag }
        }
        guard bestLag > 0 else { return (0, 0) }
        // Parabolic interpolation of the peak for sub-sample lag precision.
        let a = r[bestLag - 1], b = r[bestLag], c = r[bestLag + 1]
        let denom = a - 2 * b + c
        let shift = abs(denom) > 1e-9 ? 0.5 * (a - c) / denom : 0
        let lag = Float(bestLag) + max(-0.5, min(0.5, shift))
        return (sampleRate / lag, min(1, b))
    }

    /// Each local maximum above 0 of the normalised autocorrelation `r` in the lag range.
    private func forEachPeak(_ r: UnsafeBufferPointer<Float>, _ minLag: Int, _ maxLag: Int,
                             _ body: (Int, Float) -> Void) {
        for lag in minLag...maxLag {
            let current = r[lag]
            if current > r[lag - 1], current >= r[lag + 1], current > 0 { body(lag, current) }
        }
    }
}
