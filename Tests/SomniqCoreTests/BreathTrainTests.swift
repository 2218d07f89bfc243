import Testing
@testable import SomniqCore

/// Breaths of 1 s (2 windows) every `period` windows.
private func breaths(_ t: inout BreathTrain, frames: Range<Int>, period: Int) -> [Float] {
    frames.map { t.update(instant: $0 % period < 2 ? 1 : 0, frame: $0) }
}

@Test func aLoneBreathIsNotYetBreathing() {
    var t = BreathTrain()
    let scores = breaths(&t, frames: 0..<8, period: 100)
    #expect(scores.allSatisfy { $0 < 0.7 })
    #expect(!t.active)
}

@Test func breathsAtARhythmAreHeldThroughTheirPauses() {
    var t = BreathTrain()
    let scores = breaths(&t, frames: 0..<24, period: 8)          // one breath every 4 s
    #expect(scores[8...].allSatisfy { $0 >= 0.8 })
    #expect(t.active)
    // After the last breath (frame 16) the next was due at 24 (± 35 %, 3 windows): held
    // to frame 27, then over.
    let after = (24..<32).map { t.update(instant: 0, frame: $0) }
    #expect(after[0...3].allSatisfy { $0 >= 0.8 })
    #expect(after[4...].allSatisfy { $0 == 0 })
}

@Test func aSequenceEndsAsSoonAsTheLookaheadShowsTheNextBreathIsNotComing() {
    var t = BreathTrain()
    _ = breaths(&t, frames: 0..<24, period: 8)                  // last breath at frame 16
    // The next is due by frame 27; with 3 windows in view and none of them a breath, the
    // sequence ends at frame 24, when 27 comes into view.
    let after = (18..<28).map { t.update(instant: 0, frame: $0, nextInView: false, horizon: 3) }
    #expect(after[0...5].allSatisfy { $0 >= 0.8 })              // frames 18–23: not due yet
    #expect(after[6...].allSatisfy { $0 == 0 })
    // One that is in view keeps it going.
    var u = BreathTrain()
    _ = breaths(&u, frames: 0..<24, period: 8)
    #expect(u.update(instant: 0, frame: 24, nextInView: true, horizon: 3) >= 0.8)
}
