/// Precision, recall and F1 as sed_eval 0.2 reports them (Mesaros, Heittola & Virtanen,
/// "Metrics for polyphonic sound event detection", Applied Sciences 6(6):162, 2016).
///
/// sed_eval returns NaN, not an eps-smoothed value, where a ratio has no denominator:
/// precision is NaN when nothing was estimated, recall is NaN when nothing was in the
/// reference, and F1 is NaN whenever either is NaN, except that F1 is 0 when both are 0.
public struct EvalScores: Sendable {
    public var precision: Double
    public var recall: Double
    public var f1: Double

    public init(precision: Double, recall: Double, f1: Double) {
        self.precision = precision
        self.recall = recall
        self.f1 = f1
    }

    /// sed_eval's class-wise average: `numpy.nanmean` of each score over the classes,
    /// so a class whose score is NaN is left out of that average (NaN if all are).
    public static func classWiseAverage<C: Collection>(of counts: C) -> EvalScores where C.Element == ClassCounts {
        EvalScores(precision: nanMean(counts.map(\.precision)),
                   recall: nanMean(counts.map(\.recall)),
                   f1: nanMean(counts.map(\.f1)))
    }

    private static func nanMean(_ values: [Double]) -> Double {
        let defined = values.filter { !$0.isNaN }
        return defined.isEmpty ? .nan : defined.reduce(0, +) / Double(defined.count)
    }
}

/// True positives, false positives and false negatives of one class (or of all classes),
/// counted in segments by `SegmentBasedMetrics` and in events by `EventBasedMetrics`.
public struct ClassCounts: Sendable, Equatable {
    public var tp: Int
    public var fp: Int
    public var fn: Int

    public init(tp: Int = 0, fp: Int = 0, fn: Int = 0) {
        self.tp = tp
        self.fp = fp
        self.fn = fn
    }

    /// Reference segments or events (sed_eval's `Nref`).
    public var nref: Int { tp + fn }
    /// Estimated segments or events (sed_eval's `Nsys`).
    public var nsys: Int { tp + fp }

    /// `tp / nsys`, NaN when `nsys` is 0.
    public var precision: Double { nsys == 0 ? .nan : Double(tp) / Double(nsys) }
    /// `tp / nref`, NaN when `nref` is 0.
    public var recall: Double { nref == 0 ? .nan : Double(tp) / Double(nref) }
    /// `2·P·R / (P + R)`; 0 when P and R are both 0, NaN when either is NaN.
    public var f1: Double {
        let p = precision, r = recall
        if p == 0 && r == 0 { return 0 }
        return 2 * p * r / (p + r)
    }

    public var scores: EvalScores { EvalScores(precision: precision, recall: recall, f1: f1) }

    public static func + (a: ClassCounts, b: ClassCounts) -> ClassCounts {
        ClassCounts(tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn)
    }

    public static func += (a: inout ClassCounts, b: ClassCounts) { a = a + b }
}
