import RealModule

/// Eight octave-like bands that cover 0–8 kHz, chosen so that the classes' cues fall
/// in different bands: snore and thunder below 300 Hz, voice fundamentals and first
/// formants 300–1200 Hz, cry and scream harmonics 1.2–4 kHz, alarm tones 2.4–4 kHz,
/// shatter and hiss above 4 kHz.
public enum Bands {
    public static let count = 8
    public static let edgesHz: [Float] = [0, 150, 300, 600, 1200, 2400, 4000, 6000, 8000]
    public static let names = ["<150", "150-300", "300-600", "600-1k2", "1k2-2k4", "2k4-4k", "4k-6k", ">6k"]

    /// The edges of the band that holds a frequency (the top band for anything above 6 kHz).
    public static func range(ofHz hz: Float) -> ClosedRange<Float> {
        var b = 0
        while b < count - 1, hz >= edgesHz[b + 1] { b += 1 }
        return edgesHz[b]...edgesHz[b + 1]
    }
}

/// One value per band.
public typealias BandVector = SIMD8<Float>

/// Decibel conversions with a floor, so silence never yields −∞ or NaN.
public enum Decibels {
    public static let silence: Float = -120
    /// 10·log10(power), at least −120 dB.
    @inline(__always) public static func power(_ p: Float) -> Float {
        p > 1e-12 ? 10 * Float.log10(p) : silence
    }
    /// 10·log10(power) to within 0.01 dB, from the float's exponent and a cubic in its
    /// mantissa: the per-bin log spectrum is the extractor's hottest loop. Deterministic.
    /// Below the smallest normal float (where the exponent trick fails), `silence`.
    @inline(__always) public static func fastPower(_ p: Float) -> Float {
        guard p >= .leastNormalMagnitude else { return silence }
        let bits = p.bitPattern
        let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
        let m = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)      // mantissa in [1, 2)
        // log2(m) on [1, 2): a fitted cubic, error < 0.0012 (0.004 dB).
        let log2m = ((0.15824871 * m - 1.05187502) * m + 3.04788335) * m - 2.15410939
        return 3.0102999566 * (exponent + log2m)
    }

    /// Linear power of a level in dB.
    @inline(__always) public static func toPower(_ db: Float) -> Float { Float.pow(10, db / 10) }
}

