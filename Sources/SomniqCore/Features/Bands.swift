import RealModule

/// Eight octave-like bands that cover 0–8 kHz, chosen so that the classes' cues fall
/// in different bands: snore and thunder below 300 Hz, voice fundamentals and first
/// formants 300–1200 Hz, cry and scream harmonics 1.2–4 kHz, alarm tones 2.4–4 kHz,
/// shatter and hiss above 4 kHz.
public enum Bands {
    public static let count = 8
    public static let edgesHz: [Float] = [0, 150, 300, 600, 1200, 2400, 4000, 6000, 8000]
    public static let names = ["<150", "150-300", "300-600", "600-1k2", "1k2-2k4", "2k4-4k", "4k-6k", ">6k"]

    /// The band that holds a frequency (the top band for anything above 6 kHz).
    public static func band(ofHz hz: Float) -> Band {
        var b = 0
        while b < count - 1, hz >= edgesHz[b + 1] { b += 1 }
        return Band(Band.Edge(rawValue: b)!, Band.Edge(rawValue: b + 1)!)
    }
}

/// A run of adjacent bands, from one band edge to a higher one. Edges are named, so a
/// frequency that is not one of `Bands.edgesHz` cannot be written; every named band
/// (`Band.named`) is checked to run upwards by a test.
public struct Band: Sendable, Equatable {
    /// `Bands.edgesHz`, by name.
    public enum Edge: Int, Sendable, CaseIterable, Comparable {
        case hz0, hz150, hz300, hz600, hz1200, hz2400, hz4000, hz6000, hz8000
        public static func < (a: Edge, b: Edge) -> Bool { a.rawValue < b.rawValue }
        public var hz: Float { Bands.edgesHz[rawValue] }
    }

    public let low: Edge, high: Edge

    public init(_ low: Edge, _ high: Edge) {
        self.low = low
        self.high = high
    }

    /// The bands it spans, as indices of a `BandVector`.
    public var indices: ClosedRange<Int> { low.rawValue...(high.rawValue - 1) }
    public var hz: ClosedRange<Float> { low.hz...high.hz }
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

