/// Windows decided for every class but the trains (snoring, breathing), whose scores may
/// still rise: a fixed ring of the newest `capacity` decided windows, allocated once.
///
/// A snore or a calm breath alone is nothing yet; the next one, a breath later, makes
/// the first the start of snoring or breathing. So those two classes are decided
/// `Classifier.trainDelay` windows after the others, long enough for the second snore
/// to come and raise the windows from the first one on. Likewise a train is held after
/// each snore until the next is due; when none comes, the windows since the last one are
/// lowered again, so snoring ends with its last snore. Stream times are unaffected;
/// only their live alerts come that much later, which neither needs to be prompt.
struct TrainBacklog: Sendable {
    struct Entry: Sendable {
        var features = WindowFeatures()
        /// Final scores, except breathing, which is held as it was before snoring was
        /// known: during snoring the breaths belong to the snores.
        var scores = ClassScores()
    }

    private var ring: [Entry]
    private var head = 0                    // the oldest entry
    private(set) var count = 0

    init(capacity: Int) {
        ring = [Entry](repeating: Entry(), count: capacity)
        for i in ring.indices { ring[i].scores = ClassScores() }      // each its own storage
    }

    var isFull: Bool { count == ring.count }

    /// Appends a decided window's features and scores (copied into the ring), with its
    /// breathing score before snoring.
    mutating func append(_ f: WindowFeatures, _ s: ClassScores, breathing: Float) {
        precondition(!isFull, "release the oldest window before appending")
        let i = (head + count) % ring.count
        ring[i].features = f
        for k in s.values.indices { ring[i].scores.values[k] = s.values[k] }
        ring[i].scores[.breathing] = breathing
        count += 1
    }

    /// Raises `c` to at least `score` in every window held from window `first` on.
    mutating func raise(_ c: SoundClass, to score: Float, from first: Int) {
        for k in 0..<count {
            let i = (head + k) % ring.count
            if ring[i].features.index >= first { ring[i].scores[c] = max(ring[i].scores[c], score) }
        }
    }

    /// Lowers `c` to at most `score` in every window held from window `first` on.
    mutating func lower(_ c: SoundClass, to score: Float, from first: Int) {
        for k in 0..<count {
            let i = (head + k) % ring.count
            if ring[i].features.index >= first { ring[i].scores[c] = min(ring[i].scores[c], score) }
        }
    }

    /// Removes the oldest window, writing its final scores into `s`, and returns its features.
    mutating func releaseOldest(into s: inout ClassScores) -> WindowFeatures {
        precondition(count > 0, "nothing to release")
        for k in s.values.indices { s.values[k] = ring[head].scores.values[k] }
        s[.breathing] *= 1 - s[.snoring]
        let f = ring[head].features
        head = (head + 1) % ring.count
        count -= 1
        return f
    }
}
