import RealModule

/// This home's fit (`somniq learn --home`, docs/home.md; issue 48 items 2 and 3): what the
/// home marked teaches what decides each class, recall as well as false alerts.
///
/// Per class, one number: a shift of the shipped score's log-odds, `s' = σ(logit(s) + shift)`,
/// which the alert processor's rule for the class then judges as it would the shipped score
/// (its `min_confidence`, `on`, debounce unchanged). The shift finds quieter sounds of the
/// class (a cough the shipped rules scored 0.5 where the profile alerts from 0.7). It is never
/// below 0: what the home marked "not this" its memory holds back, keeping the event in the
/// log, where a lower score would drop it, and with it the event a correction ("it was X")
/// logs as X (measured on the home protocol: allowed to lower, home 41's "it was X" user lost
/// recall as alerts, 0.527 to 0.473). Where the marks say a class's sounds are not it, the
/// marks against it keep its shift down, to 0. A score of 0 stays 0 and 1 stays 1, so that
/// silence never alerts.
///
/// The shift is a logistic regression whose offset is the shipped score's log-odds over the
/// line's (so that at shift 0 it decides as the shipped rules do, a window of the class where
/// it reaches the line), with an L2 penalty (`penalty`, one marked event's worth) pulling it
/// to 0: a home has few marks. Its examples are the windows of every marked event, each event
/// weighing 1 whatever its length: a window of an event whose class is known (marked right,
/// or "it was X") is an example of that class, and an example against every other; one
/// marked "not this" (or "something else") only against the class it was heard as.
///
/// Whether a class's shift is used is chosen by the home's own held-out marks, as the
/// memory's radius is (leave one night out; one recording or hour, or one event, when all are
/// of one night): each fold's shift is fitted without it, and its windows judged at the
/// profile's line for the class (`line`: the larger of `min_confidence` and `on`), weighted
/// as in the fit. The shift is used only where its held-out errors are fewer than the shipped
/// decision's on the same windows.
///
/// So a home can never lower a class, and each class's score goes to its own rule, so that a
/// raised class takes no alert from another. The smoke alarm, glass, a scream, a gasp and a
/// breathing pause are not fitted at all: nothing learned in a home scores them otherwise
/// than the shipped rules do, lower (a real scream missed) or higher (a snore raised to
/// glass). The text form of a fit that lowers a class, or fits one of those, is refused.
public struct HomeFit: Sendable, Equatable {
    /// The fit of one class.
    public struct ClassFit: Sendable, Equatable {
        public var soundClass: SoundClass
        /// The log-odds shift fitted on all the marks.
        public var shift: Double
        /// Whether the held-out marks chose it over the shipped decision.
        public var used: Bool
        /// Marked events it learned from: of this class (`right`), and against it (`against`).
        public var right: Int, against: Int
        /// Held-out errors, in events (each event's windows weighing 1 together), of the
        /// shipped decision and of the fit.
        public var shippedErrors: Double, fitErrors: Double

        /// The layer over the shipped scores of the classes this one's sounds were heard as
        /// (`Layer`), when the marks name any: nil, none fitted.
        public var layer: Layer?

        public var marks: Int { right + against }

        public init(soundClass: SoundClass, shift: Double, used: Bool, right: Int, against: Int, shippedErrors: Double, fitErrors: Double,
                    layer: Layer? = nil) {
            self.soundClass = soundClass
            self.shift = shift
            self.used = used
            self.right = right
            self.against = against
            self.shippedErrors = shippedErrors
            self.fitErrors = fitErrors
            self.layer = layer
        }
    }

    /// A logistic over a few shipped scores, for a class the shipped rules may score 0 where
    /// the home's sound is (a door heard only as a cough: "it was a door"): its inputs are
    /// the class's own score and those of the (at most `maxInputs` − 1) classes its marked
    /// sounds were most often heard as. Its log-odds `η = w₀ + Σ wᵢ·sᵢ` are over the line's:
    /// the class's score becomes the larger of the shifted score and `σ(logit(line) + η)`,
    /// so that a window reaches the line where the layer says the class is more likely than
    /// not, and never falls. The intercept is at most −`silenceMargin`, so that a window no
    /// class scores stays under the line.
    public struct Layer: Sendable, Equatable {
        public var inputs: [SoundClass]
        /// The intercept, then one weight per input.
        public var weights: [Double]
        /// The profile's line for the class it was fitted at.
        public var line: Double
        /// Whether the held-out marks chose it, and their errors with it (beside the shift, if used).
        public var used: Bool
        public var fitErrors: Double

