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

        public var marks: Int { right + against }

        public init(soundClass: SoundClass, shift: Double, used: Bool, right: Int, against: Int, shippedErrors: Double, fitErrors: Double) {
            self.soundClass = soundClass
            self.shift = shift
            self.used = used
            self.right = right
            self.against = against
            self.shippedErrors = shippedErrors
            self.fitErrors = fitErrors
        }
    }

    /// The classes fitted, in class order (a class no mark says anything of is absent).
    public private(set) var classes: [ClassFit]
    /// How it was learned, in the file's `meta` lines (the first, `learned`, its time).
    public var header: [(key: String, value: String)]
    /// Per class index, the odds factor `exp(shift)` where the fit is used, else 1.
    private var factors: [Double]

    public init(classes: [ClassFit], header: [(key: String, value: String)] = []) {
        self.classes = classes.sorted { $0.soundClass.index < $1.soundClass.index }
        self.header = header
        factors = [Double](repeating: 1, count: SoundClass.allCases.count)
        for f in self.classes where f.used { factors[f.soundClass.index] = Double.exp(f.shift) }
    }

    public static func == (a: HomeFit, b: HomeFit) -> Bool {
        a.classes == b.classes && a.header.map(\.key) == b.header.map(\.key) && a.header.map(\.value) == b.header.map(\.value)
    }

    /// The penalty on a shift's square, in marked events: one event's worth.
    public static let penalty = 1.0
    /// The largest shift fitted (a factor of about 400 on the odds).
    public static let maxShift = 6.0

    /// The fit of class `c` when it is used, else nil.
    public func use(_ c: SoundClass) -> ClassFit? {
        factors[c.index] == 1 ? nil : classes.first { $0.soundClass == c }
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
        use(c).map { Decided(soundClass: c, shift: $0.shift, learned: learned, marks: $0.marks) }
    }

    /// Whether any class's fit is used.
    public var acts: Bool { factors.contains { $0 != 1 } }

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
            var rows: [(fold: Int, z: Double, s: Double, y: Bool, w: Double)] = []
            var right = 0, against = 0
            var foldIndex: [String: Int] = [:]
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
                    rows.append((f, logit(s) - logit(t), s, y, w))
                }
            }
            // A class with no event of its own, or none against it, or one event only, is left
            // as shipped: nothing to learn its line from.
            guard right + against >= 2 else { continue }
            let all = fit(rows.map { ($0.z, $0.y, $0.w) })
            var shipped = 0.0, fitted = 0.0
            for f in 0..<foldIndex.count {
                let held = rows.filter { $0.fold == f }
                guard !held.isEmpty else { continue }
                let b = fit(rows.filter { $0.fold != f }.map { ($0.z, $0.y, $0.w) })
                for r in held {
                    if (r.s >= t) != r.y { shipped += r.w }
                    if (shifted(r.s, by: b) >= t) != r.y { fitted += r.w }
                }
            }
            fits.append(ClassFit(soundClass: c, shift: all, used: all != 0 && fitted < shipped - 1e-9, right: right, against: against,
                                 shippedErrors: rounded(shipped, 3), fitErrors: rounded(fitted, 3)))
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
