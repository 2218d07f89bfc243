import Testing
@testable import SomniqCore

@Test func aBeatIsMusicAfterFiveAttacksInEightWindowsAndSurvivesAMissedOne() {
    var beat = Beat()
    let attacks: [Float] = [1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0]
    let scores = attacks.map { beat.update($0) }
    #expect(scores[0...2] == [0, 0, 0])
    #expect(scores[3] == 0.6)                  // four attacks: not yet certain
    #expect(scores[5] == 0.9)                  // five of the last eight, one missed
    #expect(scores[6] == 0.9)
    #expect(scores.last == 0)                  // the music stopped
}

@Test func aHoldCarriesACutOffSoundUntilANewAttackOrTheEnd() {
    var scream = Hold(windows: 3, tail: false)
    #expect(scream.update(1, resumes: false) == 1)
    #expect(scream.update(0.1, resumes: true) == 0.8)
    #expect(scream.update(0.1, resumes: false) == 0.1)     // the sound ended
    #expect(scream.update(0.1, resumes: true) == 0.1)      // and stays ended
}

@Test func aFadingSoundKeepsOneWindowForTheTailBeneathTheFloor() {
    var shards = Hold(windows: 3)
    #expect(shards.update(1, resumes: false) == 1)
    #expect(shards.update(0.1, resumes: true) == 0.8)
    #expect(shards.update(0.1, resumes: false) == 0.8)     // sunk into the floor: its tail
    #expect(shards.update(0.1, resumes: false) == 0.1)     // then it has ended
    #expect(shards.update(0.1, resumes: true) == 0.1)      // and stays ended
}

@Test func aHoldLastsAtMostItsWindows() {
    var gasp = Hold(windows: 2)
    _ = gasp.update(0.9, resumes: true)
    let rest = (0..<3).map { _ in gasp.update(0, resumes: true) }
    #expect(rest.map { ($0 * 100).rounded() / 100 } == [0.72, 0.72, 0])
}

@Test func aHoldBridgesAGapOnlyWhenTheSoundResumes() {
    var bout = Hold(windows: 2)
    _ = bout.update(1)
    #expect(bout.update(0, resumes: true) == 0.8)      // between two coughs
    #expect(bout.update(0, resumes: true) == 0.8)
    var last = Hold(windows: 2)
    _ = last.update(1)
    #expect(last.update(0, resumes: false) == 0.8)     // the tail of the last cough
    #expect(last.update(0, resumes: false) == 0)       // then the event ends
}

@Test func anAlarmIsHeldThroughItsCadenceButNotPastItsLastBeep() {
    var alarm = AlarmCadence()
    #expect(alarm.update(instant: 1, toneHz: 3100) == 1)
    #expect(alarm.update(instant: 0, toneHz: 0, resumes: true) == 1)    // the 1.5 s gap of T3
    var ended = AlarmCadence()
    _ = ended.update(instant: 1, toneHz: 3100)
    #expect(ended.update(instant: 0, toneHz: 0, resumes: false) == 0)   // no tone ahead: over
}

@Test func aT4ClusterIsHeldUntilTheNextIsDueButABrokenT3ToneIsNot() {
    // T4: four 0.1 s beeps in a window, then 5 s of silence that the lookahead cannot see
    // across: held for the 12 windows until the next cluster is due, then over.
    var co = AlarmCadence()
    _ = co.update(instant: 1, toneHz: 3400, bursts: 4, longestRun: 0.1)
    let t4 = (1...13).map { _ in co.update(instant: 0, toneHz: 0, resumes: false) }
    #expect(t4 == Array(repeating: 1, count: AlarmCadence.t4Windows) + [0])
    // T3: a whole 0.5 s tone, then the next tone broken into short runs by an echo: still
    // T3, so with no tone ahead the alarm is over at once.
    var smoke = AlarmCadence()
    _ = smoke.update(instant: 1, toneHz: 3100, bursts: 1, longestRun: 0.48)
    _ = smoke.update(instant: 1, toneHz: 3100, bursts: 4, longestRun: 0.12)
    #expect(smoke.update(instant: 0, toneHz: 0, resumes: false) == 0)
}

@Test func aHoldKeepsEightyPercentOfThePeakOfAFadingSound() {
    // A scream at full strength, then weaker as it trails off: the hold is 80 % of the
    // peak (0.8), not of the last window above 0.5 (0.44, under an alert).
    var scream = Hold(windows: 2, tail: false)
    let held = [1.0, 0.55, 0.3].map { scream.update($0, resumes: true) }
    #expect(held == [1.0, 0.55, 0.8])
}
