import RealModule

/// A bedroom, cheaply: a Schroeder/Freeverb reverberator (Schroeder 1962; Jezar's Freeverb
/// comb and all-pass lengths, rescaled from 44.1 kHz) on the sound, then a small MEMS
/// microphone's band on the whole mix. Parallel damped combs make the decay, their
/// feedback set so the tail falls 60 dB in `rt60`; series all-passes diffuse it.
public struct Room: Sendable, Equatable {
    /// Reverberation time, seconds: a furnished bedroom is 0.3-0.5 s; 0.12-0.6 s spans
    /// a small padded room to a bare one.
    public var rt60: Double
    /// Wet level relative to the dry sound's RMS, dB.
    public var wetDb: Double
    /// The microphone's high-pass (its vent and capsule) and low-pass (its port resonance
    /// and the codec's filter), Hz: small MEMS microphones, 90-160 Hz and 6.0-7.8 kHz.
    public var highPassHz: Double, lowPassHz: Double

    public static let rt60Range = 0.12...0.6
    public static let wetRange = -6.0...0.0
    public static let highPassRange = 90.0...160.0
    public static let lowPassRange = 6000.0...7800.0

    /// Freeverb's comb and all-pass delays at 44.1 kHz.
    static let combs = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617]
    static let allPasses = [556, 441, 341, 225]
    /// Freeverb's high-frequency damping in the comb loops (air and soft furnishing).
    static let damping = 0.3

    public static func draw(_ rng: inout SplitMix64) -> Room {
        Room(rt60: rng.uniform(rt60Range), wetDb: rng.uniform(wetRange),
             highPassHz: rng.uniform(highPassRange), lowPassHz: rng.uniform(lowPassRange))
    }

    /// `dry` plus its reverberation (the wet part scaled to `wetDb` below the dry RMS),
    /// lengthened by `tail` seconds so the decay is not cut.
    public func reverberate(_ dry: [Float], tail: Double) -> [Float] {
        let fs = Battery.sampleRate
        let n = dry.count + Int(tail * fs)
        var wet = [Double](repeating: 0, count: n)
        for length in Self.combs {
            let d = max(1, Int(Double(length) * fs / 44_100))
            let g = pow(10, -3 * Double(d) / (rt60 * fs))
            var line = [Double](repeating: 0, count: d)
            var k = 0, store = 0.0
            for i in 0..<n {
                let x = i < dry.count ? Double(dry[i]) : 0
                let y = line[k]
                store = y * (1 - Self.damping) + store * Self.damping
                line[k] = x + store * g
                k = k + 1 == d ? 0 : k + 1
                wet[i] += y
            }
        }
        for length in Self.allPasses {
            let d = max(1, Int(Double(length) * fs / 44_100))
            var line = [Double](repeating: 0, count: d)
            var k = 0
            for i in 0..<n {
                let buffered = line[k]
                let x = wet[i]
                wet[i] = buffered - x
                line[k] = x + buffered * 0.5
                k = k + 1 == d ? 0 : k + 1
            }
        }
        var out = dry + [Float](repeating: 0, count: n - dry.count)
        let dryRMS = Level.rms(dry)
        var wetSum = 0.0
        for v in wet { wetSum += v * v }
        let wetRMS = sqrt(wetSum / Double(max(1, dry.count)))
        guard wetRMS > 0 else { return out }
        let g = Level.gain(db: wetDb) * dryRMS / wetRMS
        for i in 0..<n { out[i] += Float(wet[i] * g) }
        return out
    }

    /// The microphone's band on a whole recording, in place: 2nd-order Butterworth each.
    public func microphone(_ samples: inout [Float]) {
        var hp = Biquad(.highPass(q: 0.7071), frequency: highPassHz)
        var lp = Biquad(.lowPass(q: 0.7071), frequency: lowPassHz)
        hp.process(&samples)
        lp.process(&samples)
    }
}
