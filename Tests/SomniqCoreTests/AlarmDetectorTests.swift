import Testing
@testable import SomniqCore

/// Feeds the detector frame by frame with a line that sounds during `tones` (start, end in
/// seconds) at `hz`, 30 dB over its neighbourhood, and `also` lines that are always there.
/// Returns the span it reports after each second, and the last one.
private func detect(_ tones: [(Double, Double)], hz: Float = 3100, seconds: Double, also: [Float] = []) -> AlarmDetector.Span? {
    var detector = AlarmDetector()
    let frames = Int(seconds / AlarmDetector.frameSeconds)
    for g in 0..<frames {
        let t = AlarmDetector.seconds(g)
        var lines = also.map { ToneLines.Line(hz: $0, levelDb: -50, contrastDb: 25) }
        if tones.contains(where: { t >= $0.0 && t < $0.1 }) { lines.append(.init(hz: hz, levelDb: -40, contrastDb: 30)) }
        detector.push(ToneLines(given: lines), frame: g)
    }
    return detector.span
}

/// ISO 8201 T3 from `start`: `cycles` of three `on` tones `off` apart, then `pause`.
private func t3(from start: Double, cycles: Int, on: Double = 0.5, off: Double = 0.5, pause: Double = 1.5) -> [(Double, Double)] {
    var tones: [(Double, Double)] = [], t = start
    for _ in 0..<cycles {
        for k in 0..<3 { tones.append((t, t + on)); t += on + (k < 2 ? off : pause) }
    }
    return tones
}

/// NFPA 720 T4 from `start`: `groups` of four `on` beeps `off` apart, then `pause`.
private func t4(from start: Double, groups: Int, on: Double = 0.1, off: Double = 0.1, pause: Double = 5) -> [(Double, Double)] {
    var beeps: [(Double, Double)] = [], t = start
    for _ in 0..<groups {
        for k in 0..<4 { beeps.append((t, t + on)); t += on + (k < 3 ? off : pause) }
    }
    return beeps
}

@Test func aT3AlarmIsOneSpanFromItsFirstToneToItsLast() throws {
    let span = try #require(detect(t3(from: 5, cycles: 3), seconds: 20))
    #expect(span.pattern == .temporalThree)
    #expect(abs(span.from - 5) < 0.05)
    #expect(abs(span.to - 15.5) < 0.1)                  // the last tone ends at 5 + 2 × 4 + 2.5
    #expect(!span.active)                               // over 2.3 s after its last tone
}

@Test func aT3AlarmAtTheEdgesOfItsTolerancesIsFound() {
    #expect(detect(t3(from: 3, cycles: 2, on: 0.4, off: 0.65, pause: 2.0), seconds: 14)?.pattern == .temporalThree)
    #expect(detect(t3(from: 3, cycles: 2, on: 0.65, off: 0.4, pause: 1.2), seconds: 14)?.pattern == .temporalThree)
}

@Test func aT4AlarmIsFoundAtItsSecondGroupAndBridgesItsPauses() throws {
    #expect(detect(t4(from: 4, groups: 1), seconds: 12) == nil)       // one group: not yet
    let span = try #require(detect(t4(from: 4, groups: 3), seconds: 20))
    #expect(span.pattern == .temporalFour)
    #expect(abs(span.from - 4) < 0.05)
    #expect(span.to > 4 + 2 * 5.7)                      // the third group, 5 s pauses bridged
    #expect(span.active)
}

@Test func aT4AlarmAtTheEdgesOfItsTolerancesIsFound() {
    #expect(detect(t4(from: 3, groups: 2, on: 0.05, off: 0.2, pause: 4), seconds: 12) != nil)
    #expect(detect(t4(from: 3, groups: 2, on: 0.2, off: 0.05, pause: 6.5), seconds: 14) != nil)
}

@Test func aMicrowavesThreeBeepsAndAnInsectsChirpsAreNoAlarm() {
    // Three beeps once, then nothing: a microwave, not a T3 alarm.
    #expect(detect([(3, 3.5), (4, 4.5), (5, 5.5)], hz: 1800, seconds: 15) == nil)
    // Groups of four short chirps every 1.3 s, on and on: no group stands alone.
    let chirps: [(Double, Double)] = (0..<20).flatMap { k in t4(from: 2 + 1.3 * Double(k), groups: 1, on: 0.05, off: 0.05) }
    #expect(detect(chirps, hz: 4200, seconds: 30) == nil)
}

@Test func aHornThatStartsAndHoldsTenSecondsIsAnAlarmButALineThatWasAlwaysThereIsNot() throws {
    let horn = try #require(detect([(6, 19)], hz: 3420, seconds: 20))
    #expect(horn.pattern == .continuous)
    #expect(abs(horn.from - 6) < 0.05)
    #expect(detect([], seconds: 20, also: [3420]) == nil)
    #expect(detect([(6, 14)], hz: 3420, seconds: 20) == nil)                  // 8 s: not yet
}

@Test func aSteadyBeeperWhoseFirstBeepIsHeardOddIsStillAnAlarm() throws {
    // 0.15 s beeps every 1 s from 3 s, the first heard twice as long (a room's build-up, or a
    // burst of noise at its start): the run of like beeps starts at the second, which was
    // heard to start with the first.
    var beeps: [(Double, Double)] = [(3, 3.3)]
    for k in 1..<15 {
        let start: Double = 3 + Double(k)
        beeps.append((start, start + 0.15))
    }
    #expect(try #require(detect(beeps, hz: 3300, seconds: 20)).pattern == .steadyBeeps)
}

@Test func aBlipOfTheRoomsNoiseBeforeASteadyBeepersFirstBeepLeavesItNew() throws {
    // 0.1 s beeps every 1.9 s at 3335 Hz from 5 s, 45 dB over the floor; 2 s before the first,
    // a blip of noise at the pitch as long as a beep, just 14 dB over its neighbourhood.
    let beeps = every(1.9, from: 5, count: 7, length: 0.1)
    func detect(blipDb: Float) -> AlarmDetector.Span? {
        var detector = AlarmDetector()
        for g in 0..<Int(20 / AlarmDetector.frameSeconds) {
            let t = AlarmDetector.seconds(g)
            var lines: [ToneLines.Line] = []
            if beeps.contains(where: { t >= $0.0 && t < $0.1 }) {
                lines.append(.init(hz: 3335, levelDb: -55, contrastDb: 45))
            } else if t >= 3 && t < 3.1 {
                lines.append(.init(hz: 3340, levelDb: -55 + blipDb, contrastDb: 14))
            }
            detector.push(ToneLines(given: lines), frame: g)
        }
        return detector.span
    }
    // 35 dB under the beeps, it is the room's: the beeping started at 5 s, new.
    let alone = try #require(detect(blipDb: -35))
    #expect(alone.pattern == .steadyBeeps)
    #expect(abs(alone.from - 5) < 0.05)
    // As loud, it is the sounder's first beep, one interval before the others.
    #expect(abs(try #require(detect(blipDb: 0)).from - 3) < 0.05)
}

