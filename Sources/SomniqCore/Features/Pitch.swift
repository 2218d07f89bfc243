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
    /// (0, 0) for silence or when no lag stands out. `scratch` and `peaks` (each as long as
    /// `acf`) hold the normalised autocorrelation and the height of each of its peaks.
    public func estimate(_ acf: UnsafeBufferPointer<Float>, scratch: UnsafeMutableBufferPointer<Float>,
                         peaks: UnsafeMutableBufferPointer<Float>) -> (f0: Float, harmonicity: Float) {
        let r0 = acf[0]
        // Only digital silence has no pitch: any absolute bar here would be a level, and a
        // voice 20 dB down (a quieter microphone, a farther bed) would lose its pitch.
        guard r0 > .leastNormalMagnitude else { return (0, 0) }
        let minLag = max(2, Int(sampleRate / maxHz))
        let maxLag = min(acf.count - 2, windowACF.count - 2, Int(sampleRate / minHz))
        guard maxLag > minLag else { return (0, 0) }
        precondition(scratch.count >= maxLag + 2 && peaks.count > maxLag, "pitch scratch shorter than the lag range")
        // Eight lags at a time: lane for lane the scalar operations, so the same bits.
        windowACF.withUnsafeBufferPointer { w in
            var lag = minLag - 1
            while lag + Lanes.scalarCount <= maxLag + 2 {
                let wl = load(w.baseAddress! + lag), ratio = load(acf.baseAddress! + lag) / (r0 * wl)
                store(ratio.replacing(with: 0, where: .!(wl .> 1e-6)), scratch.baseAddress! + lag)
                lag += Lanes.scalarCount
            }
            while lag <= maxLag + 1 {
                scratch[lag] = w[lag] > 1e-6 ? acf[lag] / (r0 * w[lag]) : 0
                lag += 1
            }
        }
        // The highest peak sets the bar; the shortest lag whose peak comes within 5 % of
        // it is the period (whole multiples of the period score as high: octave errors).
        // A first pass keeps each peak's height (0 elsewhere) in `peaks`, with no branch:
        // whether a lag is a peak is a coin toss in noise, and mispredicted branches cost
        // more than the comparisons. Eight lags at a time, as the normalisation: the heights
        // are ≥ 0 and never NaN, so the greatest is the same whichever lane holds it.
        let r = UnsafeBufferPointer(scratch)
        var at = minLag, highest = Lanes(repeating: 0)
        while at + Lanes.scalarCount <= maxLag + 1 {
            let current = load(r.baseAddress! + at)
            let isPeak = (current .> load(r.baseAddress! + at - 1)) .& (current .>= load(r.baseAddress! + at + 1)) .& (current .> 0)
            let height = Lanes(repeating: 0).replacing(with: current, where: isPeak)
            store(height, peaks.baseAddress! + at)
            highest = highest.replacing(with: height, where: height .> highest)
            at += Lanes.scalarCount
        }
        var best = highest.max()
        while at <= maxLag {
            let current = r[at]
            let peak = (current > r[at - 1] ? 1 : 0) & (current >= r[at + 1] ? 1 : 0) & (current > 0 ? 1 : 0)
            let height = peak != 0 ? current : 0
            peaks[at] = height
            best = height > best ? height : best
            at += 1
        }
        guard best > 0 else { return (0, 0) }
        let bar = 0.95 * best
        var bestLag = 0
        for lag in minLag...maxLag where peaks[lag] > 0 && peaks[lag] >= bar {
            bestLag = lag
            break
        }
        guard bestLag > 0 else { return (0, 0) }
        // Parabolic interpolation of the peak for sub-sample lag precision.
        let a = r[bestLag - 1], b = r[bestLag], c = r[bestLag + 1]
        let denom = a - 2 * b + c
        let shift = abs(denom) > 1e-9 ? 0.5 * (a - c) / denom : 0
        let lag = Float(bestLag) + max(-0.5, min(0.5, shift))
        return (sampleRate / lag, min(1, b))
    }

    private typealias Lanes = SIMD8<Float>

    @inline(__always) private func load(_ p: UnsafePointer<Float>) -> Lanes {
        UnsafeRawPointer(p).loadUnaligned(as: Lanes.self)
    }

    @inline(__always) private func store(_ v: Lanes, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: Lanes.self)
    }
}
