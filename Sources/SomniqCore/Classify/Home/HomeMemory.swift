/// This home's sound memory (`somniq learn --home`, docs/home.md): the learned rules'
/// inputs (`LearnedInputs`) of the windows of events the listener marked, each remembered
/// as "not this class" or "right". It decides per event, when the event is confirmed
/// (`judge`): an event whose opening windows (from its onset to its confirmation, what is
/// known when its alert is due) are like a "not" memory of its class is still logged, its
/// alert held back (`"suppressed": "home"`). When that memory's sound was said to be another
/// class ("it was snoring", `Entry.was`), or the home confirmed one at its very moment
/// (`Entry.heard`), the alert processor also logs the event as that
/// class, under its rule and tier (`Match.was`; a critical class's tier only where its own
/// rule heard the sound, `Match.ruleScore`), where the event lies within
/// `reclassifyRadius` of that memory; one farther is held back only, its trace keeping what
/// the listener said (`Match.said`). Scores are never changed: what is detected
/// stays detected.
///
/// The distance is the root mean square of the standardised differences (each input less
/// its mean over the memories' windows, over its standard deviation; inputs that never
/// varied are left out): 0 for the same window, about 1.4 for two windows drawn at random
/// from the memories. A class whose radius the home's marks chose weighs each difference by
/// how well that input tells the class's "not" windows from its "right" ones (`weights`,
/// `fisherWeights`), so that what the home marked "not laughter" (a game's voices) and what
/// it marked right (a giggle) lie apart where the shipped inputs alone put them alike. An
/// event is like a "not" memory when the nearest pair of one of its opening windows and a
/// "not" window of its class lies within that marked sound's radius (its class's, or less
/// where a held-out confirmed event of the class lay nearer it, `caps`), and nearer, by its
/// ratio or less, than the nearest pair with a "right" window of that class: a sound as
/// near a confirmed one as a marked one is not held back. Each class's radius and ratio
/// (`classes`; a format 2 or 3 file has one `radius` and `ratio` for all) and the marked
/// sounds' own radii are chosen together by leave-one-night-out on the home's own labels
/// (`HomeMemory.learn`), never by hand; a class judged by the corpus's prior is
/// standardised by the corpus's scaling (`priorMean`, `priorSpread`).
///
/// What a home can never teach away: the smoke alarm, decided by its pattern
/// (`AlarmDetector`), is never remembered nor judged; glass, a scream, a gasp and a breathing
/// pause are never held back nor re-classified (`neverTaughtAway`): a real scream can lie as
/// near a marked snore as the snore's next night does, so no distance tells them apart.
public struct HomeMemory: Sendable {
    public enum Kind: String, Sendable, CaseIterable { case not, right }

    public struct Entry: Sendable {
        public var kind: Kind
        public var soundClass: SoundClass
        /// The event marked, and when it happened (ISO 8601), or nil for a recording with no start time.
        public var eventID: String
        public var at: String?
        /// The window's inputs, as `LearnedInputs` fills them.
        public var inputs: [Float]
        /// For a "not" memory, the class the sound was said to be instead ("it was snoring"):
        /// an event like it, within `reclassifyRadius`, is logged as that class too. Nil for "not
        /// this" and "something else".
        public var was: SoundClass?
        /// True where `was` is not what the listener said but what the home confirmed at the
        /// same moment: the sound was marked "not this" alone, and one of its very windows
        /// carried a sound marked right as `was` (`HomeMemory.heardAs`).
        public var heard: Bool

        public init(kind: Kind, soundClass: SoundClass, eventID: String, at: String?, inputs: [Float], was: SoundClass? = nil,
                    heard: Bool = false) {
            self.kind = kind
            self.soundClass = soundClass
            self.eventID = eventID
            self.at = at
            self.inputs = inputs
            self.was = kind == .not ? was : nil
            self.heard = self.was != nil && heard
        }
    }

