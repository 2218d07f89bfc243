import RealModule

/// The sound of the room around an alarm: one kind (a synthetic one, or a loop of a
/// recording) over a bed of pink noise, as the corpus mixes its scenes. Levels are set by
/// the caller; these are shapes, at an arbitrary scale.
public enum Background {
    /// Kinds the battery makes itself.
    public static let syntheticKinds = ["pink", "fan", "hum"]

    /// The pink-noise bed under every other kind: 4-14 dB below it (the corpus's pink
    /// -62..-46 dBFS under layers at -58..-44 dBFS). It also keeps a kind with nothing in
    /// an alarm's band (mains hum at 3 kHz) from needing an absurd gain to meet an SNR.
    public static let pinkBelowLayerDb = 4.0...14.0

    /// The loop's joins are crossfaded with equal power over this long (or a quarter of
    /// a short loop), so a join is no click.
    public static let loopCrossfade = 0.3

    /// `count` samples of `kind` with its pink bed, and what was drawn.
    public static func make(kind: String, count: Int, loops: [String: [[Float]]],
                            rng: inout SplitMix64) -> (samples: [Float], parameters: String) {
        if kind == "pink" { return (pink(count, rng: &rng), "pink noise") }
        var layer: [Float], what: String
        let files = loops[kind] ?? []
        if kind == "hum" {
            (layer, what) = hum(count, rng: &rng)
        } else if kind == "fan", files.isEmpty || rng.chance(0.5) {
            (layer, what) = fan(count, rng: &rng)
        } else {
            let i = rng.int(0...files.count - 1)
            (layer, what) = (loop(files[i], count: count, rng: &rng), "\(kind) loop \(i + 1) of \(files.count)")
        }
        let below = rng.uniform(pinkBelowLayerDb)
        let bed = pink(count, rng: &rng)
        let g = Float(Level.rms(layer) / max(Level.rms(bed), 1e-30) * Level.gain(db: -below))
        for i in 0..<count { layer[i] += g * bed[i] }
        return (layer, what + " + pink \(fixed(below, 1)) dB below")
    }

    /// Pink noise, -3 dB per octave: white noise through Paul Kellet's refined filter
    /// (accurate to ±0.05 dB above 9 Hz at 44.1 kHz; at 16 kHz the same within the band).
    public static func pink(_ count: Int, rng: inout SplitMix64) -> [Float] {
        var b = [Double](repeating: 0, count: 7)
        var out = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let w = rng.gaussian()
            b[0] = 0.99886 * b[0] + w * 0.0555179
            b[1] = 0.99332 * b[1] + w * 0.0750759
            b[2] = 0.96900 * b[2] + w * 0.1538520
            b[3] = 0.86650 * b[3] + w * 0.3104856
            b[4] = 0.55000 * b[4] + w * 0.5329522
            b[5] = -0.7616 * b[5] - w * 0.0168980
            out[i] = Float((b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + w * 0.5362) * 0.11)
            b[6] = w * 0.115926
        }
        return out
    }

    /// A box fan: the blade-pass tone (3-5 blades at 10-25 rev/s: 38-110 Hz) and 2-7 of its
    /// harmonics, the motor's hum at twice the mains frequency, broadband air noise
    /// low-passed at 2.5-6.5 kHz, and a slow beat in its level (0.1-0.5 Hz, 5-20 %).
    public static func fan(_ count: Int, rng: inout SplitMix64) -> ([Float], String) {
        let fs = Battery.sampleRate
        let blade = rng.uniform(38...110), harmonics = rng.int(2...7)
        let motor = rng.chance(0.5) ? 100.0 : 120.0
        let cutoff = rng.uniform(2500...6500)
        let amRate = rng.uniform(0.1...0.5), amDepth = rng.uniform(0.05...0.2)
        let toneDb = rng.uniform(-20...(-8)), motorDb = rng.uniform(-30...(-15))
        var noise = (0..<count).map { _ in Float(rng.gaussian()) }
        var lp = Biquad(.lowPass(q: 0.7071), frequency: cutoff)
        lp.process(&noise)
        let noiseRMS = Level.rms(noise)
        let phases = (0...harmonics).map { _ in rng.uniform(0...(2 * Double.pi)) }
        let tone = Level.gain(db: toneDb) * noiseRMS * sqrt(2), hum = Level.gain(db: motorDb) * noiseRMS * sqrt(2)
        let amPhase = rng.uniform(0...(2 * Double.pi))
        var out = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let t = Double(i) / fs
            var v = Double(noise[i])
            for k in 1...(harmonics + 1) {
                v += tone / Double(k) * sin(2 * Double.pi * blade * Double(k) * t + phases[k - 1])
            }
            v += hum * sin(2 * Double.pi * motor * t)
            out[i] = Float(v * (1 + amDepth * sin(2 * Double.pi * amRate * t + amPhase)))
        }
        return (out, "synthetic fan (blade \(fixed(blade, 0)) Hz + \(harmonics) harmonics \(fixed(toneDb, 0)) dB, motor \(fixed(motor, 0)) Hz, low-pass \(fixed(cutoff, 0)) Hz, AM \(fixed(amRate, 2)) Hz \(fixed(amDepth * 100, 0)) %)")
    }

    /// Mains hum: 50 or 60 Hz and 3-20 harmonics, the odd ones stronger (transformer and
    /// rectifier), each falling as 1/k with a random spread of ±6 dB.
    public static func hum(_ count: Int, rng: inout SplitMix64) -> ([Float], String) {
        let (out, f, n) = humTone(count, rng: &rng, harmonics: 3...20)
        return (out, "mains hum \(fixed(f, 0)) Hz + \(n) harmonics")
    }

    static func humTone(_ count: Int, rng: inout SplitMix64, harmonics: ClosedRange<Int>) -> ([Float], Double, Int) {
        let fs = Battery.sampleRate
        let f = rng.chance(0.5) ? 50.0 : 60.0
        let n = rng.int(harmonics)
        var amps: [Double] = [], phases: [Double] = []
        for k in 1...(n + 1) {
            let parity: Double = k % 2 == 1 ? 1.0 : 0.35
            let spread: Double = Level.gain(db: rng.uniform(-6.0...6.0))
            amps.append(parity / Double(k) * spread)
            phases.append(rng.uniform(0.0...(2 * Double.pi)))
        }
        var out = [Float](repeating: 0, count: count)
        for i in 0..<count {
            let t = Double(i) / fs
            var v = 0.0
            let w: Double = 2 * Double.pi * f * t
            for k in 0..<amps.count { v += amps[k] * sin(w * Double(k + 1) + phases[k]) }
            out[i] = Float(v)
        }
        return (out, f, n)
    }

    /// `count` samples of `source` looped from a random start, its joins crossfaded.
    public static func loop(_ source: [Float], count: Int, rng: inout SplitMix64) -> [Float] {
        let fade = min(Int(loopCrossfade * Battery.sampleRate), source.count / 4)
        let m = source.count - fade
        guard m > 0 else { return [Float](repeating: 0, count: count) }
        // One period of the seamless loop: source[fade..<L], its last `fade` samples faded
        // into source[0..<fade], which would follow them.
        var period = Array(source[fade...])
        for k in 0..<fade {
            let a = Double.pi / 2 * Double(k) / Double(fade)
            period[m - fade + k] = Float(Double(source[m + k]) * cos(a) + Double(source[k]) * sin(a))
        }
        let start = rng.int(0...m - 1)
        return (0..<count).map { period[(start + $0) % m] }
    }
}
