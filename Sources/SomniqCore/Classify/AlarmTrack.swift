/// One channel of `AlarmDetector`, a twelfth of an octave wide: the beeps its line makes,
/// frame by frame, and how far they have gone towards each alarm pattern.
///
/// Each pattern is timed at the resolution it needs. T4's 0.1 s beeps are cut finely: a beep
/// ends when the line falls 6 dB under its peak, so a room's tail (RT60 up to 0.6 s, 10 dB
/// per 0.1 s) does not fill T4's gaps. T3's half-second tones and a horn are cut coarsely:
/// a sliding tone in a room rises and falls through the room's modes by 10 dB and more, and
/// must stay one beep.
struct AlarmTrack: Sendable {
    typealias Beep = BeepSegmenter.Beep

    /// The channel's centre; it holds the lines within `AlarmDetector.channelWidth` of it.
    let centre: Float
    /// The line's frequency in the last frame it was heard.
    private(set) var hz: Float = 0
    private(set) var fine = BeepSegmenter(dropDb: 6, bridgeFrames: 1, pitchTolerance: AlarmDetector.beepPitchTolerance)
    private(set) var coarse = BeepSegmenter(dropDb: 10, bridgeFrames: 3, pitchTolerance: AlarmDetector.beepPitchTolerance)
    /// A horn that sounds on is followed through dropouts of a tenth of a second (rain's bursts
    /// mask a line for a moment) and through the swells of a room's modes. A horn whose pitch
    /// slides (a piezo's drift, 0.2-1 % over its sounding) crosses the notches of the room's
    /// response, 4/RT60 Hz apart and often 10-20 dB deep (Schroeder 1962, `t3Dropout`), slowly:
    /// its level falls into one over seconds, a few dB a second (measured on the battery: a
    /// 3.75 kHz horn sliding 0.2 % fell 19.5 dB over 7 s at RT60 0.57 s, its line 33 dB over
    /// its neighbourhood throughout, and was cut 12 dB under its peak). The drop that ends it
    /// is measured from a level that follows the line down by 20 dB a second, a fifth of the
    /// slowest fall of a drive switched off (a room's tail falls 60 dB in RT60, 0.6 s at
    /// most: 100 dB a second or more), and only while the line holds its level (`BeepSegmenter`).
    private(set) var held = BeepSegmenter(dropDb: 12, bridgeFrames: 6, pitchTolerance: AlarmDetector.hornPitchTolerance,
                                          followDb: 20 * Float(AlarmDetector.frameSeconds), keepsSteadyPitch: true)

    /// T3: two runs of tones at two pitches (shorter clicks in between are noise, and left out).
    private var toneRuns = (ToneRun(), ToneRun())

    /// The last four tones of T3's length at one pitch, newest last.
    struct ToneRun: Sendable {
        private var tones = (Beep(), Beep(), Beep(), Beep())
        private(set) var count = 0
        var last: Int { count > 0 ? tones.3.end : Int.min }
        /// Short gaps in a row, up to the last tone, and whether the run ever had three: then
        /// its tones are a beeper's, four or more in a row, where T3 sounds three and pauses.
        private var shortGaps = 0
        private(set) var beeping = false

        /// Whether `b` is the next tone: at this run's pitch, within a T3 pause of its last.
        func continues(with b: Beep) -> Bool {
            count > 0 && AlarmTrack.same(b.hz, tones.3.hz) && AlarmTrack.gap(tones.3, b) <= AlarmDetector.t3Pause.upperBound
        }

        /// Adds a tone; returns the four that keep T3's gaps (short, short and long, in any
        /// order) and a silent pause (`pauseIsSilent`, among the channel's `heard` beeps), if
        /// they do.
        mutating func add(_ b: Beep, heard: [Beep]) -> Cycle? {
            if count > 0 {
                shortGaps = AlarmDetector.t3Gap.contains(AlarmTrack.gap(tones.3, b)) ? shortGaps + 1 : 0
                beeping = beeping || shortGaps >= AlarmDetector.t3Tones
            }
            tones = (tones.1, tones.2, tones.3, b)
            count += 1
            return pattern(heard: heard)
        }

        /// Whether its last tone is `b`.
        func endsWith(_ b: Beep) -> Bool { count > 0 && tones.3 == b }

        /// Puts `whole` in place of its last tone, of which it is the rest (`AlarmTrack.joined`),
        /// and judges the four again.
        mutating func extendLast(_ whole: Beep, heard: [Beep]) -> Cycle? {
            tones.3 = whole
            return pattern(heard: heard)
        }

