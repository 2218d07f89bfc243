import RealModule

/// The sound a sounder makes while it is on. Harmonics are synthesised naively, as
/// sin(2π k f t) sampled at 16 kHz, so those above 8 kHz fold back below it as a cheap
/// sounder's do when a codec with a weak anti-alias filter (common in MEMS microphones)
/// records it; partials above `highestPartialHz`, which neither a small transducer
/// radiates nor a microphone picks up, are left out.
public enum Waveform: Sendable, Equatable {
    /// A driven speaker or a filtered piezo: the fundamental alone.
    case sine
    /// A speaker driven by a square wave (the NFPA 72 520 Hz sounder): odd harmonics, 1/k.
    case square
    /// A rectangular drive of `duty` 0.3-0.5: the even harmonics too, a_k ∝ sin(πkd)/k.
    case pulse(duty: Double)
    /// A piezo disc at resonance: the fundamental, a 2nd harmonic 6-28 dB and a 3rd 10-34 dB
    /// below it (measured spectra of residential smoke alarms).
    case piezo(h2Db: Double, h3Db: Double)

    public static let highestPartialHz = 20_000.0
    public static let dutyRange = 0.3...0.5
    public static let h2Range = -28.0...(-6.0)
    public static let h3Range = -34.0...(-10.0)

    public static func drawPiezo(_ rng: inout SplitMix64) -> Waveform {
        .piezo(h2Db: rng.uniform(h2Range), h3Db: rng.uniform(h3Range))
    }

    public static func draw(_ rng: inout SplitMix64) -> Waveform {
        switch rng.int(0...3) {
        case 0: return .sine
        case 1: return .square
        case 2: return .pulse(duty: rng.uniform(dutyRange))
        default: return drawPiezo(&rng)
        }
    }

    public var label: String {
        switch self {
        case .sine: "sine"
        case .square: "square"
        case let .pulse(duty): "pulse\(fixed(duty * 100, 0))%"
        case .piezo: "piezo"
        }
    }

    public var parameters: String {
        switch self {
        case let .piezo(h2, h3): "piezo (2nd \(fixed(h2, 1)) dB, 3rd \(fixed(h3, 1)) dB)"
        default: label
        }
    }

    /// Harmonic numbers and amplitudes for a fundamental `f` (the fundamental's amplitude 1).
    public func partials(fundamental f: Double) -> [(k: Double, amplitude: Double)] {
        let highest = max(1, Int(Self.highestPartialHz / f))
        switch self {
        case .sine:
            return [(1, 1)]
        case .square:
            return stride(from: 1, through: highest, by: 2).map { (Double($0), 1 / Double($0)) }
        case let .pulse(duty):
            let a1 = sin(Double.pi * duty)
            return (1...highest).compactMap { k in
                let a = sin(Double.pi * Double(k) * duty) / Double(k) / a1
                return abs(a) > 1e-6 ? (Double(k), a) : nil
            }
        case let .piezo(h2, h3):
            return [(1, 1), (2, Level.gain(db: h2)), (3, Level.gain(db: h3))]
        }
    }
}

/// How the pitch moves within each beep, within ±1 %: a piezo disc's resonance sets a
/// sounder's pitch and an oscillator the 520 Hz square wave's; their drive drifts with
/// temperature and battery voltage over hours, not within a beep (steady to about a percent
/// within and across beeps, issue 46). A cheap sounder's slight slide or warble is drawn
/// within that.
public enum PitchMotion: Sendable, Equatable {
    case steady
    /// A slide over each beep, from f to f·(1 + by).
    case slide(by: Double)
    /// A sinusoidal warble of ±depth at `rate` Hz.
    case warble(depth: Double, rate: Double)

    public static let largest = 0.01
    public static let warbleRate = 1.0...12.0

    public static func draw(_ rng: inout SplitMix64, largest: Double = largest) -> PitchMotion {
        switch rng.int(0...2) {
        case 0: return .steady
        case 1: return .slide(by: rng.uniform(-largest...largest))
        default: return .warble(depth: rng.uniform(0.002...largest), rate: rng.uniform(warbleRate))
        }
    }

    public var label: String {
        switch self {
        case .steady: "steady"
        case let .slide(by): "slide\(fixed(by * 100, 1, sign: true))%"
        case let .warble(depth, _): "warble\(fixed(depth * 100, 1))%"
        }
    }

    public var parameters: String {
        switch self {
        case .steady: "steady"
        case let .slide(by): "slide \(fixed(by * 100, 2, sign: true)) % over each beep"
        case let .warble(depth, rate): "warble ±\(fixed(depth * 100, 2)) % at \(fixed(rate, 1)) Hz"
        }
    }
}

/// One sounder: its fundamental, waveform, pitch motion and on/off ramps.
public struct Tone: Sendable, Equatable {
    public var frequency: Double
    public var waveform: Waveform
    public var motion: PitchMotion
    /// Attack and decay, seconds: a driven transducer starts and stops in 2-10 ms.
    public var ramp: Double

    public static let rampRange = 0.002...0.010

    /// Adds a beep starting at sample `start` lasting `duration` seconds into `out`
    /// (which must hold it); amplitude 1 for the fundamental.
    public func add(into out: inout [Float], start: Int, duration: Double) {
        let fs = Battery.sampleRate
        let n = Int((duration * fs).rounded())
        let parts = waveform.partials(fundamental: frequency * (1 + Self.largestRise(motion)))
        let rampN = max(1, Int(ramp * fs))
        var phase = 0.0
        for i in 0..<n where start + i < out.count {
            let t = Double(start + i) / fs
            let f: Double
            switch motion {
            case .steady: f = frequency
            case let .slide(by): f = frequency * (1 + by * Double(i) / Double(max(1, n - 1)))
            case let .warble(depth, rate): f = frequency * (1 + depth * sin(2 * Double.pi * rate * t))
            }
            var v = 0.0
            for p in parts { v += p.amplitude * sin(p.k * phase) }
            phase += 2 * Double.pi * f / fs
            if phase >= 2 * Double.pi { phase -= 2 * Double.pi }
            let edge = min(i, n - 1 - i)
            let g = edge < rampN ? 0.5 - 0.5 * cos(Double.pi * Double(edge) / Double(rampN)) : 1
            out[start + i] += Float(v * g)
        }
    }

    private static func largestRise(_ m: PitchMotion) -> Double {
        switch m {
        case .steady: 0
        case let .slide(by): max(0, by)
        case let .warble(depth, _): depth
        }
    }
}
