/// A smoke alarm's low-battery chirp (`low_battery`): one short beep at a piezo sounder's
/// pitch, alone, again and again about once a minute. It is a warning that the alarm's battery
/// is failing, not an alarm: a low-tier event a carer is glad to find in the morning.
///
/// UL 217 and NFPA 72 (single- and multiple-station smoke alarms) ask that a low battery be
/// signalled audibly at least once a minute for seven days; alarms chirp every 30–60 s (the
/// makers' manuals). A chirp is the alarm's own sounder switched on for a moment: the piezo
/// disc at its resonance, the same pitch within a few percent from chirp to chirp.
///
/// Fed the beeps `AlarmDetector` cuts (`forEachEndedBeep`), frame by frame; it changes none of
/// the detector's rules. A chirp is a beep of `chirpSeconds` at `hz`, its pitch steady as a
/// driven disc's (`pitchDeviation`: a room's noise makes lone blips at any pitch, and theirs
/// wander further) and standing far over the room's noise at it (`contrastDb`), with no
/// other beep near its pitch `quietBefore` before it or `quietAfter` after it: every beep of
/// an alarm's pattern has another within 3 s (T3's tones are 0.5 s apart, its pause 1.5 s;
/// T4's beeps 0.1 s apart; steady beeping 0.3–3 s), a chirp has none for 30 s. A blip of
/// the room's noise far under it at its pitch (`Sounder.isOtherSound`) is not another beep.
/// One chirp is not yet a pattern, nor are two: lone blips of a room's noise pair up by chance. The
/// chirps come from the alarm's timer, so its interval repeats: the train starts at the
/// third chirp of the same pitch (`samePitch`), the second 25–75 s after the first
/// (`interval`) and the third as long after the second as that (`repeatTolerance`), the
/// three a sounder's beeps (none noise-like, their peaks within `Sounder.levelSpreadDb`: one
/// drive, one place), and goes on while each chirp comes 25–75 s after the one before, as
/// alike. It is over once `interval`'s longest passes without one. Where a smoke alarm
/// sounds (the detector's span) there is no chirp.
///
/// Time is counted in the detector's frames (`AlarmDetector.frameSeconds`), from sample
/// counts. Pure and allocation-free per frame.
public struct ChirpTrain: Sendable {
    /// The train heard last: from its third chirp on.
    public struct Span: Sendable, Equatable {
        /// The third chirp's start (seconds of the stream): where the event opens.
        public var from: Double
        /// Now while the train goes on; once it is over, the end of its last chirp.
        public var to: Double
        /// Whether the next chirp may still come (`interval`'s longest has not passed).
        public var active: Bool
        /// The second chirp's pitch; every later chirp of the train lies within `samePitch` of it.
        public var hz: Float
        /// Chirps heard in it, the first two (before `from`) among them.
        public var chirps: Int
        /// The latest chirp's start and end (seconds of the stream).
        public var lastChirp: Double, lastChirpEnd: Double
        /// Its chirps' cues, as a sounder's beeps.
        var cues: Sounder.Cues

        /// Whether the train was under way at some time in `times` (seconds of the stream).
        public func overlaps(_ times: Range<Double>) -> Bool { from < times.upperBound && to >= times.lowerBound }
    }

    /// A chirp lasts 20–250 ms (the battery's look-alikes: 30–100 ms); as the coarse cut
    /// hears it, a frame more (15.6 ms) and a room's tail (up to 0.05 s at its 10 dB drop),
    /// and never shorter than the cut's shortest beep (`AlarmDetector.t4Beep`, 40 ms).
    static let chirpSeconds: ClosedRange<Double> = AlarmDetector.t4Beep.lowerBound...0.32
    /// A smoke alarm's piezo disc resonates at 2.5–4.5 kHz (3–4 kHz in most; the horns of
    /// `AlarmDetector.hornHz` reach down to 2 kHz, their chirps not below 2.5).
    static let hz: ClosedRange<Float> = 2500...4500
    /// A chirp's pitch holds within 0.4 % (the standard deviation of its frames' over their
    /// mean): a disc driven at its resonance for a moment, and the frame estimate's error (a
    /// tenth of a 15.6 Hz bin, 0.05 % at 3 kHz). Measured: the battery's chirps in rain and
    /// a room 0.06–0.11 %; the lone blips of a room's noise in the band that paired up as
    /// chirps on the demo night and `quiet/` nights, 0.5–2 % (one of each pair at least).
    static let pitchDeviation: Float = 0.004
    /// A chirp's line stands 25 dB or more over its neighbourhood (`BeepSegmenter.Beep.contrastDb`)
    /// in some frame: a piezo disc driven at full strength for its moment, as loud as the
    /// alarm's beeps, stands far out of the room's noise at its pitch. Measured: the battery's
    /// chirps 39.6-55 dB (at 12-34 dB SNR full band, in rooms); the lone blips of the room's
    /// noise that came as chirps 12-15.2 dB, just over the cut's start, among them the three
    /// of the fan loop (`stress-fan-fg_fan-dry`, 12.3 dB) that a 3 s loop repeats 30.03 s apart.
    static let contrastDb: Float = 25
    /// The chirps of one alarm lie within 3 % of the first's pitch: its disc's resonance,
    /// with the frame pitch estimate's error (a tenth of a bin) and a warm or cold room's drift.
    static let samePitch: Float = 0.03
    /// The next chirp comes 25–75 s after the one before: "at least once a minute"
    /// (UL 217, NFPA 72), 30–60 s as made, with a quarter more or less for the makers' spread.
    static let interval: ClosedRange<Double> = 25...75
    /// The third chirp comes as long after the second as the second after the first, within
    /// 3 %: one timer's period (a smoke alarm's microcontroller counts its minute on an RC or
    /// crystal clock, a few percent at worst over its temperature range), and the frame each
    /// chirp is heard to start in (15.6 ms either way).
    static let repeatTolerance = 0.03
    /// No other beep within 4 % of a chirp's pitch (a sounder's ±3 % and the estimate's
    /// error, `AlarmDetector.t4QuietBand`) in the 3 s before it …
    static let quietBefore = 3.0
    /// … nor in the 1.5 s after it: what the classifier's lookahead (`Classifier.lookahead`,
    /// 1.5 s of windows) leaves once the chirp has ended, so that the event opens at the
    /// second chirp's own window.
    static let quietAfter = 1.5
    static let quietBand: Float = AlarmDetector.t4QuietBand