@Test func anAlarmClocksFastBeepsBridgedIntoOneAreNoHorn() {
    // An alarm clock at its most urgent: 0.06 s beeps 0.06 s apart for 14 s at 3.4 kHz, held
    // as one line (its gaps are shorter than the horn's bridge) but heard in half its frames.
    let beeps: [(Double, Double)] = (0..<116).map { k in
        let start: Double = 4 + 0.12 * Double(k)
        return (start, start + 0.06)
    }
    #expect(detect(beeps, hz: 3420, seconds: 20) == nil)
}

@Test func steadyBeepingThatStartsIsAnAlarmButChirpsThatWereAlwaysThereAreNot() throws {
    let beeps: [(Double, Double)] = (0..<14).map { k in (3.0 + Double(k), 3.5 + Double(k)) }    // 0.5 s every 1 s
    #expect(try #require(detect(beeps, hz: 3300, seconds: 20)).pattern == .steadyBeeps)
    // A cricket chirping 0.09 s every 2.2 s since before listening began.
    let cricket: [(Double, Double)] = (0..<12).map { k in
        let start: Double = 0.2 + 2.2 * Double(k)
        return (start, start + 0.09)
    }
    #expect(detect(cricket, hz: 3428, seconds: 30) == nil)
}

/// Feeds the detector with several lines, each sounding during its own `tones`.
/// Each source's line sounds -40 dB, 30 dB over its neighbourhood, unless `loudness` gives
/// its level and contrast (by the source's index).
private func detect(_ sources: [(hz: Float, tones: [(Double, Double)])], seconds: Double,
                    loudness: [Int: (level: Float, contrast: Float)] = [:]) -> AlarmDetector.Span? {
    var detector = AlarmDetector()
    for g in 0..<Int(seconds / AlarmDetector.frameSeconds) {
        let t = AlarmDetector.seconds(g)
        let lines = sources.indices.filter { k in sources[k].tones.contains { t >= $0.0 && t < $0.1 } }
            .map { k in
                let (level, contrast) = loudness[k] ?? (-40, 30)
                return ToneLines.Line(hz: sources[k].hz, levelDb: level, contrastDb: contrast)
            }
        detector.push(ToneLines(given: lines), frame: g)
    }
    return detector.span
}

/// `count` tones of `length` s every `period` s from `start`.
private func every(_ period: Double, from start: Double, count: Int, length: Double) -> [(Double, Double)] {
    (0..<count).map { k in (start + period * Double(k), start + period * Double(k) + length) }
}

@Test func steadyBeepingGoesOnThroughBurstsOfNoiseAtANearbyPitchBetweenItsBeeps() throws {
    // 0.36 s beeps every 1.8 s at 2869 Hz; between them, bursts of wind at 2901 and 2922 Hz
    // (1-2 % away, in the same channel), one after each of the first beeps, and two close
    // together later on. Both used to end the sounder's run, and with it the alarm.
    let beeps = every(1.8, from: 6, count: 9, length: 0.36)
    let bursts: [(Double, Double)] = [(6.55, 6.8), (8.35, 8.57), (14.0, 14.1), (14.45, 14.75)]
    let sources: [(hz: Float, tones: [(Double, Double)])] = [(2869, beeps), (2912, bursts)]
    let span = try #require(detect(sources, seconds: 24))
    #expect(span.pattern == .steadyBeeps)
    #expect(abs(span.from - 6) < 0.05)
}

@Test func aNoteOfATunePlayedOverAndOverIsNoSteadyBeeping() {
    // Three notes of 0.25 s, one after another, the tune every 2 s for 20 s: each note alone
    // beeps steadily at its pitch, but the others keep the same beat between its beeps.
    let notes: [(hz: Float, tones: [(Double, Double)])] = ([2300, 2750, 3300] as [Float]).enumerated().map { k, hz in
        (hz, every(2, from: 3 + 0.25 * Double(k), count: 10, length: 0.25))
    }
    #expect(detect(notes, seconds: 25) == nil)
    // The same note alone is a sounder's steady beeping; its harmonic beeping with it does
    // not make it a tune.
    #expect(detect([notes[0]], seconds: 25)?.pattern == .steadyBeeps)
    #expect(detect([notes[0], (hz: 4600, tones: notes[0].tones)], seconds: 25)?.pattern == .steadyBeeps)
}

@Test func theRoomsNoiseKeepingABeatBetweenASteadyBeepersBeepsFarUnderThemMakesItNoTune() throws {
    // A piezo beeping 0.35 s every 0.74 s at 2110 Hz from 3 s; between its beeps, four blips
    // of traffic at 1405 Hz, 0.8 s apart, just 14 dB over their neighbourhood.
    let beeps = every(0.74, from: 3, count: 20, length: 0.35)
    let blips = every(0.8, from: 4.1, count: 4, length: 0.1)
    let sources: [(hz: Float, tones: [(Double, Double)])] = [(2110, beeps), (1405, blips)]
    // 32 dB under the beeps, the blips are the room's: the beeping is an alarm from its first beep.
    let span = try #require(detect(sources, seconds: 20, loudness: [1: (-72, 14)]))
    #expect(span.pattern == .steadyBeeps)
    #expect(abs(span.from - 3) < 0.05)
    // As loud as the beeps, they are another note of one tune: no alarm.
    #expect(detect(sources, seconds: 20) == nil)
}

@Test func aBeeperThatLosesABeepKeepsT3sGapsOnceButIsNoT3() {
    // A reversing lorry's beeper: 0.5 s beeps every second at 1100 Hz; the seventh is lost in
    // noise, leaving a 1.5 s gap, as T3's pause, between two runs of half-second gaps.
    let beeps = every(1, from: 2, count: 12, length: 0.5).enumerated().filter { $0.offset != 6 }.map(\.element)
    #expect(detect(beeps, hz: 1100, seconds: 16) == nil)
    // T3 itself at that pitch is an alarm.
    #expect(detect(t3(from: 2, cycles: 2), hz: 1100, seconds: 12)?.pattern == .temporalThree)
}

@Test func aBeeperWhoseBeepIsCutShortSoundsInT3sPauseAndIsNoT3() throws {
    // A reversing lorry's beeper, 0.5 s beeps every second at 1100 Hz from its first; its fourth
    // is cut to 0.15 s (a burst of noise, a room's notch): the first three and the fifth keep
    // T3's gaps, but the "pause" between them holds a beep at their pitch, as loud: no T3.
    var beeps = every(1, from: 2, count: 12, length: 0.5)
    beeps[3] = (beeps[3].0, beeps[3].0 + 0.15)
    #expect(detect(beeps, hz: 1100, seconds: 16) == nil)
    // T3 with a blip at its pitch in its first pause: 12 dB under the tones it is another
    // sound's (the room's), and the alarm is found; as loud as them, the sounder did not pause.
    let tones = t3(from: 2, cycles: 2), blip = (tones[2].1 + 0.5, tones[2].1 + 0.65)
    func blipAt(_ db: Float) -> (Int) -> (db: Float, pitch: Float) {
        { k in (AlarmDetector.seconds(k) >= blip.0 && AlarmDetector.seconds(k) < blip.1 ? db : 0, 0) }
    }
    let span = try #require(detect(tones + [blip], hz: 1100, seconds: 14, frame: blipAt(-12)))
    #expect(span.pattern == .temporalThree)
    #expect(abs(span.from - 2) < 0.05)
    #expect(detect(tones + [blip], hz: 1100, seconds: 14, frame: blipAt(0)) == nil)
}

