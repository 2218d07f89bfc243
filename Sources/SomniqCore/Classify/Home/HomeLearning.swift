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

    /// How one class's radius and ratio were chosen, to be said by the command.
    public struct ClassChoice: Sendable, Equatable {
        public var soundClass: SoundClass
        /// Its marked false alerts held out, and how many its radius and ratio hold back (0
        /// when the prior decides it).
        public var falseAlerts = 0, removed = 0
        /// Its confirmed events held out, and the distance at which the first of them would
        /// be held back at its ratio (the radius of the marked sound it lies near stays below it).
        public var confirmed = 0
        public var firstConfirmed: Float?
        /// Its marked sounds ("not this"), and how many of them a held-out confirmed event
        /// limits to a radius of their own, less than the class's.
        public var marks = 0, capped = 0
        public var radius: Float = 0
        public var ratio: Float = 1
        /// True when the corpus's prior decides the class (`HomePrior`: its radius and
        /// scaling, short of the class's first held-out confirmed event): fewer than
        /// `fewestMarks` of its events were marked "not", or the pair held back no held-out
        /// false alert at all.
        public var prior = false

        public init(soundClass: SoundClass) { self.soundClass = soundClass }
    }

    /// How the radius and the ratio of each class were chosen, to be said by the command.
    public struct RadiusChoice: Sendable, Equatable {
        /// `leave-one-night-out`; with every label of one night, `leave-one-group-out` (each
        /// recording or hour left out in turn, `Marked.group`), or `leave-one-event-out`.
        public var by: String
        /// Marked false alerts held out (of the classes the memory may hold back), and how
        /// many the classes' radii and the ratio hold back (judged by their opening windows
        /// against the memories of the other folds).
        public var falseAlerts = 0, removed = 0
        /// Confirmed events held out (of those classes).
        public var confirmed = 0
        /// Each class marked "not" that the memory may hold back, in `SoundClass` order.
        public var classes: [ClassChoice] = []
        /// Marked events left out, the oldest, for the memory to stay within its limit (`maxWindows`).
        public var forgotten = 0
        /// True when the corpus's prior decides some class.
        public var prior: Bool { classes.contains(where: \.prior) }

        public init(by: String) { self.by = by }
    }

    /// The most windows a memory keeps: about 2.8 kB of text each, 20 000 stay under the
    /// 64 MiB its reader takes (`HomeMemoryFile.maxBytes`). At the 24 windows an event keeps
    /// at most, that is 830 marked events or more.
    public static let maxWindows = 20_000

    /// The memory of `marked`, with a radius and ratio for each class chosen by
    /// leave-one-night-out (leave one group out when all the labels are of one night, one
    /// event out when they are of one group): each held-out event is judged as a new one
    /// would be (by its opening windows) against the memories of the other folds, giving its
    /// distance to each marked sound ("not") and to the nearest "right" memory of its class.
    /// For each ratio a held-out false alert could be held back at (its own distance ratio, 1
    /// at most), each marked sound's radius stops short of the first held-out confirmed event
    /// of its class it would hold back (`caps`), and the others' is just past the farthest
    /// held-out false alert held back; the pair that holds back the most held-out false
    /// alerts wins, the smallest ratio and radius among equals (`choose`), and the radius is
    /// widened by `radiusMargin` (a confirmed event within it still keeps its mark short of
    /// it); a class with fewer than `fewConfirmed` held-out confirmed events keeps a ratio of
    /// at most `fewConfirmedRatio`. So a confirmed thunder near a "not thunder" mark keeps that
    /// mark's radius under it, and limits no other mark's, of thunder or any other class. Classes a
    /// memory never touches (the alarm) are left out, and the marked events of a class it
    /// never holds back (`neverTaughtAway`) are remembered but choose no radius. A class with
    /// fewer than `fewestMarks` events marked "not" (one mark), or every class when the pair
    /// holds back no held-out false alert (the first marks, or none alike yet), is judged by
    /// the corpus's prior (`HomePrior`): its scaling, its radius (short of the class's first
    /// held-out confirmed event), ratio 1. Each class the held-out marks chose a radius for
    /// weighs its inputs by how well they tell its "not" windows from its "right" ones
    /// (`fisherWeights`): in the choice, each fold's events by the other folds' windows; in the
    /// memory, by all of them.
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
        let heard = heardAs(kept)
        var entries: [Entry] = []
        // Which events each entry came from, to leave them out together.
        var origin: [Int] = []
        for (k, m) in kept.enumerated() {
            for w in m.windows {
                entries.append(Entry(kind: m.right ? .right : .not, soundClass: m.soundClass, eventID: m.eventID, at: m.at, inputs: w,
                                     was: m.right ? nil : m.was ?? heard[k], heard: m.was == nil))
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
        // Weighted (`weighted`, the memory's own scaling): each fold's events are judged with
        // the class's weights of the other folds' windows (`fisherWeights`), as a new night's
        // are with those of every night before it.
        func heldOut(_ memory: HomeMemory, weighted: Bool) -> [HeldOut] {
            let zs = entries.map { memory.standardised($0.inputs) }
            var held: [HeldOut] = [], foldWeights: [String: [Float]] = [:]
            for (k, m) in kept.enumerated() where !neverTaughtAway.contains(m.soundClass) {
                let f = fold(k)
                let others: (Int) -> Bool = { fold(origin[$0]) != f }
                var weights: [Float] = []
                if weighted {
                    let key = f + " " + m.soundClass.rawValue
                    if foldWeights[key] == nil { foldWeights[key] = memory.fisherWeights(m.soundClass, standardised: zs, keep: others) ?? [] }
                    weights = foldWeights[key]!
                }
                var marks: [Int: Float] = [:], right = Float.infinity
                for w in m.opening.isEmpty ? m.windows : m.opening {
                    let d = memory.distances(w, m.soundClass, standardised: zs, keep: others, origin: origin, weights: weights)
                    marks.merge(d.not, uniquingKeysWith: min)
                    right = min(right, d.right ?? .infinity)
                }
                held.append(HeldOut(soundClass: m.soundClass, marks: marks, right: right, confirmed: m.right))
            }
            return held
        }
        let held = heldOut(memory, weighted: true)
        choice.confirmed = held.count { $0.confirmed }
        choice.falseAlerts = held.count - choice.confirmed
        // Judged in the corpus's scaling, for the classes the prior decides.
        let prior = HomePrior.scaling
        let priorHeld = prior.map { heldOut(HomeMemory(entries: entries, radius: 0, ratio: 1, mean: $0.mean, spread: $0.spread, header: []), weighted: false) }
        // One pair for every class, each marked sound's radius stopping short of the first
        // held-out confirmed event of its class near it: a confirmed thunder near a "not
        // thunder" memory keeps that memory's radius under it, and no other's.
        let shared = Self.choose(held)
        var radii: [SoundClass: ClassRadius] = [:]
        let notMarks = Dictionary(kept.filter { !$0.right && !neverTaughtAway.contains($0.soundClass) }.map { ($0.soundClass, 1) }, uniquingKeysWith: +)
        var caps: [SoundClass: [String: Float]] = [:]
        for c in notMarks.keys.sorted(by: { $0.index < $1.index }) {
            var pick = ClassChoice(soundClass: c)
            let own = held.filter { $0.soundClass == c }
            pick.confirmed = own.count { $0.confirmed }
            pick.falseAlerts = own.count - pick.confirmed
            pick.marks = notMarks[c, default: 0]
            if shared.removed > 0, notMarks[c, default: 0] >= Self.fewestMarks {
                // A class with fewer than `fewConfirmed` held-out confirmed events has too few
                // to keep its marks short of its true sounds: its marks hold back only what lies
                // clearly nearer them than any sound of the class marked right.
                pick.ratio = pick.confirmed < Self.fewConfirmed ? min(shared.ratio, Self.fewConfirmedRatio) : shared.ratio
                pick.radius = shared.radius * Self.radiusMargin
                // Each marked sound a held-out confirmed event lay within the radius of keeps
                // a radius short of it; the class's other marked sounds keep the class's.
                for (k, d) in shared.caps where kept[k].soundClass == c && d.nextDown < pick.radius {
                    caps[c, default: [:]][kept[k].eventID] = max(0, d.nextDown)
                    pick.capped += 1
                    pick.firstConfirmed = min(pick.firstConfirmed ?? .infinity, d)
                }
                pick.removed = own.count { !$0.confirmed && Self.caught($0, radius: pick.radius, ratio: pick.ratio, caps: shared.caps) != nil }
            } else {
                pick.firstConfirmed = own.filter { $0.confirmed && nearer($0.not, $0.right, ratio: 1) }.map(\.not).min()
                // Too few marks of the class to choose by (one), or nothing held out held
                // back at all (the first marks): the prior acts, in its own scaling, short of
                // the first held-out confirmed event of the class.
                if let priorHeld {
                    let harm = priorHeld.filter { $0.soundClass == c && $0.confirmed && nearer($0.not, $0.right, ratio: 1) }.map(\.not).min()
                    let r = min(HomePrior.radius, harm?.nextDown ?? .infinity)
                    if r > 0 {
                        pick.prior = true
                        pick.radius = r
                        pick.firstConfirmed = harm
                    }
                }
            }
            choice.removed += pick.removed
            choice.classes.append(pick)
            radii[c] = ClassRadius(radius: pick.radius, ratio: pick.ratio, prior: pick.prior)
        }
        memory.radius = 0
        memory.ratio = 1
        if let prior, radii.values.contains(where: \.prior) {
            memory.priorMean = prior.mean
            memory.priorSpread = prior.spread
        }
        memory.classes = radii
        memory.caps = caps
        // Each class its marks chose a radius for weighs its inputs by every night's windows.
        let zs = entries.map { memory.standardised($0.inputs) }
        memory.weights = radii.filter { !$0.value.prior && $0.value.radius > 0 }.reduce(into: [:]) { out, r in
            if let w = memory.fisherWeights(r.key, standardised: zs, keep: { _ in true }) { out[r.key] = memory.inputWeights(w) }
        }
        return (memory, choice)
    }

    /// What a sound marked "not this" (or "something else") with nothing more said was, where
    /// the home said it at the same moment: the class of a sound marked right that carried one
    /// of its very windows (one moment heard as two classes, a snore heard as a cough and as the
    /// snoring it was), by index in `marked` (`Entry.heard`). The class sharing the most windows
    /// wins, the first in class order among equals. Never a class a memory never touches or
    /// holds back (`untouchable`, `neverTaughtAway`): nothing a home infers raises a critical
    /// alert. On `make eval-home`'s six homes, 38 of night A's 192 "not" marks shared a window
    /// so, and 36 were that class by the answer of a user who heard them (docs/home.md).
    static func heardAs(_ marked: [Marked]) -> [Int: SoundClass] {
        var confirmed: [[Float]: [SoundClass]] = [:]
        for m in marked where m.right && !untouchable.contains(m.soundClass) && !neverTaughtAway.contains(m.soundClass) {
            for w in m.windows where !(confirmed[w]?.contains(m.soundClass) ?? false) { confirmed[w, default: []].append(m.soundClass) }
        }
        var out: [Int: SoundClass] = [:]
        for (k, m) in marked.enumerated() where !m.right && m.was == nil {
            var shared: [SoundClass: Int] = [:]
            for w in m.windows { for c in confirmed[w] ?? [] where c != m.soundClass { shared[c, default: 0] += 1 } }
            if let best = shared.max(by: { ($0.value, $1.key.index) < ($1.value, $0.key.index) }) { out[k] = best.key }
        }
        return out
    }

    /// A class is judged by the pair chosen when this many events of it or more were marked
    /// "not" (one mark says nothing of how near its next occurrence lies); with fewer, or when
    /// the pair holds back no held-out false alert at all, by the corpus's prior.
    /// Chosen by the six homes' held-out marks (`make eval-home`'s night A, both users: each
    /// recording left out in turn, a memory learned from the others choosing its own radii,
    /// the left-out events judged): with `fewConfirmed`, 1, 2, 3 and 4 marks made 184, 184,
    /// 205 and 229 errors (false alerts let through and confirmed events held back, of 1068),
    /// and 2 held back the fewer confirmed events of the two best (13 against 15).
    /// docs/home.md has the figures.
    public static let fewestMarks = 2

    /// A class with fewer held-out confirmed events than this is held back at a ratio of at
    /// most `fewConfirmedRatio`, a margin from the nearest sound of the class marked right
    /// (the ratio test of nearest-neighbour verification): its few confirmed events cannot
    /// limit its marks' radii (`caps`) near every true sound of it. Home 41's coughs (two
    /// confirmed) were held back by marks of other sources 0.55 to 1.18 away, within the
    /// radius the home's doors chose. Chosen with `fewestMarks` by the homes' held-out marks
    /// (docs/home.md): 3 and 0.8 made 184 errors where the shared ratio made 192, and held
    /// back 13 held-out confirmed events of 700 where it held back 28.
    public static let fewConfirmed = 3
    public static let fewConfirmedRatio: Float = 0.8

    /// The radius chosen is this much past the farthest held-out false alert held back
    /// (`choose`): a marked sound's next occurrence lies a little farther from it than the
    /// farthest one the held-out marks saw, and a confirmed event near a mark still keeps that
    /// mark short of it (`caps`, within this radius). Chosen by the homes' held-out marks, nested
    /// (the twelve label sets of `make eval-home`'s night A, both users; each recording left out,
    /// a memory learned from the other five choosing its own radii by leaving each of those out,
    /// the left-out events judged; computed from the memory files, an event's first three windows
    /// standing for its opening ones): 1, 1.05, 1.1, 1.15, 1.2, 1.25 and 1.5 made 199, 197,
    /// 194, 194, 194, 194 and 193 errors (of 1228: 366 false alerts, 862 confirmed events), and held back
    /// 23 confirmed events up to 1.1, 24 past it: the smallest of the plateau, which holds back
    /// no more confirmed events than the edge did. docs/home.md has the figures.
    public static let radiusMargin: Float = 1.1

    /// One held-out event: its class, its distance to each marked sound ("not" memories, by
    /// its index in the marked events kept) and to the nearest "right" memory of its class in
    /// the other folds, and whether it was confirmed.
    struct HeldOut {
        var soundClass: SoundClass
        var marks: [Int: Float], right: Float
        var confirmed: Bool
        /// The nearest "not" memory.
        var not: Float { marks.values.min() ?? .infinity }
    }

    /// The pair chosen on the held-out events of every class: for each ratio at which a
    /// held-out false alert would be held back, each marked sound's radius stops short of the
    /// first held-out confirmed event of its class it would hold back (`caps`, by marked
    /// event), and the radius of the others is just past the farthest held-out false alert
    /// held back; the pair that holds back the most held-out false alerts wins, the smallest
    /// among equals. A confirmed snore near one "not snoring" mark limits that mark, not the
    /// home's other marked snores (home 41, two sources: one confirmed snore at 0.402 from one
    /// mark held all of snoring's under it, and five false snores alerted).
    static func choose(_ held: [HeldOut]) -> (removed: Int, radius: Float, ratio: Float, caps: [Int: Float]) {
        var best: (removed: Int, radius: Float, ratio: Float, caps: [Int: Float]) = (0, 0, 1, [:])
        let ratios = Set(held.filter { !$0.confirmed && $0.not.isFinite }.map { $0.right.isFinite ? $0.not / $0.right : 0 }.filter { $0 <= 1 })
        for q in ratios.sorted() {
            var caps: [Int: Float] = [:]
            for h in held where h.confirmed {
                for (k, d) in h.marks where nearer(d, h.right, ratio: q) { caps[k] = min(caps[k] ?? .infinity, d) }
            }
            let at = held.filter { !$0.confirmed }.compactMap { caught($0, radius: .infinity, ratio: q, caps: caps) }
            if at.count > best.removed {
                // Just past the farthest it holds back: a radius of 0 holds back nothing, and a
                // sound the very same as one marked (a recording replayed) lies at 0.
                best = (at.count, at.max()!.nextUp, q, caps)
            }
        }
        return best
    }

    /// The distance at which held-out event `h` would be held back: that of the nearest
    /// marked sound it lies within the radius of (`radius`, or short of the confirmed event
    /// `caps` names) and within `ratio` of its nearest "right" memory; nil: none.
    static func caught(_ h: HeldOut, radius: Float, ratio: Float, caps: [Int: Float]) -> Float? {
        h.marks.filter { $0.value <= radius && $0.value < (caps[$0.key] ?? .infinity) && nearer($0.value, h.right, ratio: ratio) }.values.min()
    }

    /// The nearest "not" memory of class `c` of each marked event (by `origin`, the marked
    /// event of each entry) and the nearest "right" one, among the entries `keep` admits (by
    /// index), each input's difference weighed by `weights` (`fisherWeights`; empty: alike).
    func distances(_ x: [Float], _ c: SoundClass, standardised zs: [[Float]], keep: (Int) -> Bool, origin: [Int],
                   weights: [Float] = []) -> (not: [Int: Float], right: Float?) {
        let z = standardised(x)
        var not: [Int: Float] = [:], right: Float?
        for (k, e) in entries.enumerated() where e.soundClass == c && keep(k) {
            let dist = Self.distance(z, zs[k], weights: weights)
            switch e.kind {
            case .not: not[origin[k]] = min(not[origin[k]] ?? .infinity, dist)
            case .right: right = min(right ?? .infinity, dist)
            }
        }
        return (not, right)
    }
}
