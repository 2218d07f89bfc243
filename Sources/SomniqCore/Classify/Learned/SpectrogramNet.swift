import RealModule

/// A small convolutional network over the log-mel spectrogram of the last 2 s, fitted by
/// `tools/learn/train.py` beside the learned rules' trees: its per-class outputs are inputs of
/// the trees (`n_<class>@k` in `LearnedInputs`), so it changes a class's decision only where
/// the trees, cross-validated and checked on `check/`, found it worth weighing in.
///
/// Its input is `contextWindows` windows' new halves (`WindowFeatures.mel`): 64 rows of 31 ms
/// by 32 mel bands, the newest last, each level taken relative to the loudest of the 2 s and
/// clipped `floorDb` below it (so the microphone's gain does not enter), scaled to [-1, 1].
/// Then 1-D convolutions over time, the bands as channels (a temporal convolutional network):
/// each `Conv` a kernel with a dilation and zero padding that keeps the length, a ReLU and
/// a max-pool over time; then the mean and the maximum of each channel over the decided
/// window's own steps (its last second), a linear layer and a logistic per class.
///
/// Evaluated with nothing allocated: `Runner` owns every buffer. The file's weights are the
/// only copy (`rules/learned.txt`, `network` lines).
public struct SpectrogramNet: Sendable {
    /// Windows of context: 2 s at the 0.5 s hop.
    public static let contextWindows = 4
    public static let steps = contextWindows * MelBands.steps
    public static let bands = MelBands.count
    /// How far below the context's loudest level the input is clipped, dB.
    public static let floorDb: Float = 60

    static let maxChannels = 512, maxKernel = 15, maxDilation = 64, maxPool = 8

    struct Conv: Sendable {
        var inputs: Int, outputs: Int, kernel: Int, dilation: Int, pool: Int
        /// `outputs × inputs × kernel`, then one bias per output.
        var weights: [Float], bias: [Float]
        var reach: Int { kernel / 2 * dilation }
    }

    /// The classes of its outputs, in order.
    public let classes: [SoundClass]
    let convs: [Conv]
    /// `classes.count × 2·channels` (means, then maxima), then one bias per class.
    let head: [Float], headBias: [Float]

    public var parameters: Int { convs.reduce(head.count + headBias.count) { $0 + $1.weights.count + $1.bias.count } }

    /// Multiply-adds per evaluation.
    public var multiplyAdds: Int {
        var length = Self.steps, total = 0
        for c in convs { total += length * c.outputs * c.inputs * c.kernel; length /= c.pool }
        return total + head.count
    }

    /// The steps of the last layer that are the decided window's own (its last second).
    var windowSteps: Int { convs.reduce(2 * MelBands.steps) { $0 / $1.pool } }

    init(classes: [SoundClass], convs: [Conv], head: [Float], headBias: [Float]) throws(ShapeError) {
        guard let first = convs.first, first.inputs == Self.bands else { throw ShapeError("the first layer must take \(Self.bands) mel bands") }
        var length = Self.steps, channels = Self.bands
        for (k, c) in convs.enumerated() {
            // Far past any network for 2 s of 32 bands, so that a damaged file cannot ask for
            // buffers of gigabytes.
            guard c.outputs <= Self.maxChannels, c.kernel <= Self.maxKernel, c.dilation <= Self.maxDilation, c.pool <= Self.maxPool else {
                throw ShapeError("layer \(k + 1) is larger than \(Self.maxChannels) channels, a kernel of \(Self.maxKernel), a dilation of \(Self.maxDilation) or a pool of \(Self.maxPool)")
            }
            guard c.inputs == channels, c.outputs > 0, c.kernel % 2 == 1, c.dilation >= 1, c.pool >= 1, length % c.pool == 0,
                  c.weights.count == c.outputs * c.inputs * c.kernel, c.bias.count == c.outputs
            else { throw ShapeError("layer \(k + 1)'s shape does not follow the one before it") }
            channels = c.outputs
            length /= c.pool
        }
        guard !classes.isEmpty, head.count == classes.count * 2 * channels, headBias.count == classes.count,
              (2 * MelBands.steps) % (Self.steps / length) == 0
        else { throw ShapeError("the head's shape does not follow the last layer") }
        self.classes = classes
        self.convs = convs
        self.head = head
        self.headBias = headBias
    }

    struct ShapeError: Error {
        let problem: String
        init(_ problem: String) { self.problem = problem }
    }

    /// The network with its buffers: the last `contextWindows` windows' mel rows and each
    /// layer's activations.
    public struct Runner: Sendable {
        public let net: SpectrogramNet
        /// `steps × bands`, oldest row first.
        private var context: [Float]
        /// Every layer's input, then the last layer's output, one after the other: layer `k`'s
        /// input is `inputs` rows of `reach + length + reach` (zeros either side) from `starts[k]`.
        private var activations: [Float]
        private let starts: [Int]
        private var pooled: [Float]
        /// The latest outputs, per class of `net.classes`.
        public private(set) var outputs: [Float]
        /// Per output, its class's place in `LearnedRules.candidates`.
        private let slots: [Int]