        private func pattern(heard: [Beep]) -> Cycle? {
            guard count >= 4, !beeping else { return nil }
            let gaps = SIMD3(AlarmTrack.gap(tones.0, tones.1), AlarmTrack.gap(tones.1, tones.2), AlarmTrack.gap(tones.2, tones.3))
            var short = 0, long = 0, pause = 0
            for k in 0..<3 {
                if AlarmDetector.t3Gap.contains(gaps[k]) { short += 1 } else if AlarmDetector.t3Pause.contains(gaps[k]) { long += 1; pause = k }
            }
            guard short == 2 && long == 1 else { return nil }
            var cues = Sounder.Cues(tones.0)
            cues.add(tones.1); cues.add(tones.2); cues.add(tones.3)
            guard cues.areSoundersTones else { return nil }
            let cycle = Cycle(tones: tones, pause: pause)
            return cycle.pauseIsSilent(at: cycle.aroundPause.0.hz, loudest: cues.loudest, heard: heard) ? cycle : nil
        }
    }

    /// Four tones that keep T3's cadence, and which of their three gaps is the pause.
    struct Cycle: Sendable {
        var tones: (Beep, Beep, Beep, Beep)
        var pause: Int
        var start: Int { tones.0.start }
        /// Tone `k`, 0 to 3.
        func tone(_ k: Int) -> Beep { k == 0 ? tones.0 : k == 1 ? tones.1 : k == 2 ? tones.2 : tones.3 }
        /// The tones' beat: the frames from one tone's start to the next's across the two short
        /// gaps, their mean.
        var beat: Int {
            var sum = 0
            for k in 0..<3 where k != pause { sum += tone(k + 1).start - tone(k).start }
            return sum / 2
        }
        /// The tones before and after the pause.
        var aroundPause: (Beep, Beep) { pause == 0 ? (tones.0, tones.1) : pause == 1 ? (tones.1, tones.2) : (tones.2, tones.3) }

        /// T3's pause is silent at its tone: the signal is off for 1.5 s (ISO 8201 §4.2, NFPA 72
        /// §18.4.2). A beep at `hz` (`same`) among `heard` no more than `Sounder.levelSpreadDb`
        /// under `loudest`, where a beeper's next beep would fall (T3's shortest gap, `t3Gap`,
        /// or more after the tone before the pause and before the tone after it), is the
        /// sounder beeping on, not pausing: a reversing lorry's beeper with one beep lost in
        /// noise or cut short by a room's notch keeps T3's gaps, and so do a fan's beat and a
        /// tune's repeated note. A tone's own tail (within the coarse cut) and the pieces of a
        /// tone a room's notch broke (`AlarmDetector.t3Dropout`, 0.2 s), joined or not, lie
        /// nearer the tones. Measured on the battery (seeds 1-3): such a beep lay in the pause
        /// of 5 of the 14 look-alikes raised as T3 (reversing beepers, a fan's beat, a
        /// low-battery case's HVAC) and of no T3 alarm's; one steady beeper, read as T3 on an
        /// aliased harmonic, had one and is found as steady beeping.
        func pauseIsSilent(at hz: Float, loudest: Float, heard: [Beep]) -> Bool {
            let gap = Int((AlarmDetector.t3Gap.lowerBound / AlarmDetector.frameSeconds).rounded(.up))
            let (tone, next) = aroundPause
            return !heard.contains { r in
                r.start >= tone.end + gap && r.end + gap <= next.start && AlarmTrack.same(r.hz, hz) && r.peakDb >= loudest - Sounder.levelSpreadDb
            }
        }
    }

    /// The cycle of T3 the last frame found, if it found one.
    private(set) var cycle: Cycle?

    /// T4: the group of short beeps under way, and the last whole group before it.
    private var group = Group(), lastGroup = Group()
    /// The beeps the last frame ended, at each resolution.
    private(set) var ended: (fine: Beep?, coarse: Beep?) = (nil, nil)
    /// The last sound that held the line for a second or more.
    private(set) var lastHeld: Beep?
    /// Steady beeping: two runs of beeps at two pitches, as for T3, so that a burst of noise
    /// in the channel between two beeps does not end the sounder's run.
    private(set) var steadyRuns = (SteadyRun(), SteadyRun())

    /// Beeps of one pitch and one length at one interval, from `first` to `last`.
    struct SteadyRun: Sendable {
        private(set) var first = Beep(), last = Beep()
        private(set) var count = 0, intervals = 0
        private(set) var period: Double = 0
        private(set) var cues = Sounder.Cues()
        /// How its beeps' peaks move over its first `hornSeconds` (`Sounder.steadyLevelChangeDb`).
        private var trend = Sounder.Trend()
        /// Whether its level held as a fixed sounder's does over its first `hornSeconds`, judged
        /// once, the first time it has beeped long enough to be an alarm; nil before. A run
        /// whose level moved never is one, whatever its later beeps do (a lorry that turned
        /// away and comes back).
        private var heldItsLevel: Bool?
        /// Whether it was heard to be one note of a tune (`AlarmDetector.isTune`) or the
        /// overtone of a sounder under the horn band (`AlarmDetector.isOvertone`): then it never
        /// becomes an alarm.
        var other = false

        init() {}
        /// Whether its first beep, or the one before it, came out of silence at its pitch, after
        /// listening began (`heardToStart`): only such a run can be an alarm. The others are
        /// followed too, for `beatsBetween`.
        private(set) var novel = false

        init(_ b: Beep, novel: Bool) {
            first = b; last = b; count = 1; self.novel = novel; cues = Sounder.Cues(b)
            trend.add(b.peakDb, at: 0)
        }

