/// Wrong parameters or events given to `SegmentBasedMetrics` or `EventBasedMetrics`.
public enum EvalError: Error, Equatable, CustomStringConvertible {
    /// Which of the two event lists an event came from.
    public enum Side: String, Sendable { case reference, estimated }

    case nonPositiveResolution(Double)
    case nonPositiveCollar(Double)
    case invalidLength(Double)
    case tooLong(Double)
    case duplicateLabel(String)
    case unknownLabel(String, side: Side, labels: [String])
    case invalidTimes(LabeledEvent, side: Side)

    public var description: String {
        switch self {
        case let .nonPositiveResolution(r): "the segment length (\(r) s) must be positive"
        case let .nonPositiveCollar(c): "the onset collar (\(c) s) must be positive"
        case let .invalidLength(l): "the evaluated length (\(l) s) must be a finite number of seconds, not negative"
        case let .tooLong(l): "the file would be scored over \(l) s; one recording is at most a week (\(SegmentBasedMetrics.longestFile) s)"
        case let .duplicateLabel(l): "the class \"\(l)\" is listed twice"
        case let .unknownLabel(l, side, labels):
            "\(side.rawValue) class \"\(l)\" is not one of the evaluated classes (\(labels.joined(separator: ", ")))"
        case let .invalidTimes(e, side):
            "\(side.rawValue) \(e.label) event has onset \(e.onset) s and offset \(e.offset) s; "
                + "times must be finite, onset not negative and offset not before onset"
        }
    }

    static func check(_ labels: [String]) throws(EvalError) {
        var seen = Set<String>()
        for label in labels where !seen.insert(label).inserted { throw .duplicateLabel(label) }
    }

    static func check(_ events: [LabeledEvent], _ side: Side, against labels: [String],
                      index: [String: Int]) throws(EvalError) {
        for e in events {
            guard index[e.label] != nil else { throw .unknownLabel(e.label, side: side, labels: labels) }
            guard e.onset.isFinite, e.offset.isFinite, e.onset >= 0, e.offset >= e.onset else {
                throw .invalidTimes(e, side: side)
            }
        }
    }
}