@Test func aT3WhoseTonesEachOpenWithALouderPieceBeforeADropoutIsStillFound() throws {
    // In a room, each tone opens with a 0.08 s piece 8 dB over the rest, then drops out for
    // 0.1 s (a notch): too unlike the rest to be joined to it, the piece before the tone after
    // the pause lies in the pause, near that tone, and is the tone's own, not a beeper's beep.
    let rests = t3(from: 2, cycles: 2, on: 0.45, off: 0.55, pause: 1.55)
    let pieces = rests.map { ($0.0 - 0.18, $0.0 - 0.1) }
    func loudPieces(_ k: Int) -> (db: Float, pitch: Float) {
        let t = AlarmDetector.seconds(k)
        return (pieces.contains { t >= $0.0 && t < $0.1 } ? 8 : 0, 0)
    }
    let span = try #require(detect(rests + pieces, hz: 1100, seconds: 14, frame: loudPieces))
    #expect(span.pattern == .temporalThree)
}

@Test func aT4GroupMustStandAloneInTheBandASoundersBeepsMayTake() throws {
    // Two T4 groups at 412 Hz (from 4.0 and 9.7 s); before each, short gusts of a whistling
    // wind wandering 3 % either side (in the ±4 % a sounder's warble may take, though further
    // than 2 % from the group's pitch).
    let groups = t4(from: 4, groups: 2)
    let below: [(Double, Double)] = [(2.4, 2.5), (3.2, 3.3), (8.1, 8.2), (8.9, 9.0)]
    let above: [(Double, Double)] = [(2.8, 2.9), (3.6, 3.7), (8.5, 8.6), (9.3, 9.4)]
    let windy: [(hz: Float, tones: [(Double, Double)])] = [(412, groups), (400, below), (424, above)]
    #expect(detect(windy, seconds: 14) == nil)
    // The same gusts 6-7 % away are other sounds: the alarm is found.
    let apart: [(hz: Float, tones: [(Double, Double)])] = [(412, groups), (386, below), (440, above)]
    #expect(try #require(detect(apart, seconds: 14)).pattern == .temporalFour)
}

@Test func blipsOfTheRoomsNoiseFarUnderAT4sBeepsNeitherBreakNorJoinItsGroups() throws {
    // Two T4 groups at 2670 Hz (from 4.0 and 9.7 s), 45 dB over the floor; at their pitch,
    // blips of noise that just reach 14 dB over their neighbourhood: two before the first group,
    // one just after it and one just before the second.
    let groups = t4(from: 4, groups: 2)
    let blips: [(Double, Double)] = [(3.0, 3.06), (3.5, 3.56), (4.95, 5.01), (9.35, 9.41)]
    func detect(blipDb: Float) -> AlarmDetector.Span? {
        var detector = AlarmDetector()
        for g in 0..<Int(14 / AlarmDetector.frameSeconds) {
            let t = AlarmDetector.seconds(g)
            var lines: [ToneLines.Line] = []
            if groups.contains(where: { t >= $0.0 && t < $0.1 }) {
                lines.append(.init(hz: 2670, levelDb: -55, contrastDb: 45))
            } else if blips.contains(where: { t >= $0.0 && t < $0.1 }) {
                lines.append(.init(hz: 2655, levelDb: -55 + blipDb, contrastDb: 14))
            }
            detector.push(ToneLines(given: lines), frame: g)
        }
        return detector.span
    }
    // 35 dB under the beeps, the blips are the room's: the alarm is found from its first beep.
    let span = try #require(detect(blipDb: -35))
    #expect(span.pattern == .temporalFour)
    #expect(abs(span.from - 4) < 0.05)
    // As loud as the beeps, they are the sounder's: beeps that break T4's pattern.
    #expect(detect(blipDb: 0) == nil)
}

@Test func aTuneOfRepeatedNotesAQuarterToneApartIsNoT3() {
    // Four half-second notes in T3's rhythm, alternating between two pitches 4 % apart.
    let notes = t3(from: 2, cycles: 2)
    var detector = AlarmDetector()
    for g in 0..<Int(12 / AlarmDetector.frameSeconds) {
        let t = AlarmDetector.seconds(g)
        var lines: [ToneLines.Line] = []
        if let k = notes.firstIndex(where: { t >= $0.0 && t < $0.1 }) {
            lines.append(.init(hz: k % 2 == 0 ? 2370 : 2470, levelDb: -40, contrastDb: 30))
        }
        detector.push(ToneLines(given: lines), frame: g)
    }
    #expect(detector.span == nil)
}

/// Feeds the detector with a line at `hz` during `tones` whose level and pitch in each frame
/// come from `frame(k)` (offsets in dB and in parts of the pitch, k the frame's index).
private func detect(_ tones: [(Double, Double)], hz: Float = 3100, seconds: Double,
                    frame: (Int) -> (db: Float, pitch: Float)) -> AlarmDetector.Span? {
    var detector = AlarmDetector()
    for g in 0..<Int(seconds / AlarmDetector.frameSeconds) {
        let t = AlarmDetector.seconds(g)
        var lines: [ToneLines.Line] = []
        if tones.contains(where: { t >= $0.0 && t < $0.1 }) {
            let (db, pitch) = frame(g)
            lines.append(.init(hz: hz * (1 + pitch), levelDb: -40 + db, contrastDb: 30 + db))
        }
        detector.push(ToneLines(given: lines), frame: g)
    }
    return detector.span
}

/// A narrowband noise's frame: its level drawn from a Rayleigh envelope (the log of an
/// exponential variable, standard deviation 5.6 dB) and its pitch wandering ±2 % across its
/// bandwidth, from a fixed seed.
private struct NarrowbandNoise {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    mutating func uniform() -> Float {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Float(state >> 40) / Float(1 << 24)
    }
    mutating func frame() -> (db: Float, pitch: Float) {
        let power = -Float.log(max(1e-6, uniform()))
        return (10 * Float.log10(power), 0.04 * (uniform() - 0.5))
    }
}

@Test func aMotorsLineWhoseSwellsKeepT3sCadenceIsNoAlarmButASoundersIs() throws {
    // A compressor's or a fan's line swells at random: cut into beeps that happen to keep T3's
    // cadence, its level and pitch still wander within each, as no sounder's do.
    var noise = NarrowbandNoise()
    #expect(detect(t3(from: 5, cycles: 3), hz: 1190, seconds: 20) { _ in noise.frame() } == nil)
    // The same cadence at a sounder's steady level and pitch (±0.5 dB, ±0.3 %) is an alarm.
    let span = try #require(detect(t3(from: 5, cycles: 3), hz: 1190, seconds: 20) { k in
        (k % 2 == 0 ? 0.5 : -0.5, k % 3 == 0 ? 0.003 : -0.003)
    })
    #expect(span.pattern == .temporalThree)
}