        public init(inputs: [SoundClass], weights: [Double], line: Double, used: Bool, fitErrors: Double) {
            self.inputs = inputs
            self.weights = weights
            self.line = line
            self.used = used
            self.fitErrors = fitErrors
        }

        /// Its log-odds for a window's scores `x` (in class order).
        func eta(_ x: [Float]) -> Double {
            var e = weights[0]
            for (k, c) in inputs.enumerated() { e += weights[k + 1] * Double(x[c.index]) }
            return e
        }
    }

    /// The classes fitted, in class order (a class no mark says anything of is absent).
    public private(set) var classes: [ClassFit]
    /// How it was learned, in the file's `meta` lines (the first, `learned`, its time).
    public var header: [(key: String, value: String)]
    /// Per class index, the odds factor `exp(shift)` where the fit is used, else 1.
    private var factors: [Double]
    /// Per class index, the layer where it is used (its inputs' indices, its weights, the
    /// line's log-odds), else nil.
    private var layers: [(inputs: [Int], weights: [Double], logitLine: Double)?]

    public init(classes: [ClassFit], header: [(key: String, value: String)] = []) {
        self.classes = classes.sorted { $0.soundClass.index < $1.soundClass.index }
        self.header = header
        factors = [Double](repeating: 1, count: SoundClass.allCases.count)
        layers = Array(repeating: nil, count: SoundClass.allCases.count)
        for f in self.classes where f.used { factors[f.soundClass.index] = Double.exp(f.shift) }
        for f in self.classes {
            if let l = f.layer, l.used { layers[f.soundClass.index] = (l.inputs.map(\.index), l.weights, Self.logit(l.line)) }
        }
    }

    public static func == (a: HomeFit, b: HomeFit) -> Bool {
        a.classes == b.classes && a.header.map(\.key) == b.header.map(\.key) && a.header.map(\.value) == b.header.map(\.value)
    }

    /// The penalty on a shift's square, in marked events: one event's worth.
    public static let penalty = 1.0
    /// The largest shift fitted (a factor of about 400 on the odds).
    public static let maxShift = 6.0
    /// A layer reads at most this many scores (the class's own and those it was heard as).
    public static let maxInputs = 3
    /// A layer's intercept is at most minus this: silence scores σ(logit(line) − 2) at most.
    public static let silenceMargin = 2.0
    /// A layer's weights lie within ± this.
    public static let maxWeight = 20.0
    /// The penalty on a layer's input weights' squares, in marked events: a score lies within
    /// 0 and 1, so that a weight of 4 moves the log-odds by at most 4, the intercept's margin
    /// and a half; at `penalty` (1) four events marked alike, heard at 0.8, did not move it
    /// past the margin.
    public static let layerPenalty = 0.1

    /// The fit of class `c` when it is used (its shift, its layer, or both), else nil.
    public func use(_ c: SoundClass) -> ClassFit? {
        factors[c.index] == 1 && layers[c.index] == nil ? nil : classes.first { $0.soundClass == c }
    }

    /// Where this home's fit decided an event's class, for its trace: "decided with this
    /// home's fit for cough, learned 22 Nov from 14 marks".
    public struct Decided: Sendable, Equatable {
        public var soundClass: SoundClass
        public var shift: Double
        /// When the fit was learned (ISO 8601), and from how many marked events of the class and against it.
        public var learned: String?
        public var marks: Int

        public init(soundClass: SoundClass, shift: Double, learned: String?, marks: Int) {
            self.soundClass = soundClass
            self.shift = shift
            self.learned = learned
            self.marks = marks
        }
    }

    /// What an event of class `c` says of this fit, when it decides `c`.
    public func decided(_ c: SoundClass) -> Decided? {
        use(c).map { Decided(soundClass: c, shift: $0.used ? $0.shift : 0, learned: learned, marks: $0.marks) }
    }

    /// Whether any class's fit is used.
    public var acts: Bool { factors.contains { $0 != 1 } || layers.contains { $0 != nil } }

    /// Class `c`'s shipped score in `scores` as this home's fit scores it: shifted, and
    /// raised by its layer where one is used. Allocates nothing.
    @inline(__always)
    public func score(_ scores: ClassScores, _ c: SoundClass) -> Double {
        let shifted = score(Double(scores[c]), c)
        guard let l = layers[c.index] else { return shifted }
        var e = l.logitLine + l.weights[0]
        for k in 0..<l.inputs.count { e += l.weights[k + 1] * Double(scores.values[l.inputs[k]]) }
        return max(shifted, Self.sigmoid(e))
    }