        /// Whether `b` is the run's next beep: its pitch within `hornPitchTolerance`, its
        /// length within `steadyLengthTolerance`, its level within `Sounder.otherSoundDb` of
        /// the run's (a blip of the room's noise far under a sounder's beeps is not one of
        /// them, nor are they its), one interval after the last (the first interval sets it),
        /// or two (a beep lost in noise).
        func continues(with b: Beep) -> Bool {
            guard count > 0, abs(b.hz - first.hz) <= AlarmDetector.hornPitchTolerance * first.hz,
                  !Sounder.isOtherSound(b.peakDb, under: cues.loudest), !Sounder.isOtherSound(cues.quietest, under: b.peakDb),
                  abs(b.seconds - first.seconds) <= AlarmDetector.steadyLengthTolerance * first.seconds else { return false }
            let p = Double(b.start - last.start) * AlarmDetector.frameSeconds
            if intervals == 0 { return AlarmDetector.steadyPeriod.contains(p) }
            return abs(p - period) <= AlarmDetector.steadyPeriodTolerance * period
                || abs(p - 2 * period) <= AlarmDetector.steadyPeriodTolerance * 2 * period
        }

        mutating func add(_ b: Beep) {
            let p = Double(b.start - last.start) * AlarmDetector.frameSeconds
            if intervals == 0 || abs(p - period) <= AlarmDetector.steadyPeriodTolerance * period {
                intervals += 1
                period += (p - period) / Double(intervals)
            }
            last = b
            count += 1
            cues.add(b)
            let since = Double(b.start - first.start) * AlarmDetector.frameSeconds
            if since <= AlarmDetector.hornSeconds { trend.add(b.peakDb, at: Float(since)) }
        }

        /// Whether this run, rather than `other`, gives way to a new one at `frame`: the one
        /// whose beeps have stopped (longer than two intervals, or the longest interval, since
        /// its last), else the one that cannot be an alarm (not `novel`), else the one with fewer beeps (noise's make runs of one or two, which two
        /// bursts within a sounder's interval must not end), else the staler.
        func yields(to other: SteadyRun, at frame: Int) -> Bool {
            let (over, otherOver) = (isOver(at: frame), other.isOver(at: frame))
            if over != otherOver { return over }
            if novel != other.novel { return !novel }
            if count != other.count { return count < other.count }
            return last.start <= other.last.start
        }

        /// Whether this run beeps at `other`'s interval but between its beeps, as the notes of
        /// a tune played over and over do; a sounder's harmonics (aliased or not) beep with it.
        /// A tune's notes are one instrument's: a run far under `other`'s beeps
        /// (`Sounder.otherSoundDb`) is the room's noise keeping a beat by chance.
        func beatsBetween(_ other: SteadyRun, at frame: Int) -> Bool {
            guard !Sounder.isOtherSound(cues.loudest, under: other.cues.loudest), let offset = offBeat(from: other, at: frame)
            else { return false }
            return offset > max(2, 0.5 * Double(min(other.last.end - other.last.start, last.end - last.start)))
        }

        /// Whether this run beeps with `other`, in step (its beeps start within two frames of
        /// `other`'s) and at its interval, as a sounder's fundamental does with its overtones.
        func beatsWith(_ other: SteadyRun, at frame: Int) -> Bool {
            offBeat(from: other, at: frame).map { $0 <= 2 } ?? false
        }

        /// When this run still beeps, at `other`'s interval, how far (frames) its last beep's
        /// start lies from `other`'s beat; nil when it does not.
        private func offBeat(from other: SteadyRun, at frame: Int) -> Double? {
            guard count >= 3, intervals >= 2, !isOver(at: frame), other.period > 0,
                  abs(period - other.period) <= AlarmDetector.steadyPeriodTolerance * other.period else { return nil }
            let periodFrames = other.period / AlarmDetector.frameSeconds
            let lag = Double(last.start - other.last.start)
            return abs(lag - (lag / periodFrames).rounded() * periodFrames)
        }

        private func isOver(at frame: Int) -> Bool {
            let since = Double(frame - last.start) * AlarmDetector.frameSeconds
            let longest = intervals == 0 ? AlarmDetector.steadyPeriod.upperBound : 2 * (1 + AlarmDetector.steadyPeriodTolerance) * period
            return count == 0 || since > longest
        }