@Test func aT4GroupOfNoiseLikeBeepsIsNoAlarm() {
    var noise = NarrowbandNoise()
    #expect(detect(t4(from: 5, groups: 3, on: 0.15, off: 0.15), hz: 430, seconds: 25) { _ in noise.frame() } == nil)
}

@Test func t3TonesOfUnequalLevelsAreNoOneSoundersAlarm() throws {
    // A sounder drives every tone alike: four tones of T3's cadence 12 dB apart in level are
    // a tune's or a swelling motor's, not an alarm; within 3 dB they are.
    let tones = t3(from: 5, cycles: 2)
    func level(_ k: Int, quietest: Float) -> Float {
        let t = AlarmDetector.seconds(k)
        return tones.firstIndex { t >= $0.0 && t < $0.1 }.map { $0 % 2 == 1 ? quietest : 0 } ?? 0
    }
    #expect(detect(tones, seconds: 15) { k in (level(k, quietest: -12), 0) } == nil)
    #expect(try #require(detect(tones, seconds: 15) { k in (level(k, quietest: -3), 0) }).pattern == .temporalThree)
}

@Test func aClocksTicksThatRingDownAreNoSteadyBeepingButFlatToppedBeepsAre() throws {
    // A tick every 0.39 s at 3.1 kHz for 13 s keeps a steady beeper's cadence. Struck, it is
    // within 3 dB of its peak for two frames (150 dB a second), then rings on in the room's
    // tail (80 dB a second, slower than `Sounder.longestFallDbPerSecond`): no flat top.
    let ticks = every(0.39, from: 5, count: 34, length: 0.14)
    func since(_ k: Int) -> Double {
        let t = AlarmDetector.seconds(k)
        return t - (ticks.last { $0.0 <= t }?.0 ?? t)
    }
    func tail(_ s: Double) -> Float { Float(-3 - 80 * s) }
    #expect(detect(ticks, seconds: 20) { k in
        let s = since(k) - AlarmDetector.frameSeconds
        return (s < 0.02 ? Float(-150 * max(0, s)) : tail(s - 0.02), 0)
    } == nil)
    // A sounder's beep holds its level while it is driven (0.08 s), then the same tail.
    let span = try #require(detect(ticks, seconds: 20) { k in
        let s = since(k)
        return (s < 0.08 ? 0 : tail(s - 0.08), 0)
    })
    #expect(span.pattern == .steadyBeeps)
}

@Test func aT4sSecondGroupLouderThanItsFirstIsNoOneSoundersAlarm() throws {
    // A sounder drives every group alike, and the room is the same five seconds later: a
    // second group 5 dB over the first keeps T4's cadence as a tune's notes or a phone's rings
    // may, but is no alarm; 1 dB over it, it is one, and so it is when a clock's tick lands on
    // its first beep, 7 dB over the rest in the one frame it rings at its top.
    let beeps = t4(from: 4, groups: 3)
    func level(_ k: Int, second: Float, tick: Float = 0) -> Float {
        let t = AlarmDetector.seconds(k)
        return abs(t - 9.75) < AlarmDetector.frameSeconds / 2 ? second + tick : t > 9.6 && t < 11 ? second : 0
    }
    #expect(detect(beeps, seconds: 12) { k in (level(k, second: 5), 0) } == nil)
    #expect(try #require(detect(beeps, seconds: 12) { k in (level(k, second: 1), 0) }).pattern == .temporalFour)
    #expect(try #require(detect(beeps, seconds: 12) { k in (level(k, second: 0, tick: 7), 0) }).pattern == .temporalFour)
}

@Test func theOvertonesOfABeeperUnderTheHornBandAreNoSteadyBeeping() throws {
    // A reversing lorry's beeper at 1120 Hz, 0.5 s every 0.94 s for 20 s: its second and
    // third harmonics, 20 dB under it, beep steadily in the horn band, in step with it.
    let beeps = every(0.94, from: 3, count: 21, length: 0.5)
    let beeper: [(hz: Float, tones: [(Double, Double)])] = [(1120, beeps), (2240, beeps), (3360, beeps)]
    #expect(detect(beeper, seconds: 24, loudness: [1: (-60, 20), 2: (-62, 18)]) == nil)
    // A piezo at 2240 Hz with its overtone at 3360 Hz is an alarm: nothing sounds under it.
    let span = try #require(detect(Array(beeper.dropFirst()), seconds: 24, loudness: [1: (-62, 18)]))
    #expect(span.pattern == .steadyBeeps)
    #expect(abs(span.from - 3) < 0.05)
}

@Test func aT4GroupThatALongerSoundInItsBandFollowsIsNoAlarm() throws {
    // A phone's ring every 6 s, 2 s long: its line at 486 Hz beats into short beeps, and from
    // 0.4 s on another line holds at 471 Hz (3 % lower, 4 dB louder). Where that line is the
    // stronger, the first three beeps keep a T4 group and pause, but T4's pause is silent in
    // its band: no alarm. The three beeps alone, every 6 s, are one.
    let starts = [4.0, 10.0, 16.0]
    let beeps: [(Double, Double)] = starts.flatMap { s in every(0.125, from: s, count: 16, length: 0.05) }
    let holds: [(Double, Double)] = starts.map { s in (s + 0.4, s + 1.9) }
    let ring: [(hz: Float, tones: [(Double, Double)])] = [(486, beeps), (471, holds)]
    #expect(detect(ring, seconds: 20, loudness: [1: (-36, 34)]) == nil)
    let three: [(Double, Double)] = starts.flatMap { s in every(0.125, from: s, count: 3, length: 0.05) }
    let alone: [(hz: Float, tones: [(Double, Double)])] = [(486, three)]
    #expect(try #require(detect(alone, seconds: 20)).pattern == .temporalFour)
}

@Test func anElectronicRingerThatAlternatesTwoTonesIsNoT4ButAT4WithAnInsectInItsGapsIs() throws {
    // An electronic phone ringer warbling between 1110 and 1434 Hz, each tone on for 4 frames
    // in turn (8 Hz), for half a second every 5.5 s: each tone alone keeps T4's groups and
    // pause, but the other beeps in its gaps, in turn, at its beat. No alarm.
    let starts = [3.0, 8.5, 14.0]
    let low: [(Double, Double)] = starts.flatMap { s in every(0.125, from: s, count: 4, length: 0.0625) }
    let high: [(Double, Double)] = starts.flatMap { s in every(0.125, from: s + 0.0625, count: 4, length: 0.0625) }
    let ringer: [(hz: Float, tones: [(Double, Double)])] = [(1110, low), (1434, high)]
    #expect(detect(ringer, seconds: 20) == nil)
    #expect(try #require(detect(Array(ringer.prefix(1)), seconds: 20)).pattern == .temporalFour)
    // A CO alarm's 0.19 s beeps 0.14 s apart, and a cricket chirping at 4.2 kHz at the same
    // beat, 0.05 s a chirp, in the alarm's gaps: the chirps are blips beside its beeps, no
    // second tone in turn with it. An alarm.
    let alarm = t4(from: 3, groups: 3, on: 0.19, off: 0.14)
    let chirps = every(0.33, from: 3.2, count: 50, length: 0.05)
    let withCricket: [(hz: Float, tones: [(Double, Double)])] = [(3100, alarm), (4200, chirps)]
    #expect(try #require(detect(withCricket, seconds: 20)).pattern == .temporalFour)
}

