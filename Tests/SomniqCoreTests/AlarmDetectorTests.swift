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
