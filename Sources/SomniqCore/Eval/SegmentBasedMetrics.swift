/// Segment-based precision, recall and F1, computed exactly as sed_eval 0.2's
/// `SegmentBasedMetrics(event_label_list, time_resolution)` does (Mesaros et al. 2016, §3.1).
///
/// Each file is cut into `resolution`-second segments, and a class is active in a segment
/// of the reference (or of the estimate) when any of its events touches it: an event marks
/// segments `floor(onset / resolution) ..< ceil(offset / resolution)`. A file lasts
/// `ceil(L / resolution)` segments, where L is the latest offset in either list (0 when both
/// are empty), or the length given to `add`. Per class and segment: both active is a true
/// positive, only estimated a false positive, only in the reference a false negative.
/// Counts are summed over files; the scores follow `ClassCounts`.
public struct SegmentBasedMetrics: Sendable {
    /// The evaluated classes, in the order given.
    public let labels: [String]
    /// Segment length in seconds.
    public let resolution: Double
    /// Counts per class, summed over the files added so far.
    public private(set) var classWise: [String: ClassCounts]
    /// Files added so far.
    public private(set) var files = 0
    /// The longest file scored: a week of audio, in seconds.
    public static let longestFile = 7 * 86400.0

    /// Sum of the files' evaluated lengths, in seconds.
    public private(set) var evaluatedSeconds = 0.0

    private let index: [String: Int]

    public init(labels: [String], resolution: Double = 1.0) throws(EvalError) {
        guard resolution > 0, resolution.isFinite else { throw .nonPositiveResolution(resolution) }
        try EvalError.check(labels)
        self.labels = labels
        self.resolution = resolution
        self.index = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })
        self.classWise = Dictionary(uniqueKeysWithValues: labels.map { ($0, ClassCounts()) })
    }

    /// Scores one file. `evaluatedLength` (seconds) is sed_eval's `evaluated_length_seconds`:
    /// when nil, the file ends at the latest offset of either list. Throws, adding nothing,
    /// when an event has a class outside `labels` (sed_eval raises there too) or bad times.
    public mutating func add(reference: [LabeledEvent], estimated: [LabeledEvent],
                             evaluatedLength: Double? = nil) throws(EvalError) {
        if let l = evaluatedLength, !(l.isFinite && l >= 0) { throw .invalidLength(l) }
        try EvalError.check(reference, .reference, against: labels, index: index)
        try EvalError.check(estimated, .estimated, against: labels, index: index)
        let length = evaluatedLength ?? (reference + estimated).reduce(0.0) { max($0, $1.offset) }
        // One slot per segment and class: a wrong time must be an error, not gigabytes.
        guard length <= Self.longestFile else { throw .tooLong(length) }
        let segments = Int((length / resolution).rounded(.up))
        let referenceRoll = roll(reference, segments: segments)
        let estimatedRoll = roll(estimated, segments: segments)
        for (c, label) in labels.enumerated() {
            var counts = ClassCounts()
            for s in 0..<segments {
                switch (referenceRoll[c][s], estimatedRoll[c][s]) {
                case (true, true): counts.tp += 1
                case (false, true): counts.fp += 1
                case (true, false): counts.fn += 1
                case (false, false): break
                }
            }
            classWise[label, default: ClassCounts()] += counts
        }
        files += 1
        evaluatedSeconds += length
    }

    /// Counts of every class together: the micro average sed_eval calls "overall".
    public var overall: ClassCounts { classWise.values.reduce(ClassCounts(), +) }

    /// sed_eval's "class-wise average" (macro) scores; see `EvalScores.classWiseAverage`.
    public var classWiseAverage: EvalScores { EvalScores.classWiseAverage(of: labels.map { classWise[$0]! }) }

    /// Activity of each class (by label index) in each of `segments` segments.
    private func roll(_ events: [LabeledEvent], segments: Int) -> [[Bool]] {
        var roll = [[Bool]](repeating: [Bool](repeating: false, count: segments), count: labels.count)
        for e in events {
            let first = Int((e.onset / resolution).rounded(.down))
            let end = min(Int((e.offset / resolution).rounded(.up)), segments)
            guard first < end else { continue }
            let c = index[e.label]!
            for s in first..<end { roll[c][s] = true }
        }
        return roll
    }
}
