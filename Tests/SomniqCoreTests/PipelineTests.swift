import Foundation
import Testing
@testable import SomniqCore

// The pipeline through the stand-in FFT (`ReferenceFFT`): no file, device or library.

private func sine(seconds: Double, amplitude: Float, hz: Double = 440) -> [Float] {
    (0..<Int(seconds * 16_000)).map { amplitude * Float(sin(2 * Double.pi * hz * Double($0) / 16_000)) }
}

@Test func theInputWatchSeesSilenceInThePushThatCompletesItsWindowNotWhenTheClassifierDecidesIt() throws {
    let pipeline = try Pipeline(transform: ReferenceFFT(size: 1024), profile: .balanced)
    let silence = [Float](repeating: 0, count: 16_000 * 70)
    // 60.5 s: the 120th window (59.5 … 60.5 s) completes 60 s of digital silence.
    let first = silence[0..<968_000].withUnsafeBufferPointer { pipeline.push($0) }
    let conditions = first.compactMap { o -> InputWatch.Condition? in if case let .input(c) = o { c } else { nil } }
    #expect(conditions == [.init(kind: .silent, seconds: 60, streamSeconds: 60.5)])
    let rest = silence[968_000...].withUnsafeBufferPointer { pipeline.push($0) } + pipeline.finish()
    #expect(!rest.contains { if case .input = $0 { true } else { false } })
}

@Test func minuteLevelsOfASteadyToneAreItsLevelAndTheLastMinuteIsPartial() throws {
    let pipeline = try Pipeline(transform: ReferenceFFT(size: 1024), profile: .balanced)
    // A sine of amplitude 0.1: its RMS is 0.1/√2, −23.0 dBFS.
    let tone = sine(seconds: 150, amplitude: 0.1)
    let outputs = tone.withUnsafeBufferPointer { pipeline.push($0) } + pipeline.finish()
    let minutes = outputs.compactMap { o -> MinuteLevels.Minute? in if case let .level(m) = o { m } else { nil } }
    #expect(minutes.map(\.startSeconds) == [0, 60, 120])
    #expect(minutes.map(\.seconds) == [60, 60, 30])    // the last ends with the stream
    for m in minutes.prefix(2) {
        #expect(abs(m.leqDbfs - (-23.01)) < 0.1 && abs(m.l10Dbfs - m.l90Dbfs) < 0.1)
    }
}

/// The same samples give the same outputs, whatever blocks they arrive in: a device's
/// periods or a file's blocks.
@Test func theSameSamplesInOtherBlocksGiveTheSameOutputs() throws {
    var state: UInt32 = 7
    // 24 s: a quiet hiss, with a 3 kHz smoke alarm's T3 (three 0.5 s beeps 0.5 s apart,
    // every 4 s; ISO 8201) from 4 to 20 s.
    let samples = (0..<384_000).map { i -> Float in
        state = state &* 1_664_525 &+ 1_013_904_223
        let hiss = 0.002 * (Float(state >> 8) / Float(1 << 24) - 0.5)
        let t = Double(i) / 16_000
        let cycle = (t - 4).truncatingRemainder(dividingBy: 4)
        let beeping = t >= 4 && t < 20 && cycle < 2.5 && cycle.truncatingRemainder(dividingBy: 1) < 0.5
        return hiss + (beeping ? 0.3 * Float(sin(2 * Double.pi * 3000 * t)) : 0)
    }
    func outputs(block: Int) throws -> [String] {
        let pipeline = try Pipeline(transform: ReferenceFFT(size: 1024), profile: .balanced)
        var out: [PipelineOutput] = []
        for start in stride(from: 0, to: samples.count, by: block) {
            out += samples[start..<min(samples.count, start + block)].withUnsafeBufferPointer { pipeline.push($0) }
        }
        out += pipeline.finish()
        return out.map { "\($0)" }
    }
    let periods = try outputs(block: 1600)
    #expect(periods.contains { $0.contains("smokeAlarm") }, "the beeps open an event")
    #expect(try outputs(block: 333) == periods)
}

/// A smoke alarm's low-battery chirps in a quiet hiss: 60 ms at 3.3 kHz at 5.2, 45.3 and
/// 85.4 s (every 40.1 s). One `low_battery` event, of the low tier, opening at the start
/// of the window whose first half holds the third chirp (85.0 s: windows start every 0.5 s),
/// still open at the end; no smoke alarm.
@Test func lowBatteryChirpsAreOneLowBatteryEventFromTheThirdChirp() throws {
    var state: UInt32 = 11
    let chirps = [5.2, 45.3, 85.4]
    let samples = (0..<(16_000 * 95)).map { i -> Float in
        state = state &* 1_664_525 &+ 1_013_904_223
        let hiss = 0.002 * (Float(state >> 8) / Float(1 << 24) - 0.5)
        let t = Double(i) / 16_000
        let chirping = chirps.contains { t >= $0 && t < $0 + 0.06 }
        return hiss + (chirping ? 0.2 * Float(sin(2 * Double.pi * 3300 * t)) : 0)
    }
    let pipeline = try Pipeline(transform: ReferenceFFT(size: 1024), profile: .balanced)
    let outputs = samples.withUnsafeBufferPointer { pipeline.push($0) } + pipeline.finish()
    let starts = outputs.compactMap { o -> EventStart? in if case let .start(e) = o { e } else { nil } }
    #expect(starts.map(\.soundClass) == [.lowBattery])
    #expect(starts.first?.onset == 85.0 && starts.first?.tier == .low)
    let ends = outputs.compactMap { o -> EventEnd? in if case let .end(e) = o { e } else { nil } }
    #expect(ends.map(\.truncated) == [true])              // the next chirp may still come
}
