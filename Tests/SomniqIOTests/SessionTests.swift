import Foundation
import SomniqCore
@testable import SomniqIO
import Testing

/// A sink that notes what it was handed, in a log shared with other sinks.
private final class Recorder: RecordSink {
    let name: String
    let shared: SharedLog
    init(_ name: String, _ shared: SharedLog) { self.name = name; self.shared = shared }
    func write(_ record: SessionRecord, json: JSONValue?) {
        let what = switch record {
        case .start: "start"
        case let .output(.start(e)): "event_start \(e.id)"
        case let .output(.end(e)): "event_end \(e.id)"
        case let .output(.input(c)): c.kind.rawValue
        case let .output(.level(m)): "level \(m.startSeconds)"
        case .output(.window): "window"
        case .output(.inputs): "inputs"
        case let .status(name, _): name
        case let .closedUnseen(id, _): "closed \(id)"
        case .end: "end"
        }
        shared.entries.append((name, what, json?.compactText))
    }
}

private final class SharedLog { var entries: [(sink: String, record: String, json: String?)] = [] }

private func sine(seconds: Double, amplitude: Float, hz: Double = 440) -> [Float] {
    (0..<Int(seconds * 16_000)).map { amplitude * Float(sin(2 * Double.pi * hz * Double($0) / 16_000)) }
}

@Test func everySinkIsHandedTheSameRecordsInOrderTheFirstSinkFirst() async throws {
    let shared = SharedLog()
    let summary = try await Replayer(profile: .balanced).replay(path: Paths.demoNight, to: [Recorder("log", shared), Recorder("hub", shared)])
    let log = shared.entries.filter { $0.sink == "log" }, hub = shared.entries.filter { $0.sink == "hub" }
    #expect(log.map(\.record) == hub.map(\.record))
    #expect(log.map(\.json) == hub.map(\.json))
    // Each record goes to the log, then straight to the hub, before the next is made.
    #expect(shared.entries.map(\.sink) == Array(repeating: ["log", "hub"], count: log.count).flatMap { $0 })
    #expect(log.first?.record == "start" && log.last?.record == "end")
    #expect(log.filter { $0.record.hasPrefix("event_start") }.count == summary.events)
    // Three minutes of audio: three minute levels.
    #expect(log.filter { $0.record.hasPrefix("level") }.map(\.record) == ["level 0.0", "level 60.0", "level 120.0"])
}

@Test func theInputWatchSeesSilenceInThePushThatCompletesItsWindowNotWhenTheClassifierDecidesIt() throws {
    let pipeline = try Pipeline(transform: FFTWTransform(size: 1024), profile: .balanced)
    let silence = [Float](repeating: 0, count: 16_000 * 70)
    // 60.5 s: the 120th window (59.5 … 60.5 s) completes 60 s of digital silence.
    let first = silence[0..<968_000].withUnsafeBufferPointer { pipeline.push($0) }
    let conditions = first.compactMap { o -> InputWatch.Condition? in if case let .input(c) = o { c } else { nil } }
    #expect(conditions == [.init(kind: .silent, seconds: 60, streamSeconds: 60.5)])
    let rest = silence[968_000...].withUnsafeBufferPointer { pipeline.push($0) } + pipeline.finish()
    #expect(!rest.contains { if case .input = $0 { true } else { false } })
}

@Test func minuteLevelsOfASteadyToneAreItsLevelAndTheLastMinuteIsPartial() throws {
    let pipeline = try Pipeline(transform: FFTWTransform(size: 1024), profile: .balanced)
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

@Test func aReplayedMinuteOfDigitalSilenceIsLoggedAsInputSilentAtItsStreamTime() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let wav = dir + "/muted.wav", log = dir + "/muted.jsonl"
    // -D: no dither, which would make the silence −96 dBFS of noise.
    try sox("-D", "-n", "-r", "16000", "-c", "1", "-b", "16", wav, "trim", "0", "65")
    let r = try somniq("replay", wav, "--format", "jsonl", "--output", log)
    #expect(r.status == 0)
    let silent = records(log).filter { $0["status"] == .string("input_silent") }
    #expect(silent.count == 1)
    #expect(silent.first?["stream_s"] == .number(60.5) && silent.first?["alert"] == .bool(true)
            && silent.first?["tier"] == .string("critical") && silent.first?["seconds"] == .number(60))
}