@Test func t3TonesBrokenByARoomsNotchAreWholeTonesWhenTheirPiecesHoldASoundersPitch() throws {
    // A piezo's tone sliding by half a percent crosses a notch of the room's response: the
    // line drops out for 0.12 s inside each 0.55 s tone, which is heard as two pieces of
    // 0.22 and 0.21 s, each too short for a T3 tone.
    let broken = t3(from: 5, cycles: 2, on: 0.55).flatMap { [($0.0, $0.0 + 0.22), ($0.0 + 0.34, $0.1)] }
    let span = try #require(detect(broken, seconds: 15) { k in (0, 0.005 * Float(k % 35) / 35) })
    #expect(span.pattern == .temporalThree)
    #expect(abs(span.from - 5) < 0.05)
    // Pieces whose pitch wanders by 2.5 % from frame to frame, as a voice's harmonic or a
    // noise's line does, are not joined: the same pieces are no alarm.
    #expect(detect(broken, seconds: 15) { k in (0, k % 2 == 0 ? 0.025 : -0.025) } == nil)
    // The room's response at the pitch after the notch is not that before it: the second
    // piece of each tone 10 dB under the first is still the rest of the tone (a tune-side
    // night's T3 sliding by 2 %: -17.7 dB, then -27.3 dB). One 16 dB under is not joined.
    func afterTheNotch(_ db: Float) -> (Int) -> (db: Float, pitch: Float) {
        { k in
            let late = t3(from: 5, cycles: 2, on: 0.55).contains { AlarmDetector.seconds(k) >= $0.0 + 0.3 && AlarmDetector.seconds(k) < $0.1 }
            return (late ? -db : 0, 0.005 * Float(k % 35) / 35)
        }
    }
    #expect(try #require(detect(broken, seconds: 15, frame: afterTheNotch(10))).pattern == .temporalThree)
    #expect(detect(broken, seconds: 15, frame: afterTheNotch(16)) == nil)
}

@Test func aToneThatBreaksOffAtEachOfItsHarmonicsTogetherIsTwoSoundsNotOneTone() throws {
    // T3's tones at 1 kHz with their third harmonic, each line heard in two pieces 0.12 s apart.
    let tones = t3(from: 5, cycles: 2, on: 0.55)
    let early = tones.flatMap { [($0.0, $0.0 + 0.1), ($0.0 + 0.22, $0.1)] }
    let late = tones.flatMap { [($0.0, $0.0 + 0.22), ($0.0 + 0.34, $0.1)] }
    // A notch of the room takes one frequency at a time: the lines drop out at different
    // moments, and each tone is one.
    let apart: [(hz: Float, tones: [(Double, Double)])] = [(1000, late), (3000, early)]
    #expect(try #require(detect(apart, seconds: 15)).pattern == .temporalThree)
    // A note played twice (a tune's, a phone's double beep) stops and starts again at each of
    // its harmonics together: two sounds, no T3 tone.
    let together: [(hz: Float, tones: [(Double, Double)])] = [(1000, late), (3000, late)]
    #expect(detect(together, seconds: 15) == nil)
}

@Test func aBurstThatHidesAToneAndItsHarmonicTogetherLeavesTheTonesHeardBefore() throws {
    // Noise hides the end of the third tone at 1 kHz and at its third harmonic alike: its two
    // pieces are not one tone, but the first (0.4 s) is a T3 tone of its own, and the alarm
    // is found from its first tone.
    let tones = t3(from: 5, cycles: 2, on: 0.55)
    let hidden = tones.enumerated().flatMap { k, tone in k == 2 ? [(tone.0, tone.0 + 0.4), (tone.0 + 0.47, tone.1)] : [tone] }
    let lines: [(hz: Float, tones: [(Double, Double)])] = [(1000, hidden), (3000, hidden)]
    let span = try #require(detect(lines, seconds: 15))
    #expect(span.pattern == .temporalThree)
    #expect(abs(span.from - 5) < 0.05)
}

@Test func aBeeperThatComesNearerAndTurnsAwayIsNoSteadyAlarmButOneAtOneLevelIs() throws {
    // A lorry's reversing beeper at a piezo's pitch, once a second: its level falls 4 dB over
    // 12 s as it turns away (within the 6 dB a run's beeps may spread), then rises back as it
    // returns. By the time it has beeped for 10 s it has changed by more than 3 dB: it is
    // never an alarm, though over the whole V its fitted change comes back to nothing.
    let beeps = every(1, from: 5, count: 25, length: 0.5)
    func since(_ k: Int) -> Double { AlarmDetector.seconds(k) - 5 }
    #expect(detect(beeps, hz: 2800, seconds: 32) { k in
        let s = since(k)
        return (Float(-4 * (s < 12 ? s / 12 : (24 - s) / 12)), 0)
    } == nil)
    // A fixed sounder's beeps at one level, bursts of noise lifting every third by 2 dB.
    let span = try #require(detect(beeps, hz: 2800, seconds: 32) { k in
        (Int(since(k)) % 3 == 0 ? 2 : 0, 0)
    })
    #expect(span.pattern == .steadyBeeps)
    // A door opened 5 s in: the sounder's level steps up 4 dB at once and holds there.
    let stepped = try #require(detect(beeps, hz: 2800, seconds: 32) { k in (since(k) < 5 ? 0 : 4, 0) })
    #expect(stepped.pattern == .steadyBeeps)
    #expect(abs(stepped.from - 5) < 0.1)
}

@Test func aBeeperHeardKeepingT3AtOneHarmonicBeepsOnInThePauseAtItsOthersAndIsNoT3() throws {
    typealias Lines = [(hz: Float, tones: [(Double, Double)])]
    // A reversing lorry's square-wave beeper: 0.5 s beeps every second at 1100 Hz, heard at its
    // third harmonic too; there its third beep is lost (a room's notch), leaving T3's 1.5 s
    // "pause" after two tones, in which the fundamental beeps on: the sound never paused.
    let beeps = every(1, from: 2, count: 12, length: 0.5)
    let lost = beeps.enumerated().filter { $0.offset != 2 }.map(\.element)
    let lorry: Lines = [(1100, beeps), (3300, lost)]
    #expect(detect(lorry, seconds: 16) == nil)
    // T3 and its harmonic pause together: an alarm, from its first tone.
    let tones = t3(from: 2, cycles: 2)
    let alarm: Lines = [(1100, tones), (3300, tones)]
    let span = try #require(detect(alarm, seconds: 12))
    #expect(span.pattern == .temporalThree)
    #expect(abs(span.from - 2) < 0.05)
    // A clock ticking every second beside it, in step with its tones and in its pause, is
    // no partial of it: its ticks ring for a tenth of a second.
    let clock: Lines = [(3100, tones), (1800, every(1, from: 2, count: 10, length: 0.1))]
    #expect(try #require(detect(clock, seconds: 12)).pattern == .temporalThree)
    // Nor is a tick that rings at a partial's pitch in the pause a beep of it, nor another
    // sound's half-second tone there off the beat the tones keep.
    let tick: Lines = [(1100, tones), (3300, tones + [(tones[2].1 + 0.5, tones[2].1 + 0.56)])]
    #expect(try #require(detect(tick, seconds: 12)).pattern == .temporalThree)
    let offBeat: Lines = [(1100, tones), (3300, tones + [(tones[2].1 + 0.3, tones[2].1 + 0.8)])]
    #expect(try #require(detect(offBeat, seconds: 12)).pattern == .temporalThree)
}