    /// The memory an event was found like, and whether its alert is held back.
    public struct Match: Sendable, Equatable {
        public var eventID: String
        public var at: String?
        public var distance: Float
        /// False for a class no home can teach away (`neverTaughtAway`): the match is said in
        /// the trace, the alert kept.
        public var holdsBack: Bool
        /// The class the marked sound was said to be ("it was snoring", `Entry.was`): an event
        /// held back is logged as this class too (`AlertProcessor`). Nil: "not this" or
        /// "something else", or the event lies farther than `reclassifyRadius` from it.
        public var was: SoundClass?
        /// The class the listener said the marked sound was ("it was snoring", `Entry.was`),
        /// where the event lies farther than `reclassifyRadius` from it: held back as by a "not
        /// this", not logged as that class (`was` nil), its trace keeping what was said. Nil
        /// otherwise, and where the class is what the home confirmed there (`Entry.heard`): the
        /// listener said "not this".
        public var said: SoundClass?
        /// On the event logged as `was`: the id of the event it re-classifies.
        public var from: String?
        /// True where `was` is what the home confirmed at the marked sound's moment, not what
        /// the listener said of it (`Entry.heard`).
        public var heard: Bool
        /// Where the event was held back as nearer a sound the home marked right as another
        /// class than any it marked right as its own (`confirmedAs`): that class. The event
        /// `eventID` names is that sound.
        public var confirmed: SoundClass?
        /// With `was`: the most `was`'s own rule scored, before the arbitration, in the event's
        /// windows (`r_<class>@0` of the learned inputs), nil for a class with no rule there
        /// (`ownRule`). The alert processor raises a critical class's alert at its tier only
        /// where that rule heard it (`AlertProcessor`, `unheard`).
        public var ruleScore: Float?
        /// On the event logged as `was`, a critical class whose own rule did not hear it
        /// (`ruleScore` under its `on`, or none): it alerts at the tier of the class it was
        /// heard as, not at the critical tier (set by `AlertProcessor`; false where that tier
        /// is critical too).
        public var unheard = false

        public init(eventID: String, at: String?, distance: Float, holdsBack: Bool, was: SoundClass? = nil, said: SoundClass? = nil,
                    from: String? = nil, confirmed: SoundClass? = nil, heard: Bool = false, ruleScore: Float? = nil) {
            self.eventID = eventID
            self.at = at
            self.distance = distance
            self.holdsBack = holdsBack
            self.was = was
            self.said = was == nil ? said : nil
            self.from = from
            self.confirmed = confirmed
            self.heard = was != nil && heard
            self.ruleScore = was != nil ? ruleScore : nil
        }
    }

    /// Where each class's own rule, before the arbitration, lies in a window's learned inputs
    /// (`r_<class>@0`, by `SoundClass.index`); nil for a class with no rule of its own there
    /// (the breathing pause, the low-battery chirp: detectors of their own).
    static let ownRule: [Int?] = SoundClass.allCases.map { LearnedInputs.names.firstIndex(of: "r_\($0.rawValue)@0") }

    /// The most class `c`'s own rule scored in windows `xs` (`ownRule`), nil where it has none.
    static func ruleScore(_ xs: [[Float]], _ c: SoundClass) -> Float? {
        ownRule[c.index].map { i in xs.reduce(0) { i < $1.count ? max($0, $1[i]) : $0 } }
    }

    /// Classes a memory never touches: the alarm is decided by its pattern.
    public static let untouchable: Set<SoundClass> = [.smokeAlarm]
    /// Classes a memory never holds back nor re-classifies, however near a marked sound:
    /// glass breaking, a scream, a gasp and a breathing pause. In a held-out home (issue 48)
    /// a real scream lay near the home's snores marked "it was snoring" and was held back
    /// with them; a scream is not told from a snore heard as one by how near it lies.
    public static let neverTaughtAway: Set<SoundClass> = [.glassBreak, .scream, .gasp, .breathingPause]

    /// A class's own radius and ratio (format 4), chosen by the home's held-out marks of that
    /// class, or the corpus's prior (`HomePrior`) where they were too few: a class whose
    /// confirmed sounds lie near its "not" marks keeps a small radius, and the others theirs.
    public struct ClassRadius: Sendable, Equatable {
        public var radius: Float
        public var ratio: Float
        /// True: the class is judged in the corpus's scaling (`priorMean`, `priorSpread`).
        public var prior: Bool

        public init(radius: Float, ratio: Float, prior: Bool = false) {
            self.radius = radius
            self.ratio = ratio
            self.prior = prior
        }
    }

