import Testing
@testable import SomniqCore

/// Drives a snore train: a 1 s snore (2 windows) every `period` windows, `count` times.
private func train(_ t: inout SnoreTrain, from start: Int, count: Int, period: Int, level: Float) -> [Float] {
    var pauses: [Float] = []
    for frame in start..<(start + count * period) {
        let snoring: Float = (frame - start) % period < 2 ? 1 : 0
        pauses.append(t.update(instant: snoring, gasp: 0, levelDb: snoring > 0 ? level : 3, frame: frame).pause)
    }
    return pauses
}

@Test func breathingPauseNeedsARegularTrainAPauseAndALouderResumption() {
    var t = SnoreTrain()
    // Four snores 4 s apart, then 12 s of nothing, then a snore 6 dB louder.
    #expect(train(&t, from: 0, count: 4, period: 8, level: 20).allSatisfy { $0 == 0 })
    for frame in 32..<48 { #expect(t.update(instant: 0, gasp: 0, levelDb: 3, frame: frame).pause == 0) }
    #expect(t.update(instant: 1, gasp: 0, levelDb: 26, frame: 48).pause == 1)
}

@Test func aSnoreAtTheSameLevelAfterAPauseIsNoBreathingPause() {
    var t = SnoreTrain()
    _ = train(&t, from: 0, count: 4, period: 8, level: 20)
    for frame in 32..<48 { _ = t.update(instant: 0, gasp: 0, levelDb: 3, frame: frame) }
    #expect(t.update(instant: 1, gasp: 0, levelDb: 21, frame: 48).pause == 0)
}

@Test func aShortGapInATrainIsNoBreathingPause() {
    var t = SnoreTrain()
    _ = train(&t, from: 0, count: 4, period: 8, level: 20)
    for frame in 32..<36 { _ = t.update(instant: 0, gasp: 0, levelDb: 3, frame: frame) }
    #expect(t.update(instant: 1, gasp: 1, levelDb: 30, frame: 36).pause == 0)
}