@Test func aBeeperBeepingOnThroughT3sPauseAtAnotherHarmonicIsHeardHoweverManyBlipsOfTheRoomFollow() throws {
    typealias Lines = [(hz: Float, tones: [(Double, Double)])]
    // The reversing lorry above, its third beep lost at 3300 Hz; the room's noise makes blips
    // at the fundamental, 20 dB under, two in each of its gaps. By the time the fourth "tone"
    // ends, the fundamental's beep with the first has eight beeps after it: still a partial
    // beeping in step and on through the pause, no T3.
    let beeps = every(1, from: 2, count: 12, length: 0.5)
    let lost = beeps.enumerated().filter { $0.offset != 2 }.map(\.element)
    let blips = [2.6, 2.8, 3.6, 3.8, 4.6, 4.8].map { ($0, $0 + 0.06) }
    let loudness: [Int: (level: Float, contrast: Float)] = [2: (-60, 14)]
    #expect(detect([(1100, beeps), (3300, lost), (1100, blips)] as Lines, seconds: 16, loudness: loudness) == nil)
    // The same blips beside T3 and its harmonic, pausing together: an alarm.
    let tones = t3(from: 2, cycles: 2)
    let alarm: Lines = [(1100, tones), (3300, tones), (1100, blips)]
    #expect(try #require(detect(alarm, seconds: 12, loudness: loudness)).pattern == .temporalThree)
}

@Test func aT4GroupsFirstBeepHeardWholeBesideTheRestHeardShortInARoomIsOneSoundersGroup() throws {
    // Beeps of 0.15 s every 0.2 s in a room: each group's first rises out of silence and is
    // heard whole; the others rise on the tail of the one before and are heard only for their
    // last 0.06 s, 2.5 times shorter and alike. Two such groups 5 s apart are a T4 alarm.
    func group(from s: Double, lengths: [Double]) -> [(Double, Double)] {
        lengths.enumerated().map { k, length in (s + 0.2 * Double(k) + 0.15 - length, s + 0.2 * Double(k) + 0.15) }
    }
    let heard = group(from: 3, lengths: [0.15, 0.06, 0.06, 0.06]) + group(from: 8.75, lengths: [0.15, 0.06, 0.06, 0.06])
    #expect(try #require(detect(heard, seconds: 14)).pattern == .temporalFour)
    // A first beep 2.5 times shorter than the rest is no sounder's heard in a room: there the
    // first is heard whole, the longest.
    let uneven = group(from: 3, lengths: [0.06, 0.15, 0.15, 0.15]) + group(from: 8.75, lengths: [0.06, 0.15, 0.15, 0.15])
    #expect(detect(uneven, seconds: 14) == nil)
    // Nor a tune's notes, a long one and then short ones unlike each other (0.11 s and 0.06 s).
    let tune = group(from: 3, lengths: [0.15, 0.11, 0.06, 0.06]) + group(from: 8.75, lengths: [0.15, 0.11, 0.06, 0.06])
    #expect(detect(tune, seconds: 14) == nil)
}

@Test func aT4sSecondGroupOfBeepsThriceAsLongAsItsFirstsIsNoOneSoundersAlarm() throws {
    typealias Lines = [(hz: Float, tones: [(Double, Double)])]
    // A phrase of four short notes, 0.06 s each, and 5 s later four of 0.19 s at the same
    // pitch: each group keeps T4's, but one sounder's pulses are as long in both.
    let first = every(0.2, from: 3, count: 4, length: 0.06)
    let second = every(0.26, from: 3 + 0.66 + 5, count: 4, length: 0.19)
    #expect(detect([(2100, first + second)] as Lines, seconds: 14) == nil)
    // Pulses of 0.1 s heard as 0.15 s in the second group (a room's tail): one sounder's.
    let tailed = every(0.2, from: 3 + 0.7 + 5, count: 4, length: 0.15)
    #expect(try #require(detect([(2100, every(0.2, from: 3, count: 4, length: 0.1) + tailed)] as Lines, seconds: 14)).pattern == .temporalFour)
}

@Test func aT4GroupWhoseBeepsGlideOverMoreThanASoundersPitchIsNoAlarmButOneThatWarblesIs() throws {
    typealias Lines = [(hz: Float, tones: [(Double, Double)])]
    // T4's cadence, 0.1 s beeps 0.1 s apart, a group every 5.7 s, each beep of a group at its
    // own pitch. A cry looped at T4's pause glides: each beep within 2 % of the first, but
    // 2.6 % from lowest to highest (a tune-side night's baby: 2324, 2313 and 2367 Hz), every
    // beep in both channels that hear the group. No alarm.
    func groups(_ pitches: [Float]) -> Lines {
        pitches.indices.map { k in
            (pitches[k], [0.0, 5.7, 11.4].map { g in (3 + g + 0.2 * Double(k), 3 + g + 0.2 * Double(k) + 0.1) })
        }
    }
    #expect(detect(groups([2320, 2300, 2360, 2340]), seconds: 20) == nil)
    // A piezo sounder's pitch warbling about a percent each way (1.6 % from lowest to highest,
    // the most the battery's 1,037 T4 groups found span is 1.9 %): an alarm.
    #expect(try #require(detect(groups([3100, 3125, 3076, 3110]), seconds: 20)).pattern == .temporalFour)
}

@Test func aBeepInT3sPauseIsHeardHoweverManyBlipsOfTheRoomFollowIt() throws {
    typealias Lines = [(hz: Float, tones: [(Double, Double)])]
    // Four tones of T3's length at 3100 Hz with T3's gaps, the first pause at 2.5-4 s; the
    // room's noise makes blips at the pitch, 20 dB under, two in each gap after the pause.
    let tones: [(Double, Double)] = [(2, 2.5), (4, 4.5), (5, 5.5), (6, 6.5)]
    let blips = [3.5, 3.7, 4.6, 4.8, 5.6, 5.8].map { ($0, $0 + 0.06) }
    let loudness: [Int: (level: Float, contrast: Float)] = [1: (-60, 14)]
    #expect(try #require(detect([(3100, tones), (3100, blips)] as Lines, seconds: 9, loudness: loudness)).pattern == .temporalThree)
    // A beep of the sounder's in the pause (an alarm clock's double beep, one pair read as a
    // tone and the next not): no pause, no T3, though eight beeps came after it.
    let beeping = tones + [(3.1, 3.25)]
    #expect(detect([(3100, beeping), (3100, blips)] as Lines, seconds: 9, loudness: loudness) == nil)
}