    /// A beep heard: its frames (`end` exclusive), mean pitch and peak level, and its cues;
    /// as a lone chirp that came a train's interval after another like it, that interval
    /// (seconds) and the two chirps' cues.
    private struct Heard: Sendable {
        var start = Int.min / 2, end = Int.min / 2
        var hz: Float = 0
        var peakDb: Float = -.infinity
        var cues = Sounder.Cues()
        var pairedAfter: Double?
        var pairCues = Sounder.Cues()

        /// Whether `other` is another beep near this one's pitch (not this one again, cut by
        /// the next channel too: that one shares its frames), and not a blip far under it.
        func isNear(_ other: Heard) -> Bool {
            !overlaps(other) && abs(other.hz - hz) <= ChirpTrain.quietBand * hz && !Sounder.isOtherSound(other.peakDb, under: peakDb)
        }

        func overlaps(_ other: Heard) -> Bool { other.end > start && other.start < end }

        /// Whether `other` is this beep again, cut by the next channel: it shares its frames
        /// and its pitch. Not another line in the same frames, such as a piezo's harmonic
        /// aliased past 8 kHz (a 3.9 kHz chirp's third at 4.3 kHz), heard first.
        func isAgain(_ other: Heard) -> Bool { overlaps(other) && abs(other.hz - hz) <= ChirpTrain.quietBand * hz }

        /// Whether `other` may be the same sounder's: its pitch within `samePitch`, its peak
        /// within `Sounder.levelSpreadDb` (a blip of the room's noise at the pitch is not).
        func maySoundLike(_ other: Heard) -> Bool {
            abs(hz - other.hz) <= ChirpTrain.samePitch * other.hz && abs(peakDb - other.peakDb) <= Sounder.levelSpreadDb
        }
    }

    /// The last beeps heard near the chirps' pitches (a ring, `nextRecent` the oldest).
    private var recent = InlineArray<16, Heard>(repeating: Heard())
    private var nextRecent = 0
    /// Chirps heard alone so far, each waiting for `quietAfter` to pass (bit k of `waiting`
    /// for slot k), and whether another beep came near it since (`spoilt`). A room's noise
    /// makes blips at a chirp's pitch that may be alone too: slots are many, and a louder
    /// chirp takes the place of a quieter one when they are full.
    private var candidates = InlineArray<4, Heard>(repeating: Heard())
    private var waiting: UInt8 = 0, spoilt: UInt8 = 0
    /// Chirps heard alone that start no train yet, each the first (or, paired, the second) of
    /// the next one, for `interval`'s longest (bit k of `lonely` for slot k); as full, the
    /// same way.
    private var lones = InlineArray<8, Heard>(repeating: Heard())
    private var lonely: UInt8 = 0
    /// The latest train (nil when there has been none).
    public private(set) var span: Span?

    public init() {}

    /// Takes the beeps the detector's last frame ended and moves on to `frame` (the frame
    /// just pushed to `alarms`).
    public mutating func follow(_ alarms: AlarmDetector, frame: Int) {
        alarms.forEachEndedBeep { heard($0) }
        advance(frame: frame, alarm: alarms.span)
    }

    private static func frames(_ seconds: Double) -> Int { Int((seconds / AlarmDetector.frameSeconds).rounded(.up)) }

