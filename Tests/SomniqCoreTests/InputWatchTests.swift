import Foundation
import Testing
@testable import SomniqCore

/// Windows as the extractor makes them: one every 0.5 s.
private func window(_ index: Int, level: Float, active: Float = 0.5, clipped: Int = 0) -> WindowFeatures {
    var f = WindowFeatures()
    f.index = index
    f.startSeconds = Double(index) * StreamClock.frameSeconds
    f.levelDbfs = level
    f.activeFraction = active
    f.clippedSamples = clipped
    return f
}

private func conditions(_ windows: [WindowFeatures], limits: InputWatch.Limits = .init()) -> [InputWatch.Condition] {
    var watch = InputWatch(limits: limits)
    var out: [InputWatch.Condition] = []
    for w in windows { watch.add(w) { out.append($0) } }
    return out
}

@Test func digitalSilenceIsReportedOnTheWindowThatCompletesItsLimit() {
    // Windows 0 … 119 are silent: the 120th (59.5 … 60.5 s) makes 60 s of silence.
    let silent = (0..<130).map { window($0, level: Decibels.silence) }
    #expect(conditions(Array(silent.prefix(119))) == [])
    #expect(conditions(silent) == [.init(kind: .silent, seconds: 60, streamSeconds: 60.5)])
}

@Test func aStuckValueIsSilenceButAQuietRoomIsNot() {
    // A stuck sample repeats the same level with nothing active; a real quiet room's
    // level wanders by hundredths of a dB.
    let stuck = (0..<20).map { window($0, level: -71.25, active: 0) }
    #expect(conditions(stuck, limits: .init(silenceSeconds: 5)).map(\.kind) == [.silent])
    let quiet = (0..<20).map { window($0, level: -71.25 + Float($0 % 3) * 0.01, active: 0) }
    #expect(conditions(quiet, limits: .init(silenceSeconds: 5)) == [])
}

@Test func aSpellIsReportedOnceAndAgainOnlyAfterItClears() {
    let clipping = (0..<10).map { window($0, level: -3, clipped: 40) }
    let clean = (10..<12).map { window($0, level: -20) }
    let again = (12..<22).map { window($0, level: -3, clipped: 40) }
    #expect(conditions(clipping + clipping.map { var w = $0; w.index += 100; return w }, limits: .init(clippingSeconds: 5)).count == 1)
    #expect(conditions(clipping + clean + again, limits: .init(clippingSeconds: 5))
        == [.init(kind: .clipping, seconds: 5, streamSeconds: 5.5), .init(kind: .clipping, seconds: 5, streamSeconds: 11.5)])
}

@Test func aMinuteOfWindowsGivesItsLeqL10L90AndLmax() {
    var minutes = MinuteLevels()
    // 108 windows at −60 dBFS and 12 (10 %) at −30: L10 is −30, L90 −60, Leq the energy mean.
    let levels: [Float] = (0..<120).map { $0 % 10 == 3 ? -30 : -60 }
    var done: [MinuteLevels.Minute] = []
    for (i, level) in levels.enumerated() {
        var f = window(i, level: level)
        f.floorDbfs = -65
        if let m = minutes.add(f) { done.append(m) }
    }
    #expect(done.count == 1)
    let m = done[0]
    #expect(m.startSeconds == 0 && m.seconds == 60)
    #expect(m.l10Dbfs == -30 && m.l90Dbfs == -60 && m.maxDbfs == -30 && m.floorDbfs == -65)
    let leq = 10 * log10((108 * 1e-6 + 12 * 1e-3) / 120)
    #expect(abs(m.leqDbfs - leq) < 0.01)
    #expect(minutes.finish(streamSeconds: 60.5) == nil)
}

@Test func theLastPartialMinuteIsReportedAtTheEndWithItsLength() {
    var minutes = MinuteLevels()
    for i in 0..<130 { _ = minutes.add(window(i, level: -50)) }
    // Windows 120 … 129 start at 60 … 64.5 s; the stream ended at 65.5 s.
    let last = minutes.finish(streamSeconds: 65.5)
    #expect(last?.startSeconds == 60 && last?.seconds == 5.5 && last?.leqDbfs == -50)
    #expect(minutes.finish(streamSeconds: 65.5) == nil)
}
