import RealModule

/// The window's log-mel spectrogram, the spectrogram network's input (`SpectrogramNet`): 32
/// triangular bands, equally spaced on the mel scale (HTK's, 2595·log10(1 + f/700)), from
/// 50 Hz to 7.6 kHz, over the power spectrum each short frame already has. The network needs
/// no finer resolution: 32 to 64 bands is what small sound-event networks use (the DCASE
/// baselines use 40 and 64), and below 120 Hz or above 7 kHz a small microphone passes little.
///
/// A window hands on the frames it does not share with the window before (its last 0.5 s,
/// 32 frames), two to a step of 31 ms: `steps` rows of `count` levels, in dB.
struct MelBands {
    static let count = 32
    static let lowHz: Float = 50
    static let highHz: Float = 7_600
    /// Rows a window adds: its new frames, two to a row.
    static let steps = (SubFrame.perWindow - SubFrame.shared) / 2
    /// Levels a window adds: `steps` rows of `count` bands.
    static let perWindow = steps * count

    /// Per band, its first bin and where its weights start in `weights`.
    private let firstBin: [Int]
    private let offset: [Int]
    private let weights: [Float]

    init(bins: Int, binHz: Float) {
        func mel(_ hz: Float) -> Float { 2595 * Float.log10(1 + hz / 700) }
        func hz(_ mel: Float) -> Float { 700 * (Float.pow(10, mel / 2595) - 1) }
        let low = mel(Self.lowHz), high = mel(Self.highHz)
        let edges = (0...(Self.count + 1)).map { hz(low + (high - low) * Float($0) / Float(Self.count + 1)) }
        var first: [Int] = [], offset: [Int] = [], weights: [Float] = []
        for b in 0..<Self.count {
            let (l, c, h) = (edges[b], edges[b + 1], edges[b + 2])
            let from = max(1, Int((l / binHz).rounded(.up))), to = min(bins - 1, Int((h / binHz).rounded(.down)))
            first.append(from)
            offset.append(weights.count)
            for k in from...max(from, to) {
                let f = Float(k) * binHz
                weights.append(max(0, f <= c ? (f - l) / (c - l) : (h - f) / (h - c)))
            }
        }
        offset.append(weights.count)
        firstBin = first
        self.offset = offset
        self.weights = weights
    }

    /// Adds each band's power in `power` (a frame's scaled spectrum) to `out[0..<count]`.
    func add(_ power: UnsafeBufferPointer<Float>, to out: UnsafeMutableBufferPointer<Float>) {
        weights.withUnsafeBufferPointer { w in
            firstBin.withUnsafeBufferPointer { first in
                offset.withUnsafeBufferPointer { offset in
                    // Pointers walk a band's weights and bins side by side: no index to compute
                    // or check per multiply-add, the sum's order unchanged.
                    for b in 0..<Self.count {
                        var sum: Float = 0
                        let n = offset[b + 1] &- offset[b]
                        let weight = w.baseAddress! + offset[b], bin = power.baseAddress! + first[b]
                        var j = 0
                        while j < n {
                            sum += weight[j] * bin[j]
                            j &+= 1
                        }
                        out[b] += sum
                    }
                }
            }
        }
    }
}