        /// The frame of its first beep, once it has kept on for `hornSeconds` and
        /// `steadyIntervals` intervals at a horn's pitch, at one level.
        mutating func found() -> Int? {
            let span = Double(last.end - first.start) * AlarmDetector.frameSeconds
            // A beep lost in noise is forgiven once in every four intervals; blips that come
            // now and then at a multiple of some period are not a sounder's beeping.
            guard novel, !other, heldItsLevel != false, intervals >= AlarmDetector.steadyIntervals, count - 1 - intervals <= max(1, intervals / 4), span >= AlarmDetector.hornSeconds,
                  AlarmDetector.steadyPeriod.contains(period), AlarmDetector.hornHz.contains(first.hz),
                  cues.areSoundersTones else { return nil }
            if heldItsLevel == nil { heldItsLevel = abs(trend.drift) <= Sounder.steadyLevelChangeDb }
            return heldItsLevel == true ? first.start : nil
        }
    }
    /// The last seven coarse beeps, newest last (for `heardToStart`).
    private(set) var recent = [Beep](repeating: Beep(start: -1_000_000, end: -1_000_000), count: 7)
    /// For each of `recent`, whether it came out of silence at its pitch (`heardToStart`).
    private var recentFirst = [Bool](repeating: false, count: 7)
    /// The last 32 coarse beeps, for `Cycle.pauseIsSilent` (in no order) and
    /// `AlarmDetector.beepsThroughPause` (`firstLately`, oldest first): four tones of T3 span
    /// up to 6.7 s, and seven beeps are too few to reach back over them when a beeper's beeps
    /// come in pairs and the room's noise makes blips between them (an alarm clock's double
    /// beeps on a tune-side night, read as tones where a pair was joined across its 0.09 s
    /// gap, and as a pause where one was not: the pair in it had left the last seven).
    private var lately = [Beep](repeating: Beep(start: -1_000_000, end: -1_000_000), count: 32)
    /// Where in `lately` the next beep goes: its oldest.
    private var latelyNext = 0

    /// The oldest of the channel's last 32 coarse beeps that `matches`, if any.
    func firstLately(where matches: (Beep) -> Bool) -> Beep? {
        for k in 0..<lately.count {
            let b = lately[(latelyNext + k) % lately.count]
            if matches(b) { return b }
        }
        return nil
    }

    /// The last three fine beeps, newest last.
    private(set) var fineRecent = (Beep(start: -1_000_000, end: -1_000_000), Beep(start: -1_000_000, end: -1_000_000),
                              Beep(start: -1_000_000, end: -1_000_000))
    /// Fine beeps since the last whole group that were not in a group of their own.
    private var strays = 0

    struct Group: Sendable {
        var beeps = 0, start = 0, end = 0
        var hz: Float = 0
        /// Seconds without beeps on the line before the group, allowing `AlarmDetector.t4Strays`.
        var quietBefore = Double.infinity
        /// The shortest and longest beep in it, and from one beep's start to the next, frames:
        /// a sounder's are even, give or take a beep lost in noise (twice the interval).
        var shortest = Int.max, longest = 0, closest = Int.max, furthest = 0, lastStart = 0
        /// The shortest and longest beep after its first, frames (the first's is `lengths[0]`).
        var laterShortest = Int.max, laterLongest = 0
        /// The peaks of its first eight beeps, dB, and which of them were at their top in one
        /// frame only (bit k for beep k).
        var peaks = SIMD8<Float>(repeating: 0)
        var spiked: UInt8 = 0
        var cues = Sounder.Cues()
        /// The lengths of its first eight beeps, frames.
        var lengths = SIMD8<Int32>(repeating: 0)
        var even: Bool {
            (Double(longest) <= AlarmDetector.t4Evenness * Double(shortest) || firstHeardWhole)
                && (beeps < 3 || Double(furthest) <= AlarmDetector.t4IntervalSpread * Double(closest))
        }
        /// Whether the first beep is the longest and the rest alike: one sounder's group heard
        /// in a room. The first rises out of silence and is heard whole; each later one rises
        /// on the tail of the beep before (60 dB in RT60: 7 dB in a 0.06 s gap at RT60 0.5 s)
        /// and stands `AlarmDetector.riseDb` over it only late, and all alike, so they are
        /// heard shorter, within `AlarmDetector.t4PulseJitterFrames` of each other.
        var firstHeardWhole: Bool {
            beeps >= 3 && Int(lengths[0]) >= laterLongest && laterLongest - laterShortest <= AlarmDetector.t4PulseJitterFrames
        }
        /// Whether its beeps are one tone, each within `AlarmDetector.sameToneTolerance` of every
        /// other (`AlarmTrack.same`), not only of the first: a sounder's pitch holds to about a
        /// percent each way over a group. Each beep within 2 % of the first lets the group span
        /// 4 %, as a voice's or a tune's glide does (a baby's cry on a tune-side night, looped at
        /// T4's pause: beeps at 2324, 2313 and 2367 Hz, 2.3 % from lowest to highest). Measured on
        /// the battery (seeds 1-3, 1,037 T4 groups found, warbles up to ±1 %): 1.9 % at most.
        var onePitch: Bool { cues.onePitch }
        /// Whether its two loudest beeps sound at one level (`Sounder.twoBeepsDb`): a sounder's
        /// drive is the same at every beep, and what lowers one (a burst masking it, a beep cut
        /// short) lowers it alone. A tune's notes and a voice's syllables rise and fall. A loudest
        /// beep at its top in one frame only has another sound's transient on it (a clock's tick
        /// rings 3 dB down within 15-23 ms, `Sounder.shortestTopFrames`): the next two are judged.
        var oneLevel: Bool {
            let n = min(beeps, SIMD8<Float>.scalarCount)
            var judged: UInt8 = n >= 8 ? 0xFF : (1 << n) - 1
            func loudest() -> Int {
                var best = -1
                for k in 0..<n where judged & (1 << k) != 0 && (best < 0 || peaks[k] > peaks[best]) { best = k }
                judged &= ~(1 << best)
                return best
            }
            guard n >= 2 else { return false }
            var first = loudest()
            if n > 2 && spiked & (1 << first) != 0 { first = loudest() }
            return peaks[first] - peaks[loudest()] <= Sounder.twoBeepsDb
        }
        var valid: Bool {
            AlarmDetector.t4Beeps.contains(beeps) && AlarmDetector.t4GroupSeconds.contains(Double(end - start) * AlarmDetector.frameSeconds)
                && quietBefore >= AlarmDetector.t4QuietBefore && even && onePitch && oneLevel
        }

