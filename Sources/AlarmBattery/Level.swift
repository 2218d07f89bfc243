import RealModule

/// Levels in dB relative to full scale (a sine of peak 1 has an RMS of -3 dBFS).
public enum Level {
    public static func db(_ ratio: Double) -> Double { 20 * log10(max(ratio, 1e-30)) }
    public static func gain(db: Double) -> Double { pow(10, db / 20) }

    /// RMS of `samples[range]` (of all of them when nil).
    public static func rms(_ samples: [Float], _ range: Range<Int>? = nil) -> Double {
        let r = range ?? samples.indices
        guard !r.isEmpty else { return 0 }
        var sum = 0.0
        for i in r { sum += Double(samples[i]) * Double(samples[i]) }
        return sqrt(sum / Double(r.count))
    }

    /// RMS over several spans of `samples`, taken together.
    public static func rms(_ samples: [Float], spans: [Range<Int>]) -> Double {
        var sum = 0.0, n = 0
        for r in spans { for i in r { sum += Double(samples[i]) * Double(samples[i]) }; n += r.count }
        return n > 0 ? sqrt(sum / Double(n)) : 0
    }

    public static func peak(_ samples: [Float]) -> Double {
        Double(samples.reduce(Float(0)) { max($0, abs($1)) })
    }

    /// The 1/3-octave band about a frequency, as a sound-level meter's filter (IEC 61260)
    /// approximates it: one RBJ band-pass of a third of an octave.
    public static let thirdOctave = 1.0 / 3.0

    /// RMS of `samples` (over `spans`, or all) in the 1/3-octave band centred on `frequency`.
    /// The filter runs over the whole signal, so its start-up does not weigh on a span.
    public static func bandRMS(_ samples: [Float], centre frequency: Double, spans: [Range<Int>]? = nil) -> Double {
        let band = Biquad.filtered(samples, .bandPass(octaves: thirdOctave), frequency: frequency)
        return rms(band, spans: spans ?? [band.indices])
    }
}