    /// `raw`, the shipped score of class `c`, as this home's fit scores it. Allocates nothing.
    @inline(__always)
    public func score(_ raw: Double, _ c: SoundClass) -> Double {
        let k = factors[c.index]
        guard k != 1, raw > 0, raw < 1 else { return raw }
        let odds = raw * k
        return odds / (odds + 1 - raw)
    }

    /// A marked event as the fit learns it.
    public struct Example: Sendable {
        /// What it is left out with (its night, group, or itself: `HomeMemory.learn`'s folds).
        public var fold: String
        /// The class it was heard as, and what it was (nil: not that class, nothing more said).
        public var logged: SoundClass
        public var truth: SoundClass?
        /// Each window's shipped scores, in class order.
        public var windows: [[Float]]

        public init(fold: String, logged: SoundClass, truth: SoundClass?, windows: [[Float]]) {
            self.fold = fold
            self.logged = logged
            self.truth = truth
            self.windows = windows
        }
    }

    /// The fit of `marked` (their `scores`, in the order given: the same marks give the same
    /// fit), judged at `line(c)`, the profile's line for class `c`.
    public static func learn(_ marked: [HomeMemory.Marked], line: (SoundClass) -> Double) -> (HomeFit, by: String) {
        let usable = marked.filter { !$0.scores.isEmpty }
        let nights = Set(usable.map(\.night)), groups = Set(usable.compactMap(\.group))
        let by = nights.count > 1 ? "leave-one-night-out" : groups.count > 1 ? "leave-one-group-out" : "leave-one-event-out"
        let examples = usable.enumerated().map { k, m in
            Example(fold: by == "leave-one-night-out" ? m.night : by == "leave-one-group-out" ? (m.group ?? m.eventID) : "\(k)",
                    logged: m.soundClass, truth: m.right ? m.soundClass : m.was, windows: m.scores)
        }
        return (learn(examples, line: line), by)
    }

    /// The fit of `examples`, each class's shift used where the held-out folds chose it.
    public static func learn(_ examples: [Example], line: (SoundClass) -> Double) -> HomeFit {
        var fits: [ClassFit] = []
        // The alarm is decided by its pattern, and the critical classes are left as shipped:
        // raising one trades false critical alerts for recall (a home's marked glass breaks
        // would make its snorer's bright snores glass), and nothing a home teaches may.
        for c in SoundClass.allCases where !HomeMemory.untouchable.contains(c) && !HomeMemory.neverTaughtAway.contains(c) {
            let t = line(c)
            guard t > 0, t < 1 else { continue }
            // Each window's log-odds over the line's and whether it is of `c`, weighted so
            // that an event weighs 1.
            var rows: [(fold: Int, z: Double, s: Double, y: Bool, w: Double, x: [Float])] = []
            var right = 0, against = 0
            var foldIndex: [String: Int] = [:]
            // The classes its sounds were heard as ("it was c"), most often first: the layer's inputs.
            var heardAs: [SoundClass: Int] = [:]
            for e in examples where !e.windows.isEmpty && e.truth == c && e.logged != c { heardAs[e.logged, default: 0] += 1 }
            let inputs = [c] + heardAs.sorted { ($0.value, $1.key.index) > ($1.value, $0.key.index) }.prefix(maxInputs - 1).map(\.key)
            for e in examples where !e.windows.isEmpty {
                let y: Bool
                if let t = e.truth { y = t == c } else if e.logged == c { y = false } else { continue }
                // Counted against it: an event heard as it, or reaching its line. One of another
                // class that never reached it is not counted, but its windows stay: they keep a
                // shift from raising them over the line.
                if y { right += 1 } else if e.logged == c || e.windows.contains(where: { Double($0[c.index]) >= line(c) }) { against += 1 }
                let f = foldIndex[e.fold] ?? foldIndex.count
                foldIndex[e.fold] = f
                let w = 1 / Double(e.windows.count)
                for x in e.windows {
                    let s = Double(x[c.index])
                    rows.append((f, logit(s) - logit(t), s, y, w, x))
                }
            }
            // A class with no event of its own, or none against it, or one event only, is left
            // as shipped: nothing to learn its line from.
            guard right + against >= 2 else { continue }
            let all = fit(rows.map { ($0.z, $0.y, $0.w) })
            var shipped = 0.0, fitted = 0.0
            var folds: [(held: [Int], b: Double, layer: [Double]?)] = []
            for f in 0..<foldIndex.count {
                let held = rows.indices.filter { rows[$0].fold == f }
                guard !held.isEmpty else { continue }
                let others = rows.filter { $0.fold != f }
                let b = fit(others.map { ($0.z, $0.y, $0.w) })
                folds.append((held, b, inputs.count > 1 ? fitLayer(others.map { r in (inputs.map { Double(r.x[$0.index]) }, r.y, r.w) }) : nil))
                for r in held.map({ rows[$0] }) {
                    if (r.s >= t) != r.y { shipped += r.w }
                    if (shifted(r.s, by: b) >= t) != r.y { fitted += r.w }
                }
            }
            let used = all != 0 && fitted < shipped - 1e-9
            // The layer, where the marks name classes its sounds were heard as: judged beside
            // the shift as it will be used, and used where it makes fewer held-out errors still.
            var layer: Layer?
            if inputs.count > 1 {
                var layered = 0.0
                for fold in folds {
                    for r in fold.held.map({ rows[$0] }) {
                        let s = used ? shifted(r.s, by: fold.b) : r.s
                        let l = Layer(inputs: inputs, weights: fold.layer!, line: t, used: true, fitErrors: 0)
                        if (s >= t || l.eta(r.x) >= 0) != r.y { layered += r.w }
                    }
                }
                let weights = fitLayer(rows.map { r in (inputs.map { Double(r.x[$0.index]) }, r.y, r.w) })
                layer = Layer(inputs: inputs, weights: weights, line: t, used: layered < (used ? fitted : shipped) - 1e-9,
                              fitErrors: rounded(layered, 3))
            }
            fits.append(ClassFit(soundClass: c, shift: all, used: used, right: right, against: against,
                                 shippedErrors: rounded(shipped, 3), fitErrors: rounded(fitted, 3), layer: layer))
        }
        return HomeFit(classes: fits)
    }