        public init(_ net: SpectrogramNet) {
            self.net = net
            context = [Float](repeating: Decibels.silence, count: SpectrogramNet.steps * SpectrogramNet.bands)
            var length = SpectrogramNet.steps, starts: [Int] = [], total = 0
            for c in net.convs {
                starts.append(total)
                total += c.inputs * (length + 2 * c.reach)
                length /= c.pool
            }
            starts.append(total)
            total += net.convs.last!.outputs * length
            self.starts = starts
            activations = [Float](repeating: 0, count: total)
            pooled = [Float](repeating: 0, count: 2 * net.convs.last!.outputs)
            outputs = [Float](repeating: 0, count: net.classes.count)
            slots = net.classes.map { LearnedRules.candidates.firstIndex(of: $0)! }
        }

        /// Hears a window: adds its mel rows to the context and, when it stands out of the
        /// floor, writes the network's outputs to `f.net`. Only such a window is worth the
        /// network's time: the learned rules' gate (`Classifier.decideLearned`) scores any
        /// other nothing.
        public mutating func listen(_ f: inout WindowFeatures) {
            push(f.mel)
            guard ramp(f.peakSnrDb, up: Cues.audibleDb) > 0 else { return }
            evaluate()
            for (k, slot) in slots.enumerated() { f.net[slot] = outputs[k] }
        }

        /// Adds a window's mel rows to the context (every window, heard or not).
        public mutating func push(_ mel: InlineArray<512, Float>) {
            let n = MelBands.perWindow, kept = context.count - n
            context.withUnsafeMutableBufferPointer { c in
                let base = c.baseAddress!
                for i in 0..<kept { base[i] = base[i + n] }
                withUnsafeBytes(of: mel) { rows in
                    let new = rows.assumingMemoryBound(to: Float.self)
                    for i in 0..<n { base[kept + i] = new[i] }
                }
            }
        }

        /// The network's outputs for the context as it stands.
        public mutating func evaluate() {
            let steps = SpectrogramNet.steps, bands = SpectrogramNet.bands
            let net = self.net, starts = self.starts
            var loudest = -Float.infinity
            for x in context { loudest = max(loudest, x) }
            var length = steps
            activations.withUnsafeMutableBufferPointer { a in
                // The input, relative to the context's loudest level, band-major.
                let first = net.convs[0]
                let width = steps + 2 * first.reach
                context.withUnsafeBufferPointer { c in
                    for t in 0..<steps {
                        for b in 0..<bands {
                            let level = max(c[t * bands + b] - loudest, -SpectrogramNet.floorDb)
                            a[b * width + first.reach + t] = level / (SpectrogramNet.floorDb / 2) + 1
                        }
                    }
                }
                for k in net.convs.indices {
                    let c = net.convs[k]
                    let input = UnsafeBufferPointer(rebasing: a[starts[k]..<starts[k + 1]])
                    let output = UnsafeMutableBufferPointer(rebasing: a[starts[k + 1]...])
                    let next = k + 1 < net.convs.count ? net.convs[k + 1].reach : 0
                    Self.run(c, input, length: length, into: output, rowWidth: length / c.pool + 2 * next, at: next)
                    length /= c.pool
                }
            }
            // Mean and maximum of each channel over the decided window's steps.
            let channels = net.convs.last!.outputs, own = net.windowSteps, last = starts[net.convs.count]
            for ch in 0..<channels {
                var sum: Float = 0, top = -Float.infinity
                for t in (length - own)..<length {
                    let v = activations[last + ch * length + t]
                    sum += v
                    top = max(top, v)
                }
                pooled[ch] = sum / Float(own)
                pooled[channels + ch] = top
            }
            for j in 0..<net.classes.count {
                var z = net.headBias[j]
                for i in 0..<(2 * channels) { z += net.head[j * 2 * channels + i] * pooled[i] }
                outputs[j] = 1 / (1 + Float.exp(-z))
            }
        }

        /// One layer over its input (`length` steps), its ReLU and max-pool written to `out`:
        /// each output channel a row of `rowWidth`, starting at `at`.
        private static func run(_ c: Conv, _ x: UnsafeBufferPointer<Float>, length: Int,
                                into out: UnsafeMutableBufferPointer<Float>, rowWidth: Int, at: Int) {
            let width = length + 2 * c.reach
            let outLength = length / c.pool
            c.weights.withUnsafeBufferPointer { w in
                // One output row at a time in scratch: the taps sweep whole rows (vectorised).
                withUnsafeTemporaryAllocation(of: Float.self, capacity: length) { acc in
                    for o in 0..<c.outputs {
                        acc.update(repeating: c.bias[o])
                        for i in 0..<c.inputs {
                            let row = x.baseAddress! + i * width
                            for j in 0..<c.kernel {
                                let tap = w[(o * c.inputs + i) * c.kernel + j]
                                let from = row + j * c.dilation
                                for t in 0..<length { acc[t] += tap * from[t] }
                            }
                        }
                        for t in 0..<outLength {
                            var m: Float = 0                // the ReLU: the max with 0
                            for p in 0..<c.pool { m = max(m, acc[t * c.pool + p]) }
                            out[o * rowWidth + at + t] = m
                        }
                    }
                }
            }
        }
    }
}
