/// Fitting a `HomeMemory` from the events the listener marked (`somniq learn --home`).
extension HomeMemory {
    /// One marked event: its class as logged, what it was said to be, and the learned
    /// inputs of the windows its class's score carried it on.
    public struct Marked: Sendable {
        public var eventID: String
        /// The night it belongs to: the radius is chosen leaving out one night at a time.
        public var night: String
        /// What it is left out with when every label is of one night: its recording, or the
        /// hour it was heard in (nil: itself). Sounds of one recording or one hour are often
        /// the same sound again (one dog's barking); judged beside its own repeats, an event
        /// would be found like a marked one more easily than a sound of another night is.
        public var group: String?
        public var soundClass: SoundClass
        /// True: the event's class was right; false: it was not this class.
        public var right: Bool
        /// The class it was said to be instead, when one was named (a "right" memory of it).
        public var was: SoundClass?
        public var at: String?
        /// The windows remembered: those that carried the event.
        public var windows: [[Float]]
        /// The windows from its onset to its confirmation: what the memory judges a new event
        /// by, so what a held-out event is judged by when the radius is chosen (empty: `windows`).
        public var opening: [[Float]]
        /// The shipped scores (`ClassScores.values`) of the windows of its span, at most
        /// `HomeSounds.maxWindows` evenly spread, those that carried it or not: what this
        /// home's fit learns from (`HomeFit`; empty: it teaches the fit nothing).
        public var scores: [[Float]]

        public init(eventID: String, night: String, group: String? = nil, soundClass: SoundClass, right: Bool, was: SoundClass? = nil,
                    at: String?, windows: [[Float]], opening: [[Float]] = [], scores: [[Float]] = []) {
            self.eventID = eventID
            self.night = night
            self.group = group
            self.soundClass = soundClass
            self.right = right
            self.was = was
            self.at = at
            self.windows = windows
            self.opening = opening
            self.scores = scores
        }
    }

    /// How the radius and the ratio were chosen, to be said in the file and by the command.
    public struct RadiusChoice: Sendable, Equatable {
        /// `leave-one-night-out`; with every label of one night, `leave-one-group-out` (each
        /// recording or hour left out in turn, `Marked.group`), or `leave-one-event-out`.
        public var by: String
        /// Marked false alerts held out (of the classes the memory may hold back), and how many the choice holds back (judged by their
        /// opening windows against the memories of the other folds).
        public var falseAlerts = 0, removed = 0
        /// Confirmed events held out, and the distance at which the first of them would be
        /// held back at the chosen ratio (the radius stays below it).
        public var confirmed = 0
        public var firstConfirmed: Float?
        public var radius: Float = 0
        public var ratio: Float = 1
        /// Marked events left out, the oldest, for the memory to stay within its limit (`maxWindows`).
        public var forgotten = 0
        /// True when no held-out false alert could be held back (the first marks), so that the
        /// corpus's prior acts instead (`HomePrior`: its radius and scaling), short of the
        /// first held-out confirmed event.
        public var prior = false
    }

    /// The most windows a memory keeps: about 2.8 kB of text each, 20 000 stay under the
    /// 64 MiB its reader takes (`HomeMemoryFile.maxBytes`). At the 24 windows an event keeps
    /// at most, that is 830 marked events or more.
    public static let maxWindows = 20_000

