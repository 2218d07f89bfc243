/// A fixed ring of at most `capacity` elements, oldest first, allocated once: the
/// windows the classifier holds (`Lookahead`, `TrainBacklog`). Elements are changed in
/// place, so a ring of scores is never copied on the hot path.
struct Ring<Element: Sendable>: Sendable {
    private var storage: [Element]
    private var head = 0                    // the oldest element
    private(set) var count = 0

    /// `empty` makes each slot (its own storage) until an element is appended there.
    init(capacity: Int, empty: () -> Element) {
        storage = (0..<capacity).map { _ in empty() }
    }

    var isFull: Bool { count == storage.count }

    private func slot(_ k: Int) -> Int { (head + k) % storage.count }

    /// The `k`-th element after the oldest (0: the oldest itself); nil past the newest.
    subscript(k: Int) -> Element? {
        k < count ? storage[slot(k)] : nil
    }

    /// Changes the `k`-th element after the oldest in place.
    mutating func update(_ k: Int, _ change: (inout Element) -> Void) {
        precondition(k < count, "no element \(k) in a ring of \(count)")
        change(&storage[slot(k)])
    }

    mutating func append(_ e: Element) { append { $0 = e } }

    /// Appends by overwriting the free slot after the newest in place.
    mutating func append(_ fill: (inout Element) -> Void) {
        precondition(!isFull, "drop the oldest element before appending")
        fill(&storage[slot(count)])
        count += 1
    }

    mutating func dropOldest() {
        precondition(count > 0, "nothing to drop")
        head = slot(1)
        count -= 1
    }
}