    public var entries: [Entry] { didSet { index() } }
    /// The radius and ratio of a class `classes` does not name (a format 2 or 3 file: every class).
    public var radius: Float
    /// How much nearer than the nearest "right" window the "not" one must be (1: nearer at all).
    public var ratio: Float
    /// Each class's own radius and ratio, where it has one.
    public var classes: [SoundClass: ClassRadius] = [:] { didSet { index() } }
    /// A marked sound's own radius, where it is less than its class's (format 5): a held-out
    /// confirmed event of the class lay that near it. By class, then the marked event's id. A
    /// confirmed snore near one "not snoring" mark limits that mark's reach, not the reach of
    /// the home's other marked snores. A radius of 0 holds back nothing, as a class's does.
    public var caps: [SoundClass: [String: Float]] = [:] { didSet { index() } }
    /// Each class's weight of each input in its distance (format 6), where the home's marks
    /// chose its radius: the root mean square becomes a weighted one. A class not named here
    /// (and one judged by the prior) weighs every input alike.
    public var weights: [SoundClass: [Float]] = [:] { didSet { index() } }
    /// Each input's mean and standard deviation over the memories' windows (0: left out).
    public var mean: [Float], spread: [Float]
    /// The corpus's scaling, for the classes judged by the prior (empty when none is).
    public var priorMean: [Float] = [] { didSet { index() } }
    public var priorSpread: [Float] = [] { didSet { index() } }
    /// What the file says of how it was made (`meta` lines).
    public var header: [(key: String, value: String)] = []
    /// Entries by class, standardised in their class's scaling.
    private var byClass: [[(kind: Kind, entry: Int, cap: Float, z: [Float])]] = []
    /// Each class's `weights`, in the order of its standardised inputs (empty: alike).
    private var byClassWeights: [[Float]] = []
    /// Every "right" entry's class and index, standardised in the memory's own scaling, for
    /// `confirmedAs`.
    private var rights: [(soundClass: SoundClass, entry: Int, z: [Float])] = []
    private var used: [Int] = [], priorUsed: [Int] = []

    /// A memory of `entries`; the scaling is computed from their inputs.
    public init(entries: [Entry], radius: Float, ratio: Float = 1) {
        self.entries = entries
        self.radius = radius
        self.ratio = ratio
        (mean, spread) = Self.scaling(entries.map(\.inputs))
        index()
    }

    /// A memory read from its file, with the file's scaling.
    public init(entries: [Entry], radius: Float, ratio: Float, mean: [Float], spread: [Float], header: [(key: String, value: String)]) {
        self.entries = entries
        self.radius = radius
        self.ratio = ratio
        self.mean = mean
        self.spread = spread
        self.header = header
        index()
    }

    static func scaling(_ rows: [[Float]]) -> (mean: [Float], spread: [Float]) {
        let n = LearnedInputs.count
        var mean = [Float](repeating: 0, count: n), spread = [Float](repeating: 0, count: n)
        guard !rows.isEmpty else { return (mean, spread) }
        for i in 0..<n {
            var s = 0.0, s2 = 0.0
            for r in rows { s += Double(r[i]); s2 += Double(r[i]) * Double(r[i]) }
            let m = s / Double(rows.count)
            mean[i] = Float(m)
            let v = max(0, s2 / Double(rows.count) - m * m)
            spread[i] = v > 1e-12 ? Float(v.squareRoot()) : 0
        }
        return (mean, spread)
    }

    mutating func index() {
        used = (0..<min(spread.count, LearnedInputs.count)).filter { spread[$0] > 0 }
        priorUsed = (0..<min(priorSpread.count, priorMean.count, LearnedInputs.count)).filter { priorSpread[$0] > 0 }
        byClass = Array(repeating: [], count: SoundClass.allCases.count)
        byClassWeights = SoundClass.allCases.map { c in
            guard let w = weights[c], w.count == LearnedInputs.count else { return [] }
            return (radius(for: c).prior ? priorUsed : used).map { w[$0] }
        }
        rights = []
        for (k, e) in entries.enumerated() {
            let prior = radius(for: e.soundClass).prior
            let z = standardised(e.inputs, prior: prior)
            byClass[e.soundClass.index].append((e.kind, k, caps[e.soundClass]?[e.eventID] ?? .infinity, z))
            // The same array where the class is in the memory's own scaling: no copy is kept.
            if e.kind == .right { rights.append((e.soundClass, k, prior ? standardised(e.inputs) : z)) }
        }
    }