        /// Its middle beep by length (the shorter of the two middle ones), frames.
        var typicalLength: Int32 {
            let n = min(beeps, SIMD8<Int32>.scalarCount), k = (n - 1) / 2
            for i in 0..<n {
                var shorter = 0, asLong = 0
                for j in 0..<n where lengths[j] <= lengths[i] { if lengths[j] < lengths[i] { shorter += 1 } else { asLong += 1 } }
                if shorter <= k && k < shorter + asLong { return lengths[i] }
            }
            return 0
        }

        /// Whether `other`'s beeps are as long as this group's: one sounder's pulses (NFPA 720:
        /// each 0.1 s ±10 %), however the room breaks a few of them. As heard, a 3-frame beep
        /// reads a frame shorter or longer: the two groups' typical beeps lie within a factor of
        /// 2. Measured on the battery (seeds 1-3): the T4 alarms found, 1.75 at most; a tune's
        /// phrase that came back 5 s later at another articulation, 2.75 and 4.67.
        func beepsAsLong(as other: Group) -> Bool {
            let (a, b) = (typicalLength, other.typicalLength)
            return max(a, b) <= 2 * min(a, b)
        }

        mutating func add(_ b: Beep) {
            if beeps < SIMD8<Int32>.scalarCount { lengths[beeps] = Int32(b.end - b.start) }
            if beeps > 0 { closest = min(closest, b.start - lastStart); furthest = max(furthest, b.start - lastStart) }
            lastStart = b.start
            if beeps < SIMD8<Float>.scalarCount {
                peaks[beeps] = b.peakDb
                if b.topFrames <= 1 { spiked |= 1 << beeps }
            }
            cues.add(b)
            beeps += 1
            end = b.end
            shortest = min(shortest, b.end - b.start); longest = max(longest, b.end - b.start)
            if beeps > 1 { laterShortest = min(laterShortest, b.end - b.start); laterLongest = max(laterLongest, b.end - b.start) }
        }
    }

    /// The stream's first frame: what sounded from the start was not heard to start.
    private let firstFrame: Int

    init(centre: Float, firstFrame: Int) {
        self.centre = centre
        self.firstFrame = firstFrame
    }

    /// Whether a beep is this channel's to judge: its pitch lies nearer this channel's centre
    /// than the next one's. A line near the channel's edge that wanders in and out of it (a
    /// note's vibrato) is cut into beeps here, whole in the channel next to it.
    private func own(_ beep: Beep) -> Bool { abs(beep.hz - centre) <= AlarmDetector.channelOwnership * centre }

    /// Whether the last frame found the channel silent with no beep under way (and so
    /// changed nothing but to forget what had ended and the valleys): another such frame
    /// would change nothing at all (`AlarmDetector.push` skips it).
    private(set) var quiescent = false

    /// Takes this frame's lines, of which those with bit j of `inChannel` set are the
    /// channel's (`AlarmDetector.channelLines`); returns the pattern its beeps complete, if
    /// they do, with the frame of the pattern's first beep.
    mutating func frame(_ lines: ToneLines, inChannel: UInt8, at frame: Int) -> (AlarmDetector.Pattern, from: Int)? {
        // Lines come strongest first: the channel's line is the first inside it.
        let heard = inChannel != 0
        if heard { hz = lines.lines[inChannel.trailingZeroBitCount].hz }
        ended = (nil, nil)
        joinedDropout = nil
        cycle = nil
        // Nothing sounds in the channel, and no beep is under way: nothing can end or begin.
        guard heard || fine.on || coarse.on || held.on else {
            fine.silence(); coarse.silence(); held.silence()
            quiescent = true
            return nil
        }
        quiescent = false
        var found: (AlarmDetector.Pattern, from: Int)?
        if let beep = fine.frame(lines, inChannel: inChannel, at: frame) {
            if beep.seconds > AlarmDetector.t4Beep.upperBound { holds(beep) }
            if beep.seconds >= AlarmDetector.t4Beep.lowerBound, own(beep) {
                ended.fine = beep
                if let from = temporalFour(beep) { found = (.temporalFour, from) }
            }
        }
        if let beep = held.frame(lines, inChannel: inChannel, at: frame), beep.seconds >= AlarmDetector.heldSeconds { lastHeld = beep }
        if let beep = coarse.frame(lines, inChannel: inChannel, at: frame), beep.seconds >= AlarmDetector.t4Beep.lowerBound, own(beep) {
            ended.coarse = beep
            if let c = temporalThree(beep) {
                cycle = c
                found = found ?? (.temporalThree, c.start)
            }
            let start = heardToStart(beep)
            if let from = steady(beep, heardToStart: start) { found = found ?? (.steadyBeeps, from) }
            recent.removeFirst()
            recent.append(beep)
            lately[latelyNext] = beep
            latelyNext = (latelyNext + 1) % lately.count
            recentFirst.removeFirst()
            recentFirst.append(start == beep.start)
        }
        return found
    }

