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
        /// Per layer, the steps of its output (after the pool) that reach the head: the last
        /// layer's decided window, and before it what the next layer's kernels read of it.
        /// Nothing else is computed: the rest of each row keeps whatever it held.
        private let needed: [Range<Int>]
        /// The steps of the input the first layer's needed steps read.
        private let inputNeeded: Range<Int>
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
            var lengths: [Int] = []
            length = SpectrogramNet.steps
            for c in net.convs { lengths.append(length); length /= c.pool }
            var want = (length - net.windowSteps)..<length
            var needed = [Range<Int>](repeating: 0..<0, count: net.convs.count)
            for k in net.convs.indices.reversed() {
                let c = net.convs[k]
                needed[k] = want
                want = max(0, want.lowerBound * c.pool - c.reach)..<min(lengths[k], want.upperBound * c.pool + c.reach)
            }
            self.needed = needed
            inputNeeded = want
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
            let net = self.net, starts = self.starts, needed = self.needed
            var loudest = -Float.infinity
            for x in context { loudest = max(loudest, x) }
            var length = steps
            activations.withUnsafeMutableBufferPointer { a in
                // The input, relative to the context's loudest level, band-major.
                let first = net.convs[0]
                let width = steps + 2 * first.reach
                context.withUnsafeBufferPointer { c in
                    for t in inputNeeded {
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
                    Self.run(c, input, length: length, steps: needed[k], into: output, rowWidth: length / c.pool + 2 * next, at: next)
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

        /// One layer over its input (`length` steps), its ReLU and max-pool written to `out` for
        /// the output steps `steps`: each output channel a row of `rowWidth`, starting at `at`.
        ///
        /// Four output channels and eight steps at a time, their sums held in registers over
        /// every input channel and tap: each input step read is used four times, each weight
        /// eight. Each sum still starts at the bias and adds its products input by input, tap
        /// by tap, as the plain loop does: the same bits.
        private static func run(_ c: Conv, _ x: UnsafeBufferPointer<Float>, length: Int, steps: Range<Int>,
                                into out: UnsafeMutableBufferPointer<Float>, rowWidth: Int, at: Int) {
            let width = length + 2 * c.reach
            let from = steps.lowerBound * c.pool, span = steps.count * c.pool
            let lanes = Lanes.scalarCount, stride = c.inputs * c.kernel
            let step = c.dilation * MemoryLayout<Float>.stride, rowBytes = width * MemoryLayout<Float>.stride
            c.weights.withUnsafeBufferPointer { weights in
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * span) { acc in
                    let w = weights.baseAddress!, a = acc.baseAddress!
                    var o = 0
                    while o < c.outputs {
                        let rows = min(4, c.outputs - o)
                        if rows == 4 && span >= lanes {
                            var t = 0
                            while t < span {
                                let t0 = min(t, span - lanes)     // the last block may overlap: the same sums again
                                var a0 = Lanes(repeating: c.bias[o]), a1 = Lanes(repeating: c.bias[o + 1])
                                var a2 = Lanes(repeating: c.bias[o + 2]), a3 = Lanes(repeating: c.bias[o + 3])
                                // Pointers stepped along: no index to compute or check per tap.
                                var input = UnsafeRawPointer(x.baseAddress! + from + t0)
                                var tap = w + o * stride
                                for _ in 0..<c.inputs {
                                    var at = input
                                    for j in 0..<c.kernel {
                                        let v = at.loadUnaligned(as: Lanes.self)
                                        a0 += Lanes(repeating: tap[j]) * v
                                        a1 += Lanes(repeating: tap[stride &+ j]) * v
                                        a2 += Lanes(repeating: tap[2 &* stride &+ j]) * v
                                        a3 += Lanes(repeating: tap[3 &* stride &+ j]) * v
                                        at += step
                                    }
                                    input += rowBytes
                                    tap += c.kernel
                                }
                                UnsafeMutableRawPointer(a + t0).storeBytes(of: a0, as: Lanes.self)
                                UnsafeMutableRawPointer(a + span + t0).storeBytes(of: a1, as: Lanes.self)
                                UnsafeMutableRawPointer(a + 2 * span + t0).storeBytes(of: a2, as: Lanes.self)
                                UnsafeMutableRawPointer(a + 3 * span + t0).storeBytes(of: a3, as: Lanes.self)
                                t += lanes
                            }
                        } else {
                            for q in 0..<rows {
                                let sum = a + q * span
                                for t in 0..<span { sum[t] = c.bias[o + q] }
                                for i in 0..<c.inputs {
                                    let row = x.baseAddress! + i * width + from
                                    for j in 0..<c.kernel {
                                        let tap = w[(o + q) * stride + i * c.kernel + j]
                                        let input = row + j * c.dilation
                                        for t in 0..<span { sum[t] += tap * input[t] }
                                    }
                                }
                            }
                        }
                        for q in 0..<rows {
                            var sum = a + q * span
                            let row = out.baseAddress! + (o + q) * rowWidth + at
                            for s in steps {
                                var m: Float = 0                // the ReLU: the max with 0
                                for p in 0..<c.pool { m = max(m, sum[p]) }
                                row[s] = m
                                sum += c.pool
                            }
                        }
                        o += rows
                    }
                }
            }
        }

        private typealias Lanes = SIMD8<Float>
    }
}