    /// The slot to keep `h` in, of those whose bit is set in `used`: a free one (or one
    /// `stale` says may go), else the quietest, if it is quieter than `h`; nil: none.
    private static func slot<let n: Int>(for h: Heard, in slots: InlineArray<n, Heard>, used: UInt8,
                                         stale: (Heard) -> Bool = { _ in false }) -> Int? {
        var quietest: Int?
        for k in slots.indices {
            if used & (1 << k) == 0 || stale(slots[k]) { return k }
            if slots[k].peakDb < h.peakDb, quietest.map({ slots[k].peakDb < slots[$0].peakDb }) ?? true { quietest = k }
        }
        return quietest
    }

    private mutating func heard(_ b: BeepSegmenter.Beep) {
        guard b.hz >= Self.hz.lowerBound * (1 - Self.quietBand), b.hz <= Self.hz.upperBound * (1 + Self.quietBand) else { return }
        let h = Heard(start: b.start, end: b.end, hz: b.hz, peakDb: b.peakDb, cues: Sounder.Cues(b))
        var again = false
        for k in candidates.indices where waiting & (1 << k) != 0 {
            if candidates[k].isNear(h) { spoilt |= 1 << k }
            if candidates[k].isAgain(h) { again = true }
        }
        if !again, Self.chirpSeconds.contains(b.seconds), Self.hz.contains(b.hz), b.hzDeviation <= Self.pitchDeviation,
           b.contrastDb >= Self.contrastDb {
            let quiet = Self.frames(Self.quietBefore)
            var alone = true
            for k in recent.indices where h.isNear(recent[k]) && h.start - recent[k].end < quiet { alone = false }
            if alone, let k = Self.slot(for: h, in: candidates, used: waiting) {
                candidates[k] = h
                waiting |= 1 << k
                spoilt &= ~(1 << k)
            }
        }
        recent[nextRecent] = h
        nextRecent = (nextRecent + 1) % recent.count
    }

    private mutating func advance(frame: Int, alarm: AlarmDetector.Span?) {
        var due = waiting
        while due != 0 {
            let k = due.trailingZeroBitCount
            due &= due &- 1
            let c = candidates[k]
            guard frame - c.end >= Self.frames(Self.quietAfter) else { continue }
            waiting &= ~(1 << k)
            let start = AlarmDetector.seconds(c.start), end = AlarmDetector.seconds(c.end)
            let alarmSounds = alarm.map { $0.active || $0.overlaps(start...end) } ?? false
            if spoilt & (1 << k) == 0 && !alarmSounds { chirped(c) }
        }
        guard var s = span, s.active else { return }
        let now = AlarmDetector.seconds(frame)
        if now - s.lastChirp > Self.interval.upperBound {
            s.active = false
            s.to = s.lastChirpEnd
        } else {
            s.to = now
        }
        span = s
    }

    /// A chirp, alone: the next of the train, the third of a new one, a second or a first.
    private mutating func chirped(_ c: Heard) {
        var c = c
        let start = AlarmDetector.seconds(c.start), end = AlarmDetector.seconds(c.end)
        if var s = span, s.active {
            if abs(c.hz - s.hz) <= Self.samePitch * s.hz, Self.interval.contains(start - s.lastChirp),
               (s.cues + c.cues).areSounder(levelSpread: Sounder.levelSpreadDb) {
                s.chirps += 1
                s.cues = s.cues + c.cues
                s.lastChirp = start
                s.lastChirpEnd = end
                span = s
                return
            }
        } else {
            // The last lone chirp that may be this one's sounder's: a train's chirps come one
            // at a time, so this one is its next, or starts no train with it.
            var first: Heard?
            for k in lones.indices where lonely & (1 << k) != 0 {
                if c.maySoundLike(lones[k]), lones[k].start > first?.start ?? .min { first = lones[k] }
            }
            let after = first.map { start - AlarmDetector.seconds($0.start) } ?? 0
            if let first, Self.interval.contains(after) {
                if let period = first.pairedAfter, abs(after - period) <= Self.repeatTolerance * period,
                   (first.pairCues + c.cues).areSounder(levelSpread: Sounder.levelSpreadDb) {
                    span = Span(from: start, to: end, active: true, hz: first.hz, chirps: 3, lastChirp: start, lastChirpEnd: end,
                                cues: first.pairCues + c.cues)
                    lonely = 0
                    return
                }
                if (first.cues + c.cues).areSounder(levelSpread: Sounder.levelSpreadDb) {
                    c.pairedAfter = after
                    c.pairCues = first.cues + c.cues
                }
            }
        }
        // This one is now its sounder's last.
        for k in lones.indices where c.maySoundLike(lones[k]) { lonely &= ~(1 << k) }
        let longest = Self.frames(Self.interval.upperBound)
        if let k = Self.slot(for: c, in: lones, used: lonely, stale: { c.start - $0.start > longest }) {
            lones[k] = c
            lonely |= 1 << k
        }
    }
}
