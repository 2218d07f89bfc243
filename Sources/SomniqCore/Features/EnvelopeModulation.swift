import RealModule

/// Share of a window's level envelope's AC power at 2–8 Hz: DFT bins 2…8 of its 62 short
/// frames at 64 Hz, the syllable rate of speech (4–5 Hz) and the beat of most music, where
/// a steady hum or hiss has none.
struct EnvelopeModulation {
    /// DFT basis for the level envelope (frames at 64 Hz), k = 1 … 30.
    private let cosines: [Float], sines: [Float]

    init() {
        let m = SubFrame.perWindow
        var c = [Float](), s = [Float]()
        for k in 1...30 {
            for j in 0..<m {
                let phase = 2 * Float.pi * Float(k * j) / Float(m)
                c.append(Float.cos(phase)); s.append(Float.sin(phase))
            }
        }
        cosines = c
        sines = s
    }

    /// `envelope`: the window's short-frame levels, dB, `SubFrame.perWindow` of them.
    func measure(_ envelope: UnsafeBufferPointer<Float>) -> Float {
        let m = SubFrame.perWindow
        var mean: Float = 0
        for i in 0..<m { mean += envelope[i] }
        mean /= Float(m)
        var total: Float = 0, band: Float = 0
        for k in 1...30 {
            var re: Float = 0, im: Float = 0
            let base = (k - 1) * m
            for j in 0..<m {
                let x = envelope[j] - mean
                re += x * cosines[base + j]
                im += x * sines[base + j]
            }
            let p = re * re + im * im
            total += p
            if (2...8).contains(k) { band += p }
        }
        return total > 1e-6 ? band / total : 0
    }
}