    static func gap(_ a: Beep, _ b: Beep) -> Double { Double(b.start - a.end) * AlarmDetector.frameSeconds }
    static func same(_ a: Float, _ b: Float) -> Bool { abs(a - b) <= AlarmDetector.sameToneTolerance * b }

    /// ISO 8201 T3 in the last four tones: all of T3's length and of one pitch, the gaps
    /// between them two short and one long, in any order (the alarm may be first heard
    /// mid-cycle), and never four tones a short gap apart at that pitch (a reversing lorry's
    /// beeper, one beep lost, keeps T3's gaps once). A longer sound on the line starts the
    /// count again.
    ///
    /// A tone broken by a dropout (`AlarmDetector.t3Dropout`) is judged whole: a piece at the
    /// last one's pitch and level that starts within the dropout of its end is the rest of it,
    /// when both hold their pitch as a sounder does (`Sounder.noisePitchDeviation`; a voice's
    /// harmonic and a noise's line wander further) and the whole has a sounder's flat top
    /// (`Sounder.shortestTopFrames`: a loud blip beside a quieter piece is no one tone; a
    /// pattern forgives one ringing tone in four, not a dropout and a ringing besides).
    private mutating func temporalThree(_ b: Beep) -> Cycle? {
        let before = piece
        piece = nil
        guard b.seconds <= AlarmDetector.t3Tone.upperBound else { toneRuns = (ToneRun(), ToneRun()); return nil }
        guard b.spread <= AlarmDetector.sounderSpread else { return nil }
        if let p = before, Self.gap(p, b) <= AlarmDetector.t3Dropout, Self.same(b.hz, p.hz),
           abs(b.peakDb - p.peakDb) <= AlarmDetector.t3DropoutLevelDb, max(p.hzDeviation, b.hzDeviation) <= Sounder.noisePitchDeviation,
           case let whole = Self.joined(p, b),
           whole.seconds <= AlarmDetector.t3Tone.upperBound, whole.topFrames >= Sounder.shortestTopFrames {
            piece = whole
            joinedDropout = (p.start, p.end, b.start)
            (runsBeforeJoin, rest) = (toneRuns, b)
            if toneRuns.0.endsWith(p) { return toneRuns.0.extendLast(whole, heard: lately) }
            if toneRuns.1.endsWith(p) { return toneRuns.1.extendLast(whole, heard: lately) }
            return AlarmDetector.t3Tone.contains(whole.seconds) ? nextTone(whole) : nil
        }
        piece = b
        return AlarmDetector.t3Tone.contains(b.seconds) ? nextTone(b) : nil
    }

    /// The last piece of a tone T3 heard (`temporalThree`), whole as far as it goes.
    private var piece: Beep?

    /// The dropout across which the last frame joined a tone (`temporalThree`), frames: from
    /// the end of the piece before it (which began at `start`) to the start of the next.
    private(set) var joinedDropout: (start: Int, from: Int, to: Int)?

    /// Whether this channel's line broke off and came back as the tone of `dropout` did, within
    /// two frames each way: a beep of it began with the tone and ended where the dropout began,
    /// and one began where the dropout ended.
    func brokeOff(as dropout: (start: Int, from: Int, to: Int)) -> Bool {
        recent.contains { abs($0.start - dropout.start) <= 2 && abs($0.end - dropout.from) <= 2 }
            && (recent.contains { abs($0.start - dropout.to) <= 2 } || coarse.on && abs(coarse.beepStart - dropout.to) <= 2)
    }

    /// The tone runs as they were before the last join, and the piece joined.
    private var runsBeforeJoin = (ToneRun(), ToneRun())
    private var rest: Beep?

    /// Undoes the join the last frame made: its two pieces were two sounds, not one tone
    /// (`AlarmDetector.brokenElsewhere`). The runs are as they were before it, and the second
    /// piece is judged on its own; returns the cycle it completes, if it does (and `cycle`
    /// is that).
    mutating func unjoin() -> Cycle? {
        guard joinedDropout != nil, let b = rest else { return nil }
        toneRuns = runsBeforeJoin
        joinedDropout = nil
        piece = b
        cycle = AlarmDetector.t3Tone.contains(b.seconds) ? nextTone(b) : nil
        return cycle
    }

