/// This home's sound memory (`somniq learn --home`, docs/home.md): the learned rules'
/// inputs (`LearnedInputs`) of the windows of events the listener marked, each remembered
/// as "not this class" or "right". It decides per event, when the event is confirmed
/// (`judge`): an event whose opening windows (from its onset to its confirmation, what is
/// known when its alert is due) are like a "not" memory of its class is still logged, its
/// alert held back (`"suppressed": "home"`). Scores are never changed: what is detected stays
/// detected.
///
/// The distance is the root mean square of the standardised differences (each input less
/// its mean over the memories' windows, over its standard deviation; inputs that never
/// varied are left out): 0 for the same window, about 1.4 for two windows drawn at random
/// from the memories. An event is like a "not" memory when the nearest pair of one of its
/// opening windows and a "not" window of its class lies within `radius`, and nearer, by
/// `ratio` or less, than the nearest pair with a "right" window of that class: a sound as
/// near a confirmed one as a marked one is not held back. `radius` and `ratio` are chosen
/// together by leave-one-night-out on the home's own labels (`HomeMemory.learn`), never by
/// hand.
///
/// What a home can never teach away: the smoke alarm, decided by its pattern
/// (`AlarmDetector`), is never held back; glass, a scream and a gasp are not held back when
/// their score exceeded the profile's `on` by more than `criticalMargin`.
public struct HomeMemory: Sendable {
    public enum Kind: String, Sendable { case not, right }

    public struct Entry: Sendable {
        public var kind: Kind
        public var soundClass: SoundClass
        /// The event marked, and when it happened (ISO 8601), or nil for a recording with no start time.
        public var eventID: String
        public var at: String?
        /// The window's inputs, as `LearnedInputs` fills them.
        public var inputs: [Float]

        public init(kind: Kind, soundClass: SoundClass, eventID: String, at: String?, inputs: [Float]) {
            self.kind = kind
            self.soundClass = soundClass
            self.eventID = eventID
            self.at = at
            self.inputs = inputs
        }
    }

    /// The memory an event was found like, and whether its alert is held back.
    public struct Match: Sendable, Equatable {
        public var eventID: String
        public var at: String?
        public var distance: Float
        /// False where the class may not be taught away there (`criticalMargin`): the match is
        /// said in the trace, the alert kept.
        public var holdsBack: Bool
    }

    /// A critical score this far over the profile's `on` is never lowered: 0.2 is the
    /// spread of the built-in profiles' `on` from the default (balanced, 0.7) to the
    /// strictest (very_conservative, 0.9; docs/profiles.md), so a sound even the strictest
    /// profile would call out under the default's `on` is one no home can teach away.
    public static let criticalMargin = 0.2
    /// Classes a memory never touches: the alarm is decided by its pattern.
    public static let untouchable: Set<SoundClass> = [.smokeAlarm]
    /// Classes a memory holds back only when their score stayed within `criticalMargin` of `on`.
    public static let guarded: Set<SoundClass> = [.glassBreak, .scream, .gasp]

    public var entries: [Entry] { didSet { index() } }
    public var radius: Float
    /// How much nearer than the nearest "right" window the "not" one must be (1: nearer at all).
    public var ratio: Float
    /// Each input's mean and standard deviation over the memories' windows (0: left out).
    public var mean: [Float], spread: [Float]
    /// What the file says of how it was made (`meta` lines).
    public var header: [(key: String, value: String)] = []
    /// Entries by class, standardised.
    private var byClass: [[(kind: Kind, entry: Int, z: [Float])]] = []
    private var used: [Int] = []

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

    private mutating func index() {
        used = (0..<min(spread.count, LearnedInputs.count)).filter { spread[$0] > 0 }
        byClass = Array(repeating: [], count: SoundClass.allCases.count)
        for (k, e) in entries.enumerated() { byClass[e.soundClass.index].append((e.kind, k, standardised(e.inputs))) }
    }

    /// A standardised difference larger than this counts as this: one input far out (a
    /// frequency where another window had none) does not outweigh all the others.
    static let clip: Float = 8

    func standardised(_ x: [Float]) -> [Float] {
        used.map { i in min(Self.clip, max(-Self.clip, (x[i] - mean[i]) / spread[i])) }
    }

    /// Whether the memory holds anything of class `c` it may act on (a radius of 0 holds
    /// back nothing, not even the very sound marked).
    public func remembers(_ c: SoundClass) -> Bool {
        radius > 0 && !Self.untouchable.contains(c) && byClass[c.index].contains { $0.kind == .not }
    }

    /// The nearest memory of each kind of class `c` to the window with inputs `x`, and its distance.
    public func nearest(_ x: [Float], _ c: SoundClass) -> (not: (entry: Int, distance: Float)?, right: Float?) {
        let z = standardised(x)
        let d = Float(max(1, used.count))
        var bestNot: (Int, Float)?, bestRight: Float?
        for m in byClass[c.index] {
            var s: Float = 0
            for i in 0..<z.count { let t = z[i] - m.z[i]; s += t * t }
            let dist = (s / d).squareRoot()
            switch m.kind {
            case .not: if bestNot == nil || dist < bestNot!.1 { bestNot = (m.entry, dist) }
            case .right: if bestRight == nil || dist < bestRight! { bestRight = dist }
            }
        }
        return (bestNot, bestRight)
    }

    /// The "not" memory an event with opening windows `xs` is like, for class `c`: the
    /// nearest pair of one of its windows and a "not" window of `c`, when it lies within
    /// `radius` and within `ratio` times the nearest pair with a "right" window of `c`.
    public func like(_ xs: [[Float]], _ c: SoundClass) -> (entry: Int, distance: Float)? {
        var not: (entry: Int, distance: Float)?, right = Float.infinity
        for x in xs {
            let near = nearest(x, c)
            if let n = near.not, n.distance < (not?.distance ?? .infinity) { not = n }
            right = min(right, near.right ?? .infinity)
        }
        guard let not, Self.holds(not: not.distance, right: right, radius: radius, ratio: ratio) else { return nil }
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

    /// Judges an event of class `c` confirmed with opening windows `xs` and `confidence` (the
    /// peak smoothed score its rule's `on` was compared with) under `rule`: the memory it is
    /// like, if any, and whether its alert is held back (nil: like none, or a class never
    /// touched).
    public func judge(_ xs: [[Float]], _ c: SoundClass, confidence: Double, rule: AlertRule) -> Match? {
        guard remembers(c), let m = like(xs, c) else { return nil }
        let e = entries[m.entry]
        let critical = Self.guarded.contains(c) && confidence > rule.startLevel + Self.criticalMargin
        return Match(eventID: e.eventID, at: e.at, distance: m.distance, holdsBack: !critical)
    }
}