    /// The shift minimising the weighted logistic loss of `rows` (log-odds over the line, whether of
    /// the class, weight) plus `penalty`/2 × shift², within [0, `maxShift`], by Newton's
    /// method (the loss is convex), rounded to 4 decimals so that the file's shift is the one used.
    static func fit(_ rows: [(z: Double, y: Bool, w: Double)]) -> Double {
        var b = 0.0
        for _ in 0..<100 {
            var g = penalty * b, h = penalty
            for r in rows where r.z.isFinite {
                let p = sigmoid(r.z + b)
                g += r.w * (p - (r.y ? 1 : 0))
                h += r.w * p * (1 - p)
            }
            let next = min(maxShift, max(0, b - g / h))
            if abs(next - b) < 1e-12 { b = next; break }
            b = next
        }
        return rounded(b, 4)
    }

    /// The layer's weights (intercept first) minimising the weighted logistic loss of `rows`
    /// (inputs, whether of the class, weight) plus `layerPenalty`/2 × each input weight's square,
    /// the intercept at most −`silenceMargin` and the weights within ±`maxWeight`, rounded to 4
    /// decimals. Newton's method on all the weights at once (the loss is convex; at most
    /// `maxInputs` + 1 of them, a small dense solve a step): the weights held at a bound the
    /// gradient pushes past stay there, the others take the Newton step, cut back by halves
    /// until the loss falls, and kept within the bounds. It converges in a handful of steps
    /// where one weight at a time took hundreds of sweeps (issue 48: 8 minutes of
    /// `learn --home` on a debug build).
    static func fitLayer(_ rows: [(x: [Double], y: Bool, w: Double)]) -> [Double] {
        guard let n = rows.first?.x.count else { return [] }
        let m = n + 1
        let lower = [Double](repeating: -maxWeight, count: m)
        var upper = [Double](repeating: maxWeight, count: m)
        upper[0] = -silenceMargin
        var theta = [Double](repeating: 0, count: m)
        theta[0] = -silenceMargin
        // A row's input j (0: the intercept's 1).
        func input(_ r: (x: [Double], y: Bool, w: Double), _ j: Int) -> Double { j == 0 ? 1 : r.x[j - 1] }
        func loss(_ t: [Double]) -> Double {
            var l = 0.0
            for j in 1..<m { l += layerPenalty / 2 * t[j] * t[j] }
            for r in rows {
                var e = t[0]
                for j in 1..<m { e += t[j] * r.x[j - 1] }
                // log(1 + exp(e)) − y·e, computed without overflow.
                l += r.w * ((e > 0 ? e + Double.log(1 + Double.exp(-e)) : Double.log(1 + Double.exp(e))) - (r.y ? e : 0))
            }
            return l
        }
        var current = loss(theta)
        for _ in 0..<100 {
            var g = [Double](repeating: 0, count: m), h = [Double](repeating: 0, count: m * m)
            for j in 1..<m {
                g[j] = layerPenalty * theta[j]
                h[j * m + j] = layerPenalty
            }
            for r in rows {
                var e = theta[0]
                for j in 1..<m { e += theta[j] * r.x[j - 1] }
                let p = sigmoid(e)
                let res = r.w * (p - (r.y ? 1 : 0)), d = r.w * p * (1 - p)
                for i in 0..<m {
                    let xi = input(r, i)
                    g[i] += res * xi
                    for j in 0...i { h[i * m + j] += d * xi * input(r, j) }
                }
            }
            // The weights free to move: not at a bound the gradient pushes past.
            let free = (0..<m).filter { !(theta[$0] <= lower[$0] && g[$0] > 0) && !(theta[$0] >= upper[$0] && g[$0] < 0) }
            guard !free.isEmpty else { break }
            // The Newton step of the free weights: the Hessian's free block (its lower
            // triangle filled, a trace of ridge so that an input no row varies still solves).
            let k = free.count
            var a = [Double](repeating: 0, count: k * k), step = [Double](repeating: 0, count: k)
            for (u, i) in free.enumerated() {
                step[u] = -g[i]
                for (v, j) in free.enumerated() { a[u * k + v] = i >= j ? h[i * m + j] : h[j * m + i] }
                a[u * k + u] += 1e-9
            }
            guard Self.solve(&a, &step, k) else { break }
            // Cut back by halves until the loss falls (within the bounds).
            var t = 1.0, next = theta, nextLoss = current
            for _ in 0..<40 {
                next = theta
                for (u, i) in free.enumerated() { next[i] = min(upper[i], max(lower[i], theta[i] + t * step[u])) }
                nextLoss = loss(next)
                if nextLoss <= current { break }
                t /= 2
            }
            guard nextLoss <= current else { break }
            let moved = zip(next, theta).map { abs($0 - $1) }.max() ?? 0
            theta = next
            current = nextLoss
            if moved < 1e-10 { break }
        }
        return theta.map { rounded($0, 4) }
    }

