/// Which classes were sounding when: the events the alert processor has started and
/// ended, kept until every minute they overlap has been summed.
struct ClassActivity: Sendable {
    private var open: [String: (soundClass: SoundClass, onset: Double)] = [:]
    private var closed: [(soundClass: SoundClass, onset: Double, offset: Double)] = []

    mutating func add(_ output: AlertOutput) {
        switch output {
        case let .start(e): open[e.id] = (e.soundClass, e.onset)
        case let .end(e):
            open[e.id] = nil
            closed.append((e.soundClass, e.onset, e.offset))
        }
    }

    /// Seconds of [start, end) covered by each class's events (indexed by `SoundClass.index`).
    /// An event still open is taken to last past `end`: this is asked once every class
    /// has been decided beyond it.
    func seconds(from start: Double, to end: Double) -> [Double] {
        var out = [Double](repeating: 0, count: SoundClass.allCases.count)
        func add(_ c: SoundClass, _ onset: Double, _ offset: Double) {
            out[c.index] += max(0, min(offset, end) - max(onset, start))
        }
        for e in closed { add(e.soundClass, e.onset, e.offset) }
        for e in open.values { add(e.soundClass, e.onset, end) }
        // Overlapping events of one class (a reload) count once at most.
        return out.map { min($0, end - start) }
    }

    /// Forgets closed events that end before `time`.
    mutating func forget(before time: Double) {
        closed.removeAll { $0.offset < time }
    }
}