    /// The tone the coarse beep the last frame ended belongs to: with the pieces before it
    /// when it is the rest of a broken tone (`temporalThree`), else the beep itself.
    var endedTone: Beep? {
        guard let b = ended.coarse else { return nil }
        if let whole = piece, whole.end == b.end { return whole }
        return b
    }

    /// One beep of two pieces of a tone, `a` and then `b`: from `a`'s start to `b`'s end, its
    /// measures those of its pieces, weighted by their frames (the level's slope, its share at
    /// the top) or the larger (the pitch's deviation and spread, the flat top).
    static func joined(_ a: Beep, _ b: Beep) -> Beep {
        let (na, nb) = (Float(a.end - a.start), Float(b.end - b.start))
        let peak = max(a.peakDb, b.peakDb)
        let (topA, topB) = (a.peakDb >= peak - Sounder.topDb, b.peakDb >= peak - Sounder.topDb)
        return Beep(start: a.start, end: b.end, hz: (a.hz * na + b.hz * nb) / (na + nb),
                    spread: max(a.spread, b.spread, max(a.hz, b.hz) / min(a.hz, b.hz) - 1), peakDb: peak,
                    contrastDb: max(a.contrastDb, b.contrastDb),
                    slopeDbPerSecond: (a.slopeDbPerSecond * na + b.slopeDbPerSecond * nb) / (na + nb),
                    topShare: ((topA ? a.topShare * na : 0) + (topB ? b.topShare * nb : 0)) / (na + nb),
                    hzDeviation: max(a.hzDeviation, b.hzDeviation),
                    topFrames: max(topA ? a.topFrames : 0, topB ? b.topFrames : 0))
    }

    private mutating func nextTone(_ b: Beep) -> Cycle? {
        // A tone of T3's length at another pitch (a burst of noise, another sound) starts a
        // second run beside the first rather than ending it; the staler run gives way.
        if toneRuns.0.continues(with: b) {
            return toneRuns.0.add(b, heard: lately)
        } else if toneRuns.1.continues(with: b) {
            return toneRuns.1.add(b, heard: lately)
        } else if toneRuns.0.last < toneRuns.1.last {
            toneRuns.0 = ToneRun()
            return toneRuns.0.add(b, heard: lately)
        } else {
            toneRuns.1 = ToneRun()
            return toneRuns.1.add(b, heard: lately)
        }
    }

    /// NFPA 720 T4: a group of short beeps close together that stands alone, then, after
    /// T4's long silence, three short beeps of the next group, all of one pitch. A stray beep
    /// at that pitch (another sound) is forgiven; an insect's chirping is not.
    private mutating func temporalFour(_ b: Beep) -> Int? {
        defer { fineRecent = (fineRecent.1, fineRecent.2, b) }
        // A blip far under the sounder's beeps at their pitch is another sound on the line (the
        // room's noise): it neither joins the group nor ends it, nor breaks the pause after it.
        // A beep far over a group's is the sounder's first, and what went before was noise.
        let inGroup = group.beeps > 0
        if inGroup || lastGroup.valid, case let sounder = inGroup ? group : lastGroup, Self.same(b.hz, sounder.hz) {
            if Sounder.isOtherSound(b.peakDb, under: sounder.cues.loudest) { return nil }
            if inGroup && Sounder.isOtherSound(group.cues.loudest, under: b.peakDb) { group = Group() }
        }
        let isShort = AlarmDetector.t4Beep.contains(b.seconds) && b.spread <= AlarmDetector.sounderSpread
        if isShort && group.beeps > 0 && Self.same(b.hz, group.hz)
            && Double(b.start - group.end) * AlarmDetector.frameSeconds <= AlarmDetector.t4GroupGap.upperBound {
            group.add(b)
        } else {
            closeGroup()
            // Only a beep at the alarm's pitch breaks its silence; other sounds in the channel do not.
            let stray = lastGroup.valid && Self.same(b.hz, lastGroup.hz)
            guard isShort else { if stray { strays += 1 }; return nil }
            group = Group(start: b.start, hz: b.hz, quietBefore: quiet(before: b))
            group.add(b)
        }
        // The second group is the first again: as many beeps (give or take one), as long.
        guard group.beeps >= AlarmDetector.t4SecondGroupBeeps, group.even, group.onePitch, group.oneLevel, lastGroup.valid,
              Self.same(group.hz, lastGroup.hz),
              group.beepsAsLong(as: lastGroup),
              strays <= AlarmDetector.t4Strays, abs(group.beeps - lastGroup.beeps) <= 1 || group.beeps < lastGroup.beeps
        else { return nil }
        let pause = Double(group.start - lastGroup.end) * AlarmDetector.frameSeconds
        guard AlarmDetector.t4Pause.contains(pause), (lastGroup.cues + group.cues).areSounder(),
              group.cues.shareALevel(with: lastGroup.cues, within: Sounder.groupLevelDb) else { return nil }
        return lastGroup.start
    }