    /// Solves `a`·x = `b` (`a` k×k, symmetric positive definite) in place by Cholesky: `b`
    /// becomes x. False when `a` is not positive definite.
    static func solve(_ a: inout [Double], _ b: inout [Double], _ k: Int) -> Bool {
        for j in 0..<k {
            var d = a[j * k + j]
            for p in 0..<j { d -= a[j * k + p] * a[j * k + p] }
            guard d > 0 else { return false }
            let l = d.squareRoot()
            a[j * k + j] = l
            for i in (j + 1)..<max(j + 1, k) {
                var s = a[i * k + j]
                for p in 0..<j { s -= a[i * k + p] * a[j * k + p] }
                a[i * k + j] = s / l
            }
        }
        for i in 0..<k {
            var s = b[i]
            for p in 0..<i { s -= a[i * k + p] * b[p] }
            b[i] = s / a[i * k + i]
        }
        for i in stride(from: k - 1, through: 0, by: -1) {
            var s = b[i]
            for p in (i + 1)..<max(i + 1, k) { s -= a[p * k + i] * b[p] }
            b[i] = s / a[i * k + i]
        }
        return true
    }

    static func shifted(_ s: Double, by b: Double) -> Double {
        guard s > 0, s < 1 else { return s }
        let odds = s * Double.exp(b)
        return odds / (odds + 1 - s)
    }

    static func logit(_ s: Double) -> Double {
        s <= 0 ? -.infinity : s >= 1 ? .infinity : Double.log(s / (1 - s))
    }

    static func sigmoid(_ x: Double) -> Double { x >= 0 ? 1 / (1 + Double.exp(-x)) : Double.exp(x) / (1 + Double.exp(x)) }

    static func rounded(_ x: Double, _ places: Int) -> Double {
        let k = Double.pow(10, Double(places))
        return (x * k).rounded() / k
    }
}
