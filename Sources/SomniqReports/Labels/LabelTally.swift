import SomniqCore
import SomniqSupport

/// How often each class was marked right and wrong (`somniq label`), per ISO week of the
/// nights labelled (`undated` for recordings replayed without a start time): what
/// `somniq history` prints under its table once a label is given.
public struct LabelTally: Sendable {
    public struct Row: Sendable, Equatable {
        /// `2026-W47`, or `undated`.
        public var week: String
        public var soundClass: SoundClass
        /// Labels that confirmed the class, and those that said it was something else.
        public var right = 0, wrong = 0
    }

    public var rows: [Row]

    public init(_ book: LabelBook) {
        var byKey: [String: Row] = [:]
        for l in book.labels {
            let week = History.day(l.night).map { History.period(of: $0, .week) } ?? "undated"
            let key = week + " " + l.soundClass.rawValue
            var row = byKey[key] ?? Row(week: week, soundClass: l.soundClass)
            if l.verdict.confirms(l.soundClass) { row.right += 1 } else if l.verdict.denies(l.soundClass) { row.wrong += 1 }
            byKey[key] = row
        }
        rows = byKey.values.sorted { ($0.week, $0.soundClass.index) < ($1.week, $1.soundClass.index) }
    }

    /// The table, or "" with no label.
    public func table() -> String {
        guard !rows.isEmpty else { return "" }
        var out = ["marked (somniq label)", padded("week", 10) + padded("class", 14) + padded("right", 7) + padded("wrong", 7) + "right %"]
        for r in rows {
            let n = r.right + r.wrong
            out.append(padded(r.week, 10) + padded(r.soundClass.rawValue, 14) + padded("\(r.right)", 7) + padded("\(r.wrong)", 7)
                       + (n > 0 ? "\(Int((100 * Double(r.right) / Double(n)).rounded()))" : "-"))
        }
        return out.joined(separator: "\n") + "\n"
    }
}
