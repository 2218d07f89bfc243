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

@Test func aHoldKeepsEightyPercentOfThePeakOfAFadingSound() {
    // A scream at full strength, then weaker as it trails off: the hold is 80 % of the
    // peak (0.8), not of the last window above 0.5 (0.44, under an alert).
    var scream = Hold(windows: 2, tail: false)
    let held = [1.0, 0.55, 0.3].map { scream.update($0, resumes: true) }
    #expect(held == [1.0, 0.55, 0.8])
}