@Test func aT4GroupWhoseTwoLoudestBeepsDifferMoreThanNoiseMovesOneDrivesIsNoAlarm() throws {
    // T4's cadence at 2100 Hz, 0.1 s beeps 0.1 s apart, a group every 5.7 s, each beep of a
    // group at its own level (dB) with its line 30 dB over its neighbourhood; `tick` lifts one
    // frame in the middle of group 2's beep `tick.beep` to `tick.db`.
    func detect(_ levels: [Float], tick: (beep: Int, db: Float)? = nil) -> AlarmDetector.Span? {
        var detector = AlarmDetector()
        for g in 0..<Int(20 / AlarmDetector.frameSeconds) {
            let t = AlarmDetector.seconds(g)
            var lines: [ToneLines.Line] = []
            for (n, group) in [3.0, 8.7, 14.4].enumerated() {
                for k in levels.indices where t >= group + 0.2 * Double(k) && t < group + 0.2 * Double(k) + 0.1 {
                    let middle = abs(t - (group + 0.2 * Double(k) + 0.05)) < AlarmDetector.frameSeconds / 2
                    let db = tick.map { n == 1 && $0.beep == k && middle ? $0.db : levels[k] } ?? levels[k]
                    lines.append(.init(hz: 2100, levelDb: db, contrastDb: 30))
                }
            }
            detector.push(ToneLines(given: lines), frame: g)
        }
        return detector.span
    }
    // A tune's notes (a tune-side night's music, and a scream's, kept this cadence): the two
    // loudest 6 dB apart, more than noise 12 dB under a line moves two equal beeps (4.5 dB).
    #expect(detect([-40, -46, -52, -48]) == nil)
    // One drive's beeps, one of them lowered 12 dB (a burst of noise masking it): an alarm.
    #expect(try #require(detect([-40, -41, -52, -40.5])).pattern == .temporalFour)
    // Beeps alike, one of the second group's lifted 7 dB in one frame by a clock's tick (the
    // battery's T4 at 6 dB SNR over a ticking clock): its peak is the tick's. An alarm.
    #expect(try #require(detect([-47, -47, -47, -47], tick: (beep: 0, db: -40))).pattern == .temporalFour)
}

@Test func t3TonesEachFollowedByAnotherNoteAreATunesButASoundersPartialsAndAHiddenLineAreNot() throws {
    typealias Lines = [(hz: Float, tones: [(Double, Double)])]
    let tones = t3(from: 2, cycles: 2)
    // A melody: as each of the tones ends, its next note begins at another pitch (1900 Hz,
    // 0.3 s). A sounder switched off leaves its gap silent.
    let notes = tones.map { ($0.1, $0.1 + 0.3) }
    #expect(detect([(3100, tones), (1900, notes)] as Lines, seconds: 12) == nil)
    // The sounder's own harmonic (here its fundamental, 1550 Hz) breaking off in a room's
    // notch and coming back as a tone ends is no next note.
    let fundamental = tones.flatMap { [($0.0, $0.1 - 0.1), ($0.1, $0.1 + 0.3)] }
    #expect(try #require(detect([(3100, tones), (1550, fundamental)] as Lines, seconds: 12)).pattern == .temporalThree)
    // Nor is an insect's chirp of 50 ms that happens to start there.
    let chirps = tones.map { ($0.1, $0.1 + 0.05) }
    #expect(try #require(detect([(3100, tones), (1900, chirps)] as Lines, seconds: 12)).pattern == .temporalThree)
    // Nor a background line that the tones hide (masked, or squeezed in a clipped recording)
    // and that comes back as each stops.
    let hidden = [(0.0, tones[0].0)] + zip(tones, tones.dropFirst()).map { ($0.1, $1.0) } + [(tones.last!.1, 12.0)]
    #expect(try #require(detect([(3100, tones), (1900, hidden)] as Lines, seconds: 12)).pattern == .temporalThree)
}

@Test func aToneRisingLessThanEightDecibelsOutOfAFaintLineAtItsPitchStartsNoBeep() {
    // A faint line at 3100 Hz, 10 dB over its neighbourhood (under the 12 dB a beep starts
    // at), from 2 s; at 3 s a tone takes its place for 0.5 s, 30 dB over its neighbourhood
    // at -40 dB. Returns the beeps the channels cut, and the tone's first and last frames.
    func beeps(faintDb: Float, faintUntil: Double) -> (beeps: Set<[Int]>, tone: ClosedRange<Int>) {
        var detector = AlarmDetector()
        var cut = Set<[Int]>(), first = Int.max, last = 0
        for g in 0..<Int(5 / AlarmDetector.frameSeconds) {
            let t = AlarmDetector.seconds(g)
            var lines: [ToneLines.Line] = []
            if t >= 3 && t < 3.5 {
                lines.append(.init(hz: 3100, levelDb: -40, contrastDb: 30))
                first = min(first, g); last = g
            } else if t >= 2 && t < faintUntil {
                lines.append(.init(hz: 3100, levelDb: faintDb, contrastDb: 10))
            }
            detector.push(ToneLines(given: lines), frame: g)
            detector.forEachEndedBeep { cut.insert([$0.start, $0.end]) }
        }
        return (cut, first...last)
    }
    // 10 dB under the tone: the tone rises out of it, a beep from its first frame to its last.
    let under = beeps(faintDb: -50, faintUntil: 3)
    #expect(under.beeps == [[under.tone.lowerBound, under.tone.upperBound + 1]])
    // 6 dB under: the tone never rose 8 dB over the line's valley, and starts no beep …
    #expect(beeps(faintDb: -46, faintUntil: 3).beeps.isEmpty)
    // … unless the line fell silent before it, which forgets the valley.
    let apart = beeps(faintDb: -46, faintUntil: 2.9)
    #expect(apart.beeps == [[apart.tone.lowerBound, apart.tone.upperBound + 1]])
}

@Test func aHornThatSlidesIntoARoomsNotchIsStillOneHornButOneSwitchedOffAndOnIsNot() throws {
    // A 3750 Hz horn for 12 s from 5 s whose slide takes it into a notch of the room's
    // response: its level falls 19.5 dB over 7 s from 6 s and comes back over 3 s (the
    // battery's seed 1, alarm 98). It used to end 12 dB under its peak, and come back as a
    // line that had just held its pitch: no horn.
    func notch(_ k: Int) -> (db: Float, pitch: Float) {
        let t = AlarmDetector.seconds(k)
        return (t < 6 ? 0 : t < 13 ? Float(-19.5 * (t - 6) / 7) : t < 16 ? Float(-19.5 * (16 - t) / 3) : 0, 0)
    }
    let horn = try #require(detect([(5, 17)], hz: 3750, seconds: 20, frame: notch))
    #expect(horn.pattern == .continuous)
    #expect(abs(horn.from - 5) < 0.05)
    // Its drive switched off at 8 s: the line falls as a room's tail does (100 dB a second),
    // another sound holds it 25 dB under for half a second, and the horn sounds again. What
    // sounds from 8.7 s held its pitch until just before: no new horn.
    func switched(_ k: Int) -> (db: Float, pitch: Float) {
        let t = AlarmDetector.seconds(k)
        return (t < 8 ? 0 : t < 8.25 ? Float(-100 * (t - 8)) : t < 8.7 ? -25 : 0, 0)
    }
    #expect(detect([(5, 20)], hz: 3750, seconds: 24, frame: switched) == nil)
}

