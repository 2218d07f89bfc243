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

    private var ring: Ring<Entry>

    init(capacity: Int) {
        ring = Ring(capacity: capacity) { Entry() }
    }

    var isFull: Bool { ring.isFull }
    var count: Int { ring.count }

    /// Appends a decided window's features and scores (copied into the ring), with its
    /// breathing score before snoring.
    mutating func append(_ f: WindowFeatures, _ s: ClassScores, breathing: Float) {
        ring.append { e in
            e.features = f
            for k in s.values.indices { e.scores.values[k] = s.values[k] }
            e.scores[.breathing] = breathing
        }
    }

    /// Raises `c` to at least `score` in every window held from window `first` on.
    mutating func raise(_ c: SoundClass, to score: Float, from first: Int) {
        change(c, from: first) { max($0, score) }
    }

    /// Lowers `c` to at most `score` in every window held from window `first` on.
    mutating func lower(_ c: SoundClass, to score: Float, from first: Int) {
        change(c, from: first) { min($0, score) }
    }

    private mutating func change(_ c: SoundClass, from first: Int, _ f: (Float) -> Float) {
        for k in 0..<ring.count {
            ring.update(k) { e in if e.features.index >= first { e.scores[c] = f(e.scores[c]) } }
        }
    }

    /// Removes the oldest window, writing its final scores into `s`, and returns its features.
    mutating func releaseOldest(into s: inout ClassScores) -> WindowFeatures {
        var f = WindowFeatures()
        ring.update(0) { e in
            for k in s.values.indices { s.values[k] = e.scores.values[k] }
            f = e.features
        }
        s[.breathing] *= 1 - s[.snoring]
        ring.dropOldest()
        return f
    }
}