    /// The radius and ratio class `c` is judged by: its own, else the memory's.
    public func radius(for c: SoundClass) -> ClassRadius {
        classes[c] ?? ClassRadius(radius: radius, ratio: ratio)
    }

    /// A standardised difference larger than this counts as this: one input far out (a
    /// frequency where another window had none) does not outweigh all the others.
    static let clip: Float = 8

    func standardised(_ x: [Float], prior: Bool = false) -> [Float] {
        prior ? priorUsed.map { i in min(Self.clip, max(-Self.clip, (x[i] - priorMean[i]) / priorSpread[i])) }
            : used.map { i in min(Self.clip, max(-Self.clip, (x[i] - mean[i]) / spread[i])) }
    }

    /// Whether the memory holds anything of class `c` it may act on (a radius of 0 holds
    /// back nothing, not even the very sound marked).
    public func remembers(_ c: SoundClass) -> Bool {
        radius(for: c).radius > 0 && !Self.untouchable.contains(c) && byClass[c.index].contains { $0.kind == .not }
    }

    /// Whether an event of class `c` is judged at all: the memory holds a "not" memory of it
    /// it may act on (`remembers`), or the class may be held back as a sound the home
    /// confirmed as another class (`confirmedAs`): it has a sound marked right, and its radius
    /// is above 0 or it was never marked "not this" (no radius was chosen for it).
    public func judges(_ c: SoundClass) -> Bool {
        remembers(c) || (confirmsElsewhere(c) && byClass[c.index].contains { $0.kind == .right })
    }

    /// Whether `confirmedAs` may hold back class `c`: never a class no home can teach away,
    /// nor one whose radius `learn --home` chose 0 (to keep its confirmed events). A class
    /// never marked "not this" has no radius chosen (no `classes` entry; `learn --home` leaves
    /// the memory's own at 0): its sounds marked right are what the rule compares with.
    /// Not the smoke alarm's low-battery chirp, unless the home marked one "not this": one
    /// short beep a minute (`ChirpTrain`), its windows are the room's between the beeps, and
    /// lie as near a confirmed breath or snore as the room does; a dying battery unreported
    /// is an alarm that will not sound.
    func confirmsElsewhere(_ c: SoundClass) -> Bool {
        !Self.untouchable.contains(c) && !Self.neverTaughtAway.contains(c)
            && (radius(for: c).radius > 0 || (c != .lowBattery && classes[c] == nil && !byClass[c.index].contains { $0.kind == .not }))
    }

    /// The nearest "not" memory of class `c` that the window with inputs `x` lies within the
    /// radius of (its class's, or its own where a confirmed event limits it, `caps`), and the
    /// nearest "right" one, with their distances.
    public func nearest(_ x: [Float], _ c: SoundClass) -> (not: (entry: Int, distance: Float)?, right: Float?) {
        let r = radius(for: c)
        let z = standardised(x, prior: r.prior)
        let w = byClassWeights[c.index]
        var bestNot: (Int, Float)?, bestRight: Float?
        for m in byClass[c.index] {
            let dist = Self.distance(z, m.z, weights: w)
            switch m.kind {
            case .not: if dist <= min(r.radius, m.cap), m.cap > 0, bestNot == nil || dist < bestNot!.1 { bestNot = (m.entry, dist) }
            case .right: if bestRight == nil || dist < bestRight! { bestRight = dist }
            }
        }
        return (bestNot, bestRight)
    }

    /// The root mean square of the differences of two standardised windows, each weighed by
    /// `weights` (empty, or weighing nothing: alike).
    static func distance(_ a: [Float], _ b: [Float], weights w: [Float]) -> Float {
        var s: Float = 0, total: Float = 0
        if w.count == a.count {
            for i in 0..<a.count { let t = a[i] - b[i]; s += w[i] * t * t; total += w[i] }
            if total > 0 { return (s / total).squareRoot() }
            s = 0
        }
        for i in 0..<a.count { let t = a[i] - b[i]; s += t * t }
        return (s / Float(max(1, a.count))).squareRoot()
    }

