import RealModule

/// A second-order IIR section from Robert Bristow-Johnson's "Cookbook formulae for audio
/// equalizer biquad filter coefficients", run as direct form I in Double (so a 1/3-octave
/// band at 400 Hz is still exact at 16 kHz). Coefficients are normalised by a0.
public struct Biquad: Sendable {
    public private(set) var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    public enum Kind: Sendable {
        /// Low-pass and high-pass of quality `q` (0.7071: Butterworth).
        case lowPass(q: Double), highPass(q: Double)
        /// Band-pass, 0 dB peak gain, bandwidth `octaves` between the -3 dB points.
        case bandPass(octaves: Double)
        /// Band-pass, 0 dB peak gain, of quality `q`.
        case bandPassQ(q: Double)
    }

    /// `frequency` must lie strictly between 0 and half of `sampleRate`.
    public init(_ kind: Kind, frequency: Double, sampleRate: Double = Battery.sampleRate) {
        set(kind, frequency: frequency, sampleRate: sampleRate)
    }

    /// New coefficients, keeping the state (a filter swept while it runs).
    public mutating func set(_ kind: Kind, frequency: Double, sampleRate: Double = Battery.sampleRate) {
        precondition(frequency > 0 && frequency < sampleRate / 2, "biquad frequency \(frequency) Hz outside (0, fs/2)")
        let w0 = 2 * Double.pi * frequency / sampleRate
        let cw = cos(w0), sw = sin(w0)
        let alpha: Double
        switch kind {
        case let .lowPass(q), let .highPass(q), let .bandPassQ(q): alpha = sw / (2 * q)
        case let .bandPass(octaves): alpha = sw * sinh(log(2) / 2 * octaves * w0 / sw)
        }
        let a0 = 1 + alpha
        switch kind {
        case .lowPass:
            b0 = (1 - cw) / 2 / a0; b1 = (1 - cw) / a0; b2 = b0
        case .highPass:
            b0 = (1 + cw) / 2 / a0; b1 = -(1 + cw) / a0; b2 = b0
        case .bandPass, .bandPassQ:
            b0 = alpha / a0; b1 = 0; b2 = -alpha / a0
        }
        a1 = -2 * cw / a0
        a2 = (1 - alpha) / a0
    }

    public mutating func process(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1; x1 = x; y2 = y1; y1 = y
        return y
    }

    /// Filters `samples` in place.
    public mutating func process(_ samples: inout [Float]) {
        for i in samples.indices { samples[i] = Float(process(Double(samples[i]))) }
    }

    /// `samples` filtered by a fresh section.
    public static func filtered(_ samples: [Float], _ kind: Kind, frequency: Double) -> [Float] {
        var f = Biquad(kind, frequency: frequency)
        var out = samples
        f.process(&out)
        return out
    }
}
