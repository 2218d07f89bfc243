/// Fitting a `HomeMemory` from the events the listener marked (`somniq learn --home`).
extension HomeMemory {
    /// One marked event: its class as logged, what it was said to be, and the learned
    /// inputs of the windows its class's score carried it on.
    public struct Marked: Sendable {
        public var eventID: String
        /// The night it belongs to: the radius is chosen leaving out one night at a time.
        public var night: String
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

        public init(eventID: String, night: String, soundClass: SoundClass, right: Bool, was: SoundClass? = nil, at: String?,
                    windows: [[Float]], opening: [[Float]] = []) {
            self.eventID = eventID
            self.night = night
            self.soundClass = soundClass
            self.right = right
            self.was = was
            self.at = at
            self.windows = windows
            self.opening = opening
        }
    }

    /// How the radius was chosen, to be said in the file and by the command.
    public struct RadiusChoice: Sendable, Equatable {
        /// `leave-one-night-out`, or `leave-one-event-out` when the labels are of one night.
        public var by: String
        /// Marked false alerts held out, and how many the radius holds back (judged by their
        /// opening windows against the memories of the other folds).
        public var falseAlerts = 0, removed = 0
        /// Confirmed events held out, and the distance at which the first of them would be
        /// held back (the radius stays below it).
        public var confirmed = 0
        public var firstConfirmed: Float?
        public var radius: Float = 0
    }

    /// The memory of `marked`, with its radius chosen by leave-one-night-out (leave one
    /// event out when all the labels are of one night): each held-out event is judged as a
    /// new one would be (`like`, by its opening windows) against the memories of the other
    /// folds; the radius holds back the most held-out false alerts while holding back no
    /// held-out confirmed event; the smallest such radius. Classes a memory never touches
    /// (the alarm) are left out.
    public static func learn(_ marked: [Marked]) -> (HomeMemory, RadiusChoice) {
        let kept = marked.filter { !untouchable.contains($0.soundClass) && !$0.windows.isEmpty }
        var entries: [Entry] = []
        // Which events each entry came from, to leave them out together.
        var origin: [Int] = []
        for (k, m) in kept.enumerated() {
            for w in m.windows {
                entries.append(Entry(kind: m.right ? .right : .not, soundClass: m.soundClass, eventID: m.eventID, at: m.at, inputs: w))
                origin.append(k)
                if let was = m.was, was != m.soundClass, !untouchable.contains(was) {
                    entries.append(Entry(kind: .right, soundClass: was, eventID: m.eventID, at: m.at, inputs: w))
                    origin.append(k)
                }
            }
        }
        var memory = HomeMemory(entries: entries, radius: 0)
        let nights = Set(kept.map(\.night))
        var choice = RadiusChoice(by: nights.count > 1 ? "leave-one-night-out" : "leave-one-event-out")
        // The fold of each event: its night, or itself.
        let fold: (Int) -> String = { nights.count > 1 ? kept[$0].night : "\($0)" }
        let zs = entries.map { memory.standardised($0.inputs) }
        var needed: [Float] = []          // per false alert: the radius that holds it back
        var firstHarm = Float.infinity    // the least radius that holds back a confirmed event
        for (k, m) in kept.enumerated() {
            let f = fold(k)
            // Memories of the other folds; the entry index's origin is read through a table.
            let others: (Int) -> Bool = { fold(origin[$0]) != f }
            var not = Float.infinity, right = Float.infinity
            for w in m.opening.isEmpty ? m.windows : m.opening {
                let d = memory.distances(w, m.soundClass, standardised: zs, keep: others)
                not = min(not, d.not ?? .infinity)
                right = min(right, d.right ?? .infinity)
            }
            let holding = not < right ? not : .infinity
            if m.right { choice.confirmed += 1; firstHarm = min(firstHarm, holding) } else { choice.falseAlerts += 1; needed.append(holding) }
        }
        let usable = needed.filter { $0 < firstHarm }
        choice.radius = usable.max() ?? 0
        choice.removed = usable.count
        choice.firstConfirmed = firstHarm.isFinite ? firstHarm : nil
        memory.radius = choice.radius
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