    /// How well each input tells class `c`'s "not" windows from its "right" ones, among the
    /// entries `keep` admits (by index), standardised (`zs`, in the memory's own scaling): the
    /// Fisher score, the squared difference of the two means over the sum of the two
    /// variances, scaled to a mean of 1. Nil where the class has no "not" window, or fewer
    /// than `fewConfirmed` events marked right (their few windows say too little of what the
    /// class's true sounds share; nested on the homes' night A, weighing those too held back 19
    /// of 862 held-out confirmed events where this holds back 14, docs/home.md), or no input
    /// tells them apart. `fisherFloor` keeps an input that never varies in either from
    /// weighing without bound.
    func fisherWeights(_ c: SoundClass, standardised zs: [[Float]], keep: (Int) -> Bool) -> [Float]? {
        let n = used.count
        var sum = [[Double]](repeating: [Double](repeating: 0, count: n), count: 2), sum2 = sum, count = [0.0, 0.0]
        var confirmed: Set<String> = []
        for (k, e) in entries.enumerated() where e.soundClass == c && keep(k) {
            let side = e.kind == .not ? 0 : 1
            count[side] += 1
            if e.kind == .right { confirmed.insert(e.eventID) }
            for i in 0..<n { let v = Double(zs[k][i]); sum[side][i] += v; sum2[side][i] += v * v }
        }
        guard count[0] > 0, confirmed.count >= Self.fewConfirmed, n > 0 else { return nil }
        var f = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let m0 = sum[0][i] / count[0], m1 = sum[1][i] / count[1]
            let v0 = max(0, sum2[0][i] / count[0] - m0 * m0), v1 = max(0, sum2[1][i] / count[1] - m1 * m1)
            f[i] = Float((m0 - m1) * (m0 - m1) / (v0 + v1 + Double(Self.fisherFloor)))
        }
        let mean = f.reduce(0, +) / Float(n)
        guard mean > 0, mean.isFinite else { return nil }
        return f.map { $0 / mean }
    }

    /// A variance added to each input's in `fisherWeights`: a thousandth of the memory's
    /// (each input is standardised to a variance of 1 over its windows), so that an input
    /// constant within both kinds of window weighs much, not without bound. Measured nested on
    /// the homes' night A (twelve label sets, each recording left out, as `radiusMargin`), the
    /// choice hardly depends on it: 1e-5, 1e-4, 1e-3, 1e-2, 0.1 and 1 make 170, 168, 170, 170,
    /// 169 and 172 errors of 1228 (held-out false alerts let through and confirmed events held
    /// back), so it stays inside that plateau rather than at its 2-error low.
    static let fisherFloor: Float = 1e-3

    /// `fisherWeights` (by the memory's standardised inputs) as `weights` holds them: one
    /// per input, 0 for those left out.
    func inputWeights(_ w: [Float]) -> [Float] {
        var out = [Float](repeating: 0, count: LearnedInputs.count)
        for (k, i) in used.enumerated() where k < w.count { out[i] = w[k] }
        return out
    }

    /// The "not" memory an event with opening windows `xs` is like, for class `c`: the
    /// nearest pair of one of its windows and a "not" window of `c` within that window's
    /// radius, when it lies within `ratio` times the nearest pair with a "right" window of `c`.
    public func like(_ xs: [[Float]], _ c: SoundClass) -> (entry: Int, distance: Float)? {
        var not: (entry: Int, distance: Float)?, right = Float.infinity
        for x in xs {
            let near = nearest(x, c)
            if let n = near.not, n.distance < (not?.distance ?? .infinity) { not = n }
            right = min(right, near.right ?? .infinity)
        }
        let r = radius(for: c)
        guard let not, Self.holds(not: not.distance, right: right, radius: r.radius, ratio: r.ratio) else { return nil }
        return not
    }

    /// The rule: a "not" memory at distance `not` holds an event back when it lies within
    /// the radius and within `ratio` (0 to 1) times the distance of the nearest "right" one
    /// (`right`, infinite: none).
    static func holds(not: Float, right: Float, radius: Float, ratio: Float) -> Bool {
        not <= radius && nearer(not, right, ratio: ratio)
    }

    /// Whether `not` is within `ratio` times `right` (always, when no "right" memory is there).
    static func nearer(_ not: Float, _ right: Float, ratio: Float) -> Bool {
        right.isInfinite || not <= right * ratio
    }

    /// How much nearer a sound marked right as another class an event of class `c` must lie
    /// than the nearest sound marked right as `c` to be held back by `confirmedAs`. Fitted on
    /// the homes' night A, nested as the radius's margin was (twelve label sets, each recording
    /// left out, a memory learned from the other five): of 366 held-out false alerts and 862
    /// confirmed events, the memory alone holds back 210 and 14; with this rule at 0.3, 0.4,
    /// 0.5, 0.6, 0.7, 0.8, 0.9 and 1, 218 / 221 / 231 / 237 / 244 / 264 / 295 / 323 and 14 / 15 /
    /// 15 / 20 / 23 / 35 / 52 / 88. A confirmed event held back is a true alert lost, which
    /// issue 48's target (recall up) weighs above a false alert let through: counted as 2 or 3
    /// of them, 0.5 makes the fewest errors (0.55 ties at 2); counted as 1, 0.9 would, holding
    /// back 6 % of the confirmed events.
    public static let confirmedElsewhereRatio: Float = 0.5

    /// The sound marked right as another class that an event of class `c` with opening
    /// windows `xs` lies nearer than `confirmedElsewhereRatio` times the nearest sound marked
    /// right as `c` (every input alike, in the memory's own scaling): what the home confirmed
    /// it heard there was that other sound. Nil where no sound of `c` was marked right (a class
    /// is never held back whole for having no confirmed sound), or none of another class lies
    /// that near.
    public func confirmedAs(_ xs: [[Float]], _ c: SoundClass) -> (entry: Int, distance: Float)? {
        var own = Float.infinity, other: (entry: Int, distance: Float)?
        for x in xs {
            let z = standardised(x)
            for r in rights {
                let d = Self.distance(z, r.z, weights: [])
                if r.soundClass == c { own = min(own, d) } else if d < (other?.distance ?? .infinity) { other = (r.entry, d) }
            }
        }
        guard own.isFinite, let other, other.distance < Self.confirmedElsewhereRatio * own else { return nil }
        return other
    }

    /// How near a sound said to be another class ("it was snoring", `Entry.was`) an event
    /// must lie to be logged as that class too: one farther, within its class's radius, is
    /// held back only (`Match.said` keeping the class said). Fitted on the homes' night A, nested (twelve label sets, the "it was"
    /// user's and the "not" user's, each recording left out and its events judged by the
    /// others' marks at the radii and ratios chosen on the whole night, by their first three
    /// windows; the truth is the class the "it was" user named): of 162 events re-classified, 118 as what they were and 44 as
    /// what they were not, those farther than 1.0, 1.1, 1.2, 1.25, 1.3 and 1.4 lose 11 / 6 / 1 /
    /// 0 / 0 / 0 true and 22 / 15 / 8 / 8 / 7 / 4 wrong. A true one lost weighs above a wrong
    /// one kept (issue 48's target is recall up, as `confirmedElsewhereRatio`): counted as 2 or
    /// 3 of them, 1.25 makes the fewest errors, the middle of the gap between the farthest true
    /// one (1.22) and the next wrong one (1.27).
    public static let reclassifyRadius: Float = 1.25

    /// Judges an event of class `c` confirmed with opening windows `xs`: the memory it is
    /// like, if any, whether its alert is held back (never for a class no home can teach
    /// away), and the class it is logged as too when the sound marked was said to be one
    /// (nil: like none, or a class never touched). An event like no "not" memory is held back
    /// still where it lies much nearer a sound the home marked right as another class than any
    /// it marked right as its own (`confirmedAs`; never a class no home can teach away, nor
    /// one whose radius is 0).
    public func judge(_ xs: [[Float]], _ c: SoundClass) -> Match? {
        if remembers(c), let m = like(xs, c) {
            let e = entries[m.entry]
            let near = m.distance <= Self.reclassifyRadius
            let was = near ? e.was : nil
            return Match(eventID: e.eventID, at: e.at, distance: m.distance, holdsBack: !Self.neverTaughtAway.contains(c),
                         was: was, said: near || e.heard ? nil : e.was, heard: e.heard, ruleScore: was.flatMap { Self.ruleScore(xs, $0) })
        }
        // A class whose radius `learn --home` chose 0 holds back nothing, this way neither: the
        // choice was made to keep its confirmed events. One never marked "not this" had none chosen.
        guard confirmsElsewhere(c), let o = confirmedAs(xs, c) else { return nil }
        let e = entries[o.entry]
        return Match(eventID: e.eventID, at: e.at, distance: o.distance, holdsBack: true, confirmed: e.soundClass)
    }
}
