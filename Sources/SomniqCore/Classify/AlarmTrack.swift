/// One tonal line followed from short frame to short frame (`AlarmDetector`): the beeps it
/// makes, and how far they have gone towards each alarm pattern.
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
    private(set) var fine = BeepSegmenter(dropDb: 6, bridgeFrames: 1)
    private(set) var coarse = BeepSegmenter(dropDb: 10, bridgeFrames: 3)

    var on: Bool { fine.on || coarse.on }

    /// T3: the last four beeps of T3's length, newest last (shorter clicks in between are
    /// noise, and left out).
    private var tones: (Beep, Beep, Beep, Beep) = (Beep(), Beep(), Beep(), Beep())
    private var toneCount = 0
    /// T4: the group of short beeps under way, and the last whole group before it.
    private var group = Group(), lastGroup = Group()
    /// Steady beeping: regular intervals since `steadyFrom`, and the beep before.
    private var previous: Beep?
    /// The beeps the last frame ended, at each resolution.
    private(set) var ended: (fine: Beep?, coarse: Beep?) = (nil, nil)
    /// The last sound that held the line for a second or more.
    private(set) var lastHeld: Beep?
    private var steadyFrom = 0, steadyIntervals = 0
    private var steadyPeriod: Double = 0, steadyHz: Float = 0, steadySeconds: Double = 0

    /// The ends of the last three fine beeps, newest last.
    private var fineEnds = (-1_000_000, -1_000_000, -1_000_000)
    /// Fine beeps since the last whole group that were not in a group of their own.
    private var strays = 0

    struct Group: Sendable {
        var beeps = 0, start = 0, end = 0
        var hz: Float = 0
        /// Seconds without beeps on the line before the group, allowing `AlarmDetector.t4Strays`.
        var quietBefore = Double.infinity
        var valid: Bool {
            AlarmDetector.t4Beeps.contains(beeps) && AlarmDetector.t4GroupSeconds.contains(Double(end - start) * AlarmDetector.frameSeconds)
                && quietBefore >= AlarmDetector.t4QuietBefore
        }
    }


    func holds(_ line: ToneLines.Line) -> Bool { abs(line.hz - centre) <= AlarmDetector.channelWidth * centre }

    /// The channel's line in this frame: inside a beep, the one that continues the beep's;
    /// outside one, the strongest (lines come strongest first).
    func line(in lines: ToneLines) -> ToneLines.Line? {
        for j in 0..<lines.count where holds(lines.lines[j]) {
            if !on || AlarmDetector.follows(lines.lines[j].hz, from: hz) { return lines.lines[j] }
        }
        return nil
    }

    init(centre: Float) { self.centre = centre }

    /// Takes the channel's line in this frame (nil: none); returns the pattern its beeps
    /// complete, if they do, with the frame of the pattern's first beep.
    mutating func frame(_ line: ToneLines.Line?, at frame: Int) -> (AlarmDetector.Pattern, from: Int)? {
        if let line { hz = line.hz }
        var found: (AlarmDetector.Pattern, from: Int)?
        ended = (nil, nil)
        if let beep = fine.frame(line, at: frame), beep.seconds >= AlarmDetector.t4Beep.lowerBound {
            ended.fine = beep
            if let from = temporalFour(beep) { found = (.temporalFour, from) }
        }
        if let beep = coarse.frame(line, at: frame), beep.seconds >= AlarmDetector.t4Beep.lowerBound {
            ended.coarse = beep
            AlarmDetector.debug?("beep \(centre) \(AlarmDetector.seconds(beep.start)) \(beep.seconds) \(beep.hz)")
            if let from = temporalThree(beep) { found = found ?? (.temporalThree, from) }
            if let from = steady(beep) { found = found ?? (.steadyBeeps, from) }
            previous = beep
            if beep.seconds >= AlarmDetector.heldSeconds { lastHeld = beep }
        }
        return found
    }

    private static func gap(_ a: Beep, _ b: Beep) -> Double { Double(b.start - a.end) * AlarmDetector.frameSeconds }
    private static func same(_ a: Float, _ b: Float) -> Bool { abs(a - b) <= AlarmDetector.sameToneTolerance * b }

    /// ISO 8201 T3 in the last four tones: all of T3's length and of one pitch, the gaps
    /// between them two short and one long, in any order (the alarm may be first heard
    /// mid-cycle). A longer sound on the line starts the count again.
    private mutating func temporalThree(_ b: Beep) -> Int? {
        guard AlarmDetector.t3Tone.contains(b.seconds), b.spread <= AlarmDetector.sounderSpread else {
            if b.seconds > AlarmDetector.t3Tone.upperBound { toneCount = 0 }
            return nil
        }
        if toneCount > 0 && !Self.same(b.hz, tones.3.hz) { toneCount = 0 }
        tones = (tones.1, tones.2, tones.3, b)
        toneCount += 1
        guard toneCount >= 4 else { return nil }
        let all = [tones.0, tones.1, tones.2, tones.3]
        var short = 0, long = 0
        for k in 0..<3 {
            let g = Self.gap(all[k], all[k + 1])
            if AlarmDetector.t3Gap.contains(g) { short += 1 } else if AlarmDetector.t3Pause.contains(g) { long += 1 }
        }
        return short == 2 && long == 1 ? tones.0.start : nil
    }

    /// NFPA 720 T4: a group of short beeps close together that stands alone, then, after
    /// T4's long silence, three short beeps of the next group, all of one pitch. A stray beep
    /// two (another sound, at the same pitch) is forgiven; an insect's chirping is not.
    private mutating func temporalFour(_ b: Beep) -> Int? {
        defer { fineEnds = (fineEnds.1, fineEnds.2, b.end) }
        let isShort = AlarmDetector.t4Beep.contains(b.seconds) && b.spread <= AlarmDetector.sounderSpread
        if isShort && group.beeps > 0 && Self.same(b.hz, group.hz)
            && Double(b.start - group.end) * AlarmDetector.frameSeconds <= AlarmDetector.t4GroupGap.upperBound {
            group.beeps += 1
            group.end = b.end
        } else {
            closeGroup()
            guard isShort else { strays += 1; return nil }
            group = Group(beeps: 1, start: b.start, end: b.end, hz: b.hz,
                          quietBefore: Double(b.start - fineEnds.1) * AlarmDetector.frameSeconds)
        }
        // The second group is the first again: as many beeps (give or take one), as long.
        guard group.beeps >= AlarmDetector.t4Beeps.lowerBound, lastGroup.valid, Self.same(group.hz, lastGroup.hz),
              strays <= AlarmDetector.t4Strays, abs(group.beeps - lastGroup.beeps) <= 1 || group.beeps < lastGroup.beeps
        else { return nil }
        let pause = Double(group.start - lastGroup.end) * AlarmDetector.frameSeconds
        return AlarmDetector.t4Pause.contains(pause) ? lastGroup.start : nil
    }

    /// A whole group is remembered until the next whole one.
    private mutating func closeGroup() {
        if group.valid { lastGroup = group; strays = 0 } else { strays += group.beeps }
        group = Group()
    }

    /// A piezo horn beeping steadily, without the T3 rhythm (EN 14604 prescribes no pattern):
    /// beeps of one length at one interval and one pitch, for `hornSeconds` or more.
    private mutating func steady(_ b: Beep) -> Int? {
        guard let previous else { return nil }
        let period = Double(b.start - previous.start) * AlarmDetector.frameSeconds
        let regular = steadyIntervals > 0 && abs(period - steadyPeriod) <= AlarmDetector.steadyPeriodTolerance * steadyPeriod
            && abs(b.hz - steadyHz) <= AlarmDetector.hornPitchTolerance * steadyHz
            && abs(b.seconds - steadySeconds) <= AlarmDetector.steadyLengthTolerance * steadySeconds
        if regular {
            steadyIntervals += 1
            steadyPeriod += (period - steadyPeriod) / Double(steadyIntervals)
        } else {
            steadyFrom = previous.start
            steadyIntervals = 1
            steadyPeriod = period
            steadyHz = previous.hz
            steadySeconds = previous.seconds
        }
        let span = Double(b.end - steadyFrom) * AlarmDetector.frameSeconds
        guard steadyIntervals >= AlarmDetector.steadyIntervals, span >= AlarmDetector.hornSeconds,
              steadySeconds >= AlarmDetector.steadyShortestBeep, steadySeconds >= AlarmDetector.steadyDuty * steadyPeriod,
              AlarmDetector.steadyPeriod.contains(steadyPeriod), AlarmDetector.hornHz.contains(steadyHz) else { return nil }
        return steadyFrom
    }

}
