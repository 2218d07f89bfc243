import Testing
@testable import SomniqCore

/// A tone: from, to (seconds of the stream) and pitch.
private typealias Tone = (from: Double, to: Double, hz: Float)

/// Feeds the alarm detector frame by frame with lines 30 dB over their neighbourhood while
/// `tones` sound, and the chirp train with the beeps it cuts, as `AlarmFollower` does; returns
/// the train and the alarm as known after `seconds`.
private func listen(_ tones: [Tone], seconds: Double, contrastDb: Float = 30) -> (train: ChirpTrain.Span?, alarm: AlarmDetector.Span?) {
    var detector = AlarmDetector()
    var chirps = ChirpTrain()
    for g in 0..<Int(seconds / AlarmDetector.frameSeconds) {
        let t = AlarmDetector.seconds(g)
        let lines = tones.filter { t >= $0.from && t < $0.to }.map { ToneLines.Line(hz: $0.hz, levelDb: -40, contrastDb: contrastDb) }
        detector.push(ToneLines(given: lines), frame: g)
        chirps.follow(detector, frame: g)
    }
    return (chirps.span, detector.span)
}

/// Chirps of `length` seconds at `hz`, starting at `starts`.
private func chirps(at starts: [Double], hz: Float = 3300, length: Double = 0.06) -> [Tone] {
    starts.map { ($0, $0 + length, hz) }
}

/// The time of the first frame at or after `t`: where a beep that starts at `t` is heard to start.
private func firstFrame(after t: Double) -> Double {
    var g = 0
    while AlarmDetector.seconds(g) < t { g += 1 }
    return AlarmDetector.seconds(g)
}

@Test func aTrainOfChirpsOpensAtItsThirdChirpAndIsOneTrainUntilTheyStop() throws {
    let third = try #require(listen(chirps(at: [5, 45.3, 85.6]), seconds: 90).train)
    #expect(third.from == firstFrame(after: 85.6))       // the third chirp, to the frame
    #expect(third.chirps == 3 && third.active && third.hz > 3250 && third.hz < 3350)
    // A fourth and a fifth 30-40 s later: the same train, still open at its third chirp.
    let going = try #require(listen(chirps(at: [5, 45.3, 85.6, 120, 158]), seconds: 165).train)
    #expect(going.from == third.from && going.chirps == 5 && going.active)
    #expect(going.to > 164)                              // now, while the next may come
    // None for 75 s after the last: over, at the end of its last chirp.
    let over = try #require(listen(chirps(at: [5, 45.3, 85.6, 120]), seconds: 200).train)
    #expect(!over.active && over.chirps == 4 && over.from == third.from)
    #expect(abs(over.to - 120.06) < 2 * AlarmDetector.frameSeconds)
}

@Test func oneOrTwoChirpsAreNotYetATrain() {
    #expect(listen(chirps(at: [5]), seconds: 90).train == nil)
    #expect(listen(chirps(at: [5, 45.3]), seconds: 125).train == nil)
    // A second one too soon or too late after it is not the next of a train.
    #expect(listen(chirps(at: [5, 20, 35]), seconds: 40).train == nil)
    #expect(listen(chirps(at: [5, 85, 165]), seconds: 170).train == nil)
}

@Test func threeChirpsAtUnequalIntervalsAreNotATrain() {
    // 40 s, then 30 s: no one timer's period.
    #expect(listen(chirps(at: [5, 45, 75]), seconds: 80).train == nil)
    // 40 s, then 42 s: 5 % longer, more than a timer drifts.
    #expect(listen(chirps(at: [5, 45, 87]), seconds: 90).train == nil)
    // 40 s, then 40.8 s: within 3 %, one timer's.
    #expect(listen(chirps(at: [5, 45, 85.8]), seconds: 90).train != nil)
}

@Test func chirpsTenSecondsApartAreNoLowBatteryChirps() {
    #expect(listen(chirps(at: (0..<12).map { 3 + 10 * Double($0) }), seconds: 125).train == nil)
}

@Test func chirpsAtTwoPitchesAreNotOneTrain() {
    // 10 % apart: two devices, not one alarm's disc.
    #expect(listen(chirps(at: [5, 85], hz: 3000) + chirps(at: [45], hz: 3300), seconds: 90).train == nil)
    // Within 3 %: one.
    #expect(listen(chirps(at: [5, 85], hz: 3200) + chirps(at: [45], hz: 3280), seconds: 90).train != nil)
}

@Test func aChirpMustBeShortAtAPiezosPitchAndAlone() {
    // 0.6 s beeps, 40 s apart: not chirps.
    #expect(listen(chirps(at: [5, 45, 85], length: 0.6), seconds: 90).train == nil)
    // At 1 kHz: no piezo's resonance.
    #expect(listen(chirps(at: [5, 45, 85], hz: 1000), seconds: 90).train == nil)
    // The third followed 1 s later by another beep at its pitch: not alone.
    #expect(listen(chirps(at: [5, 45, 85, 86.1]), seconds: 90).train == nil)
    // … or preceded 2 s before by one (a longer beep, itself no chirp).
    #expect(listen(chirps(at: [5, 45, 85]) + chirps(at: [82.4], length: 0.6), seconds: 90).train == nil)
    // Lines 15 dB over their neighbourhood: a room's blips, no piezo at full drive.
    #expect(listen(chirps(at: [5, 45, 85]), seconds: 90, contrastDb: 15).train == nil)
    // A beep at another pitch near it does not make it less alone.
    #expect(listen(chirps(at: [5, 45, 85]) + chirps(at: [84, 86], hz: 1500), seconds: 90).train != nil)
    // Nor does another line in its own frames that ends first (a piezo's harmonic aliased
    // past 8 kHz): it is not the chirp again.
    #expect(listen(chirps(at: [5, 45, 85]) + chirps(at: [5], hz: 4300, length: 0.04), seconds: 90).train != nil)
}

/// ISO 8201 T3 from `start` for `cycles` cycles at `hz`.
private func t3(from start: Double, cycles: Int, hz: Float) -> [Tone] {
    var tones: [Tone] = [], t = start
    for _ in 0..<cycles {
        for k in 0..<3 { tones.append((t, t + 0.5, hz)); t += 0.5 + (k < 2 ? 0.5 : 1.5) }
    }
    return tones
}

/// NFPA 720 T4 from `start` for `groups` groups at `hz`.
private func t4(from start: Double, groups: Int, hz: Float) -> [Tone] {
    var beeps: [Tone] = [], t = start
    for _ in 0..<groups {
        for k in 0..<4 { beeps.append((t, t + 0.1, hz)); t += 0.1 + (k < 3 ? 0.1 : 5) }
    }
    return beeps
}

@Test func anAlarmsBeepsAreNoChirpsAndNoChirpIsHeardWhereAnAlarmSounds() throws {
    // A T3 alarm for a minute and a half, a T4 alarm for as long: their beeps are never alone.
    let three = listen(t3(from: 3, cycles: 22, hz: 3100), seconds: 95)
    #expect(three.alarm?.pattern == .temporalThree && three.train == nil)
    let four = listen(t4(from: 3, groups: 15, hz: 3100), seconds: 95)
    #expect(four.alarm?.pattern == .temporalFour && four.train == nil)
    // Two chirps 40 s apart, then a third 40 s later while a T3 alarm sounds at another pitch: no train.
    let during = listen(chirps(at: [5, 45, 85], hz: 3600) + t3(from: 70, cycles: 8, hz: 3000), seconds: 90)
    #expect(during.alarm?.active == true && during.train == nil)
}