    /// The memory of `marked`, with its radius and ratio chosen by leave-one-night-out
    /// (leave one group out when all the labels are of one night, one event out when they
    /// are of one group): each held-out event is judged as a new one would be (by its
    /// opening windows) against the memories of the other folds, giving its distance to the
    /// nearest "not" and the nearest "right" memory of its class. For each ratio a held-out
    /// false alert could be held back at (its own distance ratio, 1 at most), the radius
    /// stops short of the first held-out confirmed event it would hold back; the pair that
    /// holds back the most held-out false alerts wins, the smallest ratio and radius among
    /// equals. Classes a memory never touches (the alarm) are left out, and the marked events
    /// of a class it never holds back (`neverTaughtAway`) are remembered but neither choose
    /// nor limit the radius and ratio. When that holds back
    /// no held-out false alert (one or two marks, or none alike yet), the memory is the
    /// corpus's prior (`HomePrior`): its scaling, its radius (short of the first held-out
    /// confirmed event), ratio 1; the cross-validated choice takes over once it holds back one.
    public static func learn(_ marked: [Marked], keeping limit: Int = maxWindows) -> (HomeMemory, RadiusChoice) {
        let usable = marked.filter { !untouchable.contains($0.soundClass) && !$0.windows.isEmpty }
        // The newest events first, as many as the memory's file may hold: older ones are forgotten.
        var kept: [Marked] = [], windows = 0
        for m in usable.sorted(by: { ($0.night, $0.at ?? "", $0.eventID) > ($1.night, $1.at ?? "", $1.eventID) }) {
            let n = m.windows.count * (m.was.map { $0 != m.soundClass && !untouchable.contains($0) } == true ? 2 : 1)
            guard windows + n <= limit else { break }
            kept.append(m)
            windows += n
        }
        kept.reverse()
        var entries: [Entry] = []
        // Which events each entry came from, to leave them out together.
        var origin: [Int] = []
        for (k, m) in kept.enumerated() {
            for w in m.windows {
                entries.append(Entry(kind: m.right ? .right : .not, soundClass: m.soundClass, eventID: m.eventID, at: m.at, inputs: w,
                                     was: m.right ? nil : m.was))
                origin.append(k)
                if let was = m.was, was != m.soundClass, !untouchable.contains(was) {
                    entries.append(Entry(kind: .right, soundClass: was, eventID: m.eventID, at: m.at, inputs: w))
                    origin.append(k)
                }
            }
        }
        var memory = HomeMemory(entries: entries, radius: 0)
        let nights = Set(kept.map(\.night)), groups = Set(kept.compactMap(\.group))
        let by = nights.count > 1 ? "leave-one-night-out" : groups.count > 1 ? "leave-one-group-out" : "leave-one-event-out"
        var choice = RadiusChoice(by: by)
        choice.forgotten = usable.count - kept.count
        // The fold of each event: its night, its group, or itself.
        let fold: (Int) -> String = {
            switch by {
            case "leave-one-night-out": kept[$0].night
            case "leave-one-group-out": kept[$0].group ?? kept[$0].eventID
            default: "\($0)"
            }
        }
        // Each held-out event's nearest "not" and "right" distances, from the other folds.
        // Only those of a class the memory may hold back: a glass break, a scream, a gasp or
        // a breathing pause is never held back, so a false one cannot be caught, nor a
        // confirmed one harmed, by any radius (counted, home 51's three false gasps, far from
        // any confirmed gasp, chose ratio 0: a memory that held back nothing it may).
        func heldOut(_ memory: HomeMemory) -> [(not: Float, right: Float, confirmed: Bool)] {
            let zs = entries.map { memory.standardised($0.inputs) }
            var held: [(not: Float, right: Float, confirmed: Bool)] = []
            for (k, m) in kept.enumerated() where !neverTaughtAway.contains(m.soundClass) {
                let f = fold(k)
                let others: (Int) -> Bool = { fold(origin[$0]) != f }
                var not = Float.infinity, right = Float.infinity
                for w in m.opening.isEmpty ? m.windows : m.opening {
                    let d = memory.distances(w, m.soundClass, standardised: zs, keep: others)
                    not = min(not, d.not ?? .infinity)
                    right = min(right, d.right ?? .infinity)
                }
                held.append((not, right, m.right))
            }
            return held
        }
        let held = heldOut(memory)
        choice.confirmed = held.count { $0.confirmed }
        choice.falseAlerts = held.count - choice.confirmed
        let ratios = Set(held.filter { !$0.confirmed && $0.not.isFinite }.map { $0.right.isFinite ? $0.not / $0.right : 0 }.filter { $0 <= 1 })
        for q in ratios.sorted() {
            let harm = held.filter { $0.confirmed && nearer($0.not, $0.right, ratio: q) }.map(\.not).min() ?? .infinity
            let caught = held.filter { !$0.confirmed && nearer($0.not, $0.right, ratio: q) && $0.not < harm }.map(\.not)
            if caught.count > choice.removed {
                choice.removed = caught.count
                choice.ratio = q
                // Just past the farthest it holds back: a radius of 0 holds back nothing, and a
                // sound the very same as one marked (a recording replayed) lies at 0.
                choice.radius = caught.max()!.nextUp
                choice.firstConfirmed = harm.isFinite ? harm : nil
            }
        }
        if choice.removed == 0 {
            choice.firstConfirmed = held.filter { $0.confirmed && nearer($0.not, $0.right, ratio: 1) }.map(\.not).min()
            // Nothing held out was held back (the first marks, or none alike yet): the prior
            // acts, in its own scaling, stopping short of the first held-out confirmed event.
            if let prior = HomePrior.scaling, choice.falseAlerts > 0 {
                var first = HomeMemory(entries: entries, radius: 0, ratio: 1, mean: prior.mean, spread: prior.spread, header: [])
                let harm = heldOut(first).filter { $0.confirmed && nearer($0.not, $0.right, ratio: 1) }.map(\.not).min()
                first.radius = min(HomePrior.radius, harm?.nextDown ?? .infinity)
                if first.radius > 0 {
                    choice.prior = true
                    choice.radius = first.radius
                    choice.ratio = 1
                    choice.firstConfirmed = harm
                    return (first, choice)
                }
            }
        }
        memory.radius = choice.radius
        memory.ratio = choice.ratio
        return (memory, choice)
    }

    /// The nearest "not" and "right" memories of class `c` among the entries `keep` admits (by index).
    func distances(_ x: [Float], _ c: SoundClass, standardised zs: [[Float]], keep: (Int) -> Bool) -> (not: Float?, right: Float?) {
        let z = standardised(x)
        let d = Float(max(1, z.count))
        var not: Float?, right: Float?
        for (k, e) in entries.enumerated() where e.soundClass == c && keep(k) {
            let m = zs[k]
            var s: Float = 0
            for i in 0..<z.count { let t = z[i] - m[i]; s += t * t }
            let dist = (s / d).squareRoot()
            switch e.kind {
            case .not: not = min(not ?? .infinity, dist)
            case .right: right = min(right ?? .infinity, dist)
            }
        }
        return (not, right)
    }
}
