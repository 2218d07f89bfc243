/// Event-based precision, recall and F1 with onset-only matching, computed exactly as
/// sed_eval 0.2's `EventBasedMetrics(event_label_list, t_collar, evaluate_onset=True,
/// evaluate_offset=False)` does with its default optimal matching (Mesaros et al. 2016, §3.2).
///
/// Within one file, an estimated event can match a reference event of the same class when
/// `|reference.onset − estimated.onset| ≤ collar`; offsets are ignored. Each event matches
/// at most one other, and the true positives of a class are the size of a maximum matching
/// of that bipartite graph, so one reference hit twice gives one TP and one FP. False
/// positives are the class's other estimates, false negatives its other references.
/// Counts are summed over files; the scores follow `ClassCounts`.
public struct EventBasedMetrics: Sendable {
    /// The evaluated classes, in the order given.
    public let labels: [String]
    /// Onset collar in seconds.
    public let collar: Double
    /// Counts per class, summed over the files added so far.
    public private(set) var classWise: [String: ClassCounts]
    /// Files added so far.
    public private(set) var files = 0

    private let index: [String: Int]

    public init(labels: [String], collar: Double = 1.0) throws(EvalError) {
        guard collar > 0, collar.isFinite else { throw .nonPositiveCollar(collar) }
        try EvalError.check(labels)
        self.labels = labels
        self.collar = collar
        self.index = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        self.classWise = Dictionary(uniqueKeysWithValues: labels.map { ($0, ClassCounts()) })
    }

    /// Scores one file. Throws, adding nothing, when an event has a class outside `labels`
    /// or bad times (sed_eval would count such events only in its overall numbers).
    public mutating func add(reference: [LabeledEvent], estimated: [LabeledEvent]) throws(EvalError) {
        try EvalError.check(reference, .reference, against: labels, index: index)
        try EvalError.check(estimated, .estimated, against: labels, index: index)
        for label in labels {
            let refs = reference.filter { $0.label == label }.map(\.onset)
            let ests = estimated.filter { $0.label == label }.map(\.onset)
            let hits = refs.map { r in ests.indices.filter { abs(r - ests[$0]) <= collar } }
            let tp = BipartiteMatching.maximumSize(adjacency: hits, rightCount: ests.count)
            classWise[label, default: ClassCounts()] += ClassCounts(tp: tp, fp: ests.count - tp, fn: refs.count - tp)
        }
        files += 1
    }

    /// Counts of every class together. Precision, recall and F1 equal sed_eval's "overall"
    /// scores; sed_eval's overall Nfp and Nfn differ when it also counts substitutions
    /// (a wrong-class estimate within the collar of a missed reference), which this does not.
    public var overall: ClassCounts { classWise.values.reduce(ClassCounts(), +) }

    /// sed_eval's "class-wise average" (macro) scores; see `EvalScores.classWiseAverage`.
    public var classWiseAverage: EvalScores { EvalScores.classWiseAverage(of: labels.map { classWise[$0]! }) }
}
