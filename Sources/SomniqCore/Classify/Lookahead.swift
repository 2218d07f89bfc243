/// The windows the classifier has seen but not yet decided: a fixed ring of the
/// newest `capacity` windows with their instantaneous rules, allocated once.
///
/// Some sounds can only be named once a little of what follows is heard: a shout
/// that stops at once is a scream, the same shout followed by more cries is a baby
/// crying. So the classifier decides each window `Classifier.lookahead` windows late,
/// with those later windows in view. Stream times are unaffected (every decision is
/// stamped with its own window's time); only the live alert comes that much later.
struct Lookahead: Sendable {
    struct Entry: Sendable {
        var features: WindowFeatures
        var rules: Rules
    }

    private var ring: [Entry]
    private var head = 0                    // the oldest entry
    private(set) var count = 0

    init(capacity: Int) {
        ring = [Entry](repeating: Entry(features: WindowFeatures(), rules: Rules(WindowFeatures())), count: capacity)
    }

    var capacity: Int { ring.count }
    var isFull: Bool { count == ring.count }

    /// The `k`-th window after the oldest (0: the oldest itself); nil past the newest.
    subscript(k: Int) -> Entry? {
        k < count ? ring[(head + k) % ring.count] : nil
    }

    mutating func append(_ e: Entry) {
        precondition(!isFull, "decide the oldest window before appending")
        ring[(head + count) % ring.count] = e
        count += 1
    }

    mutating func dropOldest() {
        head = (head + 1) % ring.count
        count -= 1
    }
}