    /// T4's pause is silent in the band its sounder's beeps may take (`AlarmDetector.t4QuietBand`):
    /// a longer sound there, in this channel whichever channel it is nearest, within a group's
    /// gap after the group under way or the last whole one, was going on, and that group was
    /// its start (a phone's ring whose line broke into beeps before it held).
    private mutating func holds(_ b: Beep) {
        func startsIt(_ g: Group) -> Bool {
            g.beeps > 0 && b.start >= g.start && abs(b.hz - g.hz) <= AlarmDetector.t4QuietBand * g.hz
                && Double(b.start - g.end) * AlarmDetector.frameSeconds <= AlarmDetector.t4GroupGap.upperBound
                && !Sounder.isOtherSound(b.peakDb, under: g.cues.loudest)
        }
        if startsIt(group) {
            if lastGroup.valid && Self.same(group.hz, lastGroup.hz) { strays += group.beeps }
            group = Group()
        }
        if lastGroup.valid && startsIt(lastGroup) { lastGroup = Group() }
    }

    /// Seconds since the line last sounded near `b`'s pitch (`AlarmDetector.t4QuietBand`),
    /// forgiving `AlarmDetector.t4Strays` beeps.
    private func quiet(before b: Beep) -> Double {
        var forgiven = AlarmDetector.t4Strays
        for earlier in [fineRecent.2, fineRecent.1, fineRecent.0]
        where abs(earlier.hz - b.hz) <= AlarmDetector.t4QuietBand * b.hz && !Sounder.isOtherSound(earlier.peakDb, under: b.peakDb) {
            if forgiven == 0 { return Double(b.start - earlier.end) * AlarmDetector.frameSeconds }
            forgiven -= 1
        }
        return .infinity
    }

    /// A whole group is remembered until the next whole one.
    private mutating func closeGroup() {
        if group.valid { lastGroup = group; strays = 0 } else if lastGroup.valid && Self.same(group.hz, lastGroup.hz) { strays += group.beeps }
        group = Group()
    }

    /// Where the sound of beep `b` was heard to start at its pitch: at `b`, when no beep like
    /// it (the same pitch, half to twice as long) sounded in the `hornNoveltySeconds` before it;
    /// at the beep before, when that one came out of silence (a sounder's first beep may be
    /// measured odd, in a room's build-up or begun in a burst of noise, and its run of beeps
    /// then starts at the second); nil when like beeps go further back. Clicks of noise do
    /// not count, nor blips far under `b` (`Sounder.otherSoundDb`): the room's, not a sounder's.
    private func heardToStart(_ b: Beep) -> Int? {
        for k in recent.indices.reversed() {
            let r = recent[k]
            if r.end <= b.start && Double(b.start - r.end) * AlarmDetector.frameSeconds < AlarmDetector.hornNoveltySeconds
                && Self.same(r.hz, b.hz) && r.seconds >= 0.5 * b.seconds && r.seconds <= 2 * b.seconds
                && !Sounder.isOtherSound(r.peakDb, under: b.peakDb) {
                return recentFirst[k] ? r.start : nil
            }
        }
        return b.start
    }

    /// The steady run the beep this frame ended went on, if it did.
    var steadyRun: SteadyRun? {
        guard let b = ended.coarse else { return nil }
        return steadyRuns.0.count > 0 && steadyRuns.0.last == b ? steadyRuns.0 : steadyRuns.1.count > 0 && steadyRuns.1.last == b ? steadyRuns.1 : nil
    }

    /// Whether that run was heard to be another sound's (a tune's, an overtone).
    var steadyRunIsOther: Bool { steadyRun?.other ?? false }

    /// Marks that run as another sound's.
    mutating func markSteadyRunOther() {
        guard let b = ended.coarse else { return }
        if steadyRuns.0.last == b { steadyRuns.0.other = true } else if steadyRuns.1.last == b { steadyRuns.1.other = true }
    }

    /// A piezo horn beeping steadily, without the T3 rhythm (EN 14604 prescribes no pattern):
    /// beeps of one length at one interval and one pitch, for `hornSeconds` or more. A beep
    /// that continues neither run starts a new one in place of the weaker (`yields`). Only a
    /// run that started out of silence at its pitch, as a sounder switched on does, and after
    /// listening began, is an alarm: an insect chirping on and off at one pitch never does.
    private mutating func steady(_ b: Beep, heardToStart start: Int?) -> Int? {
        guard b.spread <= AlarmDetector.hornSpread, b.seconds >= AlarmDetector.steadyBeepSeconds else { return nil }
        if steadyRuns.0.continues(with: b) {
            steadyRuns.0.add(b)
            return steadyRuns.0.found()
        } else if steadyRuns.1.continues(with: b) {
            steadyRuns.1.add(b)
            return steadyRuns.1.found()
        }
        let run = SteadyRun(b, novel: start.map { Double($0 - firstFrame) * AlarmDetector.frameSeconds >= AlarmDetector.listeningSeconds } ?? false)
        if steadyRuns.0.yields(to: steadyRuns.1, at: b.start) { steadyRuns.0 = run } else { steadyRuns.1 = run }
        return nil
    }

}