@Test func aHornsPitchIsJudgedOnItsFramesNearItsLevelNotOnThoseInARoomsNotch() throws {
    // A triangle wave, -1 to 1 and back, once per unit of `x`.
    func triangle(_ x: Double) -> Double { 4 * abs(x - x.rounded(.down) - 0.5) - 1 }
    // A 2280 Hz horn for 14 s from 5 s warbling ±0.95 % at 1.3 Hz (the battery's seed 2,
    // alarm 218): near the top of each warble it crosses a notch of the room's response, its
    // line 10 dB down and its pitch read 1 % higher still. Over all its frames it spans 2.9 %,
    // more than a horn's 2.5 %; over those within 6 dB of its level, 1.7 %.
    func warble(_ k: Int) -> (db: Float, pitch: Float) {
        let w = Float(0.0095 * triangle(1.3 * AlarmDetector.seconds(k)))
        return w > 0.007 ? (-10, w + 0.01) : (0, w)
    }
    let horn = try #require(detect([(5, 19)], hz: 2280, seconds: 20, frame: warble))
    #expect(horn.pattern == .continuous)
    #expect(abs(horn.from - 5) < 0.05)
    // A line whose pitch wanders ±2 % at its full level is no horn.
    func wander(_ k: Int) -> (db: Float, pitch: Float) {
        (0, Float(0.02 * triangle(1.3 * AlarmDetector.seconds(k))))
    }
    #expect(detect([(5, 19)], hz: 2280, seconds: 20, frame: wander) == nil)
}

@Test func aBeepsTailIsMeasuredFromWhereItBeganToFallNotFollowedIntoAHumAtItsPitch() {
    // A 2500 Hz tone for a second from 5 s whose end falls as a room's tail does (60 dB in
    // 0.94 s, 1 dB a frame) into a hum at its pitch 16 dB under it, which sounds on to 20 s.
    // Followed down at 20 dB a second, the tail never left the level followed and the hum
    // went on as the tone: a 15 s horn. The tail leaves the tone's flat top within four
    // frames; measured from there, the hum is 15 dB under it, and ends the beep.
    func tail(_ k: Int) -> (db: Float, pitch: Float) {
        let t = AlarmDetector.seconds(k)
        return (t < 6 ? 0 : max(-16, Float(-64 * (t - 6))), 0)
    }
    #expect(detect([(5, 20)], hz: 2500, seconds: 24, frame: tail) == nil)
}

@Test func skippingChannelsThatCouldChangeNothingChangesNothing() throws {
    // A T3 at 3100 Hz over a room's floor: lines at 520, 1000 and 2000 Hz 9-11 dB over their
    // neighbourhood (under the 12 dB a beep starts at: the channels they fall in are skipped),
    // wavering 3 dB and dropping out now and then; a faint line at the T3's pitch between its
    // tones (the tones rise 20 dB out of it); and a hum at 1500 Hz 14 dB over its neighbourhood
    // that is heard in bursts (each starts a beep, and its wavering rises under 8 dB); and at
    // 2500 Hz, over and over, a faint line, then one 13 dB over its neighbourhood but under
    // 8 dB over the faint line's valley (no beep), then one 15 dB over the faint line (a beep). The
    // detector that skips channels and the one that takes every channel every frame end the
    // same beeps on the same frames and report the same spans.
    let tones = t3(from: 2, cycles: 3)
    func run(skipsIdle: Bool) -> (ended: [[Int]], beeps: [BeepSegmenter.Beep], spans: [AlarmDetector.Span?]) {
        var detector = AlarmDetector(skipsIdle: skipsIdle)
        var ended: [[Int]] = [], beeps: [BeepSegmenter.Beep] = [], spans: [AlarmDetector.Span?] = []
        for g in 0..<Int(16 / AlarmDetector.frameSeconds) {
            let t = AlarmDetector.seconds(g)
            let waver = Float((g * 5) % 7 - 3)
            var lines: [ToneLines.Line] = []
            for (k, hz) in [Float(520), 1000, 2000].enumerated() where (g + 11 * k) % 37 != 0 {
                lines.append(.init(hz: hz, levelDb: -60 + waver, contrastDb: 9 + Float(k)))
            }
            if tones.contains(where: { t >= $0.0 && t < $0.1 }) {
                lines.append(.init(hz: 3100, levelDb: -40, contrastDb: 30))
            } else if g % 50 < 45 {
                lines.append(.init(hz: 3100, levelDb: -60 - waver, contrastDb: 10))
            }
            if g % 128 < 40 { lines.append(.init(hz: 1500, levelDb: -55 + waver / 2, contrastDb: 14)) }
            switch g % 96 {
            case 0..<40: lines.append(.init(hz: 2500, levelDb: -60 + waver, contrastDb: 10))
            case 40..<60: lines.append(.init(hz: 2500, levelDb: -57, contrastDb: 13))
            case 60..<80: lines.append(.init(hz: 2500, levelDb: -45, contrastDb: 20))
            default: break
            }
            detector.push(ToneLines(given: lines), frame: g)
            detector.forEachEndedBeep { ended.append([g, $0.start, $0.end]); beeps.append($0) }
            spans.append(detector.span)
        }
        return (ended, beeps, spans)
    }
    let skipping = run(skipsIdle: true), taking = run(skipsIdle: false)
    #expect(skipping.ended == taking.ended)
    #expect(skipping.beeps == taking.beeps)
    #expect(skipping.spans == taking.spans)
    #expect(try #require(skipping.spans.last ?? nil).pattern == .temporalThree)
    #expect(skipping.beeps.contains { abs($0.hz - 1500) < 1 })
    #expect(skipping.beeps.contains { abs($0.hz - 2500) < 1 && $0.peakDb == -45 })
    #expect(!skipping.beeps.contains { abs($0.hz - 2500) < 1 && $0.peakDb == -57 })
}

@Test func t3TonesThatGlideOverMoreThanASoundersPitchAreNoAlarmButOnesThatWarbleAre() throws {
    typealias Lines = [(hz: Float, tones: [(Double, Double)])]
    // T3's cadence, each tone at its own pitch. Rising 1.5 % a tone, each tone within 2 % of
    // the one before but 4.5 % from the first to the fourth: a glide, a siren's or a voice's,
    // no sounder's (a piezo's pitch is its disc's, steady to about a percent). No alarm.
    func tones(_ pitches: [Float]) -> Lines {
        zip(pitches, t3(from: 3, cycles: 2)).map { hz, tone in (hz, [tone]) }
    }
    #expect(detect(tones([3000, 3045, 3091, 3137, 3184, 3232]), seconds: 15) == nil)
    // A sounder's pitch warbling about a percent each way, 1.6 % from lowest to highest: an alarm.
    #expect(try #require(detect(tones([3100, 3125, 3076, 3110, 3100, 3125]), seconds: 15)).pattern == .temporalThree)
}
