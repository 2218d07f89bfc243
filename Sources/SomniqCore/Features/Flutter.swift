/// Periodicity of a window's amplitude envelope at 30–150 Hz: the normalised
/// autocorrelation peak at lags of 6.7–33 ms of the envelope band-passed to 20–300 Hz. A
/// fluttering soft palate chops the airflow into pulses at 30–150 Hz (Pevernagie et al.
/// 2010); the pulses show in the envelope of whatever noise they carry, so the cue survives
/// a microphone that does not pass the pulse rate itself. Steady airflow (a breath) has an
/// aperiodic envelope.
struct Flutter {
    /// Samples per point of the amplitude envelope (1 ms).
    static let step = 16
    /// The window's amplitude envelope at 1 kHz, its band-passed power spectrum and
    /// autocorrelation.
    private var amplitude: [Float]
    private var power: [Float]
    private var acf: [Float]

    init(transformSize: Int) {
        amplitude = [Float](repeating: 0, count: min(transformSize, StreamClock.windowLength / Self.step))
        power = [Float](repeating: 0, count: transformSize / 2 + 1)
        acf = power
    }

    /// The flutter of a window's samples, 0 … 1 (0 for digital silence).
    mutating func measure(_ samples: UnsafeBufferPointer<Float>, transform: SpectrumTransform) -> Float {
        let step = Self.step
        for j in 0..<amplitude.count {
            var a: Float = 0
            for i in (j * step)..<((j + 1) * step) { a += abs(samples[i]) }
            amplitude[j] = a / Float(step)
        }
        let rate = Float(StreamClock.sampleRate / step)          // 1 kHz
        let hzPerBin = rate / Float(transform.size)
        let low = Int((20 / hzPerBin).rounded(.up)), high = Int(300 / hzPerBin)
        amplitude.withUnsafeBufferPointer { a in
            power.withUnsafeMutableBufferPointer { transform.powerSpectrum(of: a, into: $0) }
        }
        for k in power.indices where k < low || k > high { power[k] = 0 }
        power.withUnsafeBufferPointer { p in
            acf.withUnsafeMutableBufferPointer { transform.autocorrelation(fromPower: p, into: $0) }
        }
        let r0 = acf[0]
        guard r0 > .leastNormalMagnitude else { return 0 }        // digital silence; no level bar
        var best: Float = 0
        for lag in Int(rate / 150)...Int(rate / 30) { best = max(best, acf[lag] / r0) }
        return best
    }
}
