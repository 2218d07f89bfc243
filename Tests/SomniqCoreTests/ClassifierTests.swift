import Testing
@testable import SomniqCore

/// A window `snr` dB above a floor of −60 dBFS, its above-floor energy in `share`.
private func window(_ index: Int, snr: Float, share: BandVector = BandVector()) -> WindowFeatures {
    var f = WindowFeatures()
    f.index = index
    f.startSeconds = Double(index) * 0.5
    f.floorDbfs = -60
    f.peakDbfs = -60 + snr
    f.levelDbfs = -60 + snr - 3
    f.excessShare = share
    return f
}

private func silence(_ i: Int) -> WindowFeatures { window(i, snr: 2) }

/// A loud, voiced, high shout with its energy at 0.6–2.4 kHz.
private func shout(_ i: Int) -> WindowFeatures {
    var f = window(i, snr: 30, share: [0, 0, 0.05, 0.6, 0.3, 0.05, 0, 0])
    f.activeFraction = 0.6; f.longestRunSeconds = 0.6; f.loudRunSeconds = 0.5; f.bursts = 1; f.loudBursts = 1
    f.voicedFraction = 0.95; f.harmonicity = 0.75; f.f0Hz = 450; f.centroidHz = 1100
    f.onsetDb = 14
    return f
}

/// A cry unit: sustained, strongly harmonic phonation with a moving pitch.
private func cry(_ i: Int) -> WindowFeatures {
    var f = shout(i)
    f.activeFraction = 0.9; f.longestRunSeconds = 0.8; f.loudRunSeconds = 0.7; f.onsetDb = 4
    f.harmonicity = 0.85; f.tonalFraction = 0.5; f.tonalStability = 0.3
    return f
}

private func decide(_ windows: [WindowFeatures]) -> [ClassScores] {
    var c = Classifier()
    var s = ClassScores()
    var out: [ClassScores] = []
    for w in windows where c.push(w, into: &s) != nil { out.append(s) }
    while c.flush(into: &s) != nil { out.append(s) }
    return out
}

@Test func eachWindowIsDecidedLookaheadWindowsLateAndFlushDecidesTheRest() {
    var c = Classifier()
    var s = ClassScores()
    var decided: [Int] = []
    for i in 0..<5 {
        if let f = c.push(silence(i), into: &s) { decided.append(f.index) }
        if i < Classifier.lookahead { #expect(decided.isEmpty) }
    }
    #expect(decided == Array(0..<(5 - Classifier.lookahead)))
    while let f = c.flush(into: &s) { decided.append(f.index) }
    #expect(decided == Array(0..<5))
}

@Test func aShoutThatStopsIsAScream() {
    let scores = decide((0..<4).map(silence) + [shout(4)] + (5..<10).map(silence))
    #expect(scores[4][.scream] >= 0.7)
}

@Test func theSameShoutFollowedByMoreCriesIsABabyCryingNotAScream() {
    let scores = decide((0..<4).map(silence) + [shout(4), silence(5), cry(6), cry(7)] + (8..<12).map(silence))
    #expect(scores[6][.babyCry] >= 0.5)
    #expect(scores[4][.scream] < 0.5)
}

/// A cough: an explosive, voiced burst of 0.4 s at 150–1200 Hz, its attack `at` seconds
/// into the window.
private func cough(_ i: Int, at: Float) -> WindowFeatures {
    var f = window(i, snr: 30, share: [0, 0.3, 0.5, 0.2, 0, 0, 0, 0])
    f.activeFraction = 0.4; f.longestRunSeconds = 0.4; f.bursts = 1
    f.onsetDb = 20; f.onsetSeconds = at
    f.voicedFraction = 0.7; f.harmonicity = 0.65; f.f0Hz = 250; f.tonalStability = 0.2; f.centroidHz = 700
    return f
}

@Test func aShortSoundIsReportedByTheWindowThatHoldsItsAttackInItsFirstHalf() {
    // The attack 0.7 s into window 4 is 0.2 s into window 5, which starts 0.5 s later.
    let scores = decide((0..<4).map(silence) + [cough(4, at: 0.7), cough(5, at: 0.2)] + (6..<10).map(silence))
    #expect(scores[4][.cough] == 0)
    #expect(scores[5][.cough] >= 0.7)
}

@Test func aLaughsRunOfHasIsNeitherAScreamNorABark() {
    // The shout's level and voice, but broken into four "ha"s, each at full strength
    // for about 0.1 s, with the sound never dipping into the floor between them.
    var laugh = shout(4)
    laugh.loudRunSeconds = 0.1; laugh.loudBursts = 4; laugh.f0Hz = 400
    let scores = decide((0..<4).map(silence) + [laugh] + (5..<10).map(silence))
    #expect(scores[4][.laughter] >= 0.7)
    #expect(scores[4][.scream] < 0.3)
    #expect(scores[4][.dogBark] < 0.3)
}
