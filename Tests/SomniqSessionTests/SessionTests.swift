import Foundation
@testable import SomniqAudio
import SomniqCore
import SomniqLog
@testable import SomniqSession
@testable import SomniqSinks
import SomniqTestSupport
import Testing

/// A sink that notes what it was handed, in a log shared with other sinks.
private final class Recorder: RecordSink {
    let name: String
    let shared: SharedLog
    init(_ name: String, _ shared: SharedLog) { self.name = name; self.shared = shared }
    func write(_ record: SessionRecord, logged: LogRecord?) {
        let what = switch record {
        case .start: "start"
        case let .output(.start(e)): "event_start \(e.id)"
        case let .output(.end(e)): "event_end \(e.id)"
        case let .output(.input(c)): c.kind.rawValue
        case let .output(.level(m)): "level \(m.startSeconds)"
        case .output(.window): "window"
        case .output(.inputs): "inputs"
        case let .status(name, _): name.rawValue
        case let .closedUnseen(id, _): "closed \(id)"
        case .end: "end"
        }
        shared.entries.append((name, what, logged?.line))
    }
}

private final class SharedLog { var entries: [(sink: String, record: String, json: String?)] = [] }

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

/// A sink that reads back the line of every record it is handed.
private final class ReadBack: RecordSink {
    var records: [LogRecord] = [], readBack: [LogRecord?] = []
    func write(_ record: SessionRecord, logged: LogRecord?) {
        guard let logged else { return }
        records.append(logged)
        readBack.append(try? LogRecord.parse(logged.line)?.get())
    }
}

/// The sinks (the notifications, `replay --report`'s nights) are handed the record the log
/// keeps: each reads back from its line as itself, every number as the log rounds it.
@Test func everyRecordASinkIsHandedIsWhatItsLineReadsBackAs() async throws {
    let sink = ReadBack()
    let summary = try await Replayer(profile: .balanced).replay(path: Paths.demoNight, to: [sink])
    #expect(summary.events > 0 && sink.records.count > summary.events)
    for (r, back) in zip(sink.records, sink.readBack) { #expect(back == r, "\(r.line)") }
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

/// The product's FFT is what the core's tests stand in for: FFTW's power spectrum and
/// autocorrelation equal the direct sums (the DFT; r[τ] = Σ x[n]·x[n+τ] of the frame
/// zero-padded to N, which a frame of at most N/2 samples does not wrap).
@Test func fftwGivesTheDirectSumsThatTheCoresStandInGives() {
    let n = 1024
    let fft = FFTWTransform(size: n)
    var state: UInt32 = 99
    let frame = (0..<512).map { _ -> Float in
        state = state &* 1_664_525 &+ 1_013_904_223
        return Float(state >> 8) / Float(1 << 24) - 0.5
    }
    var power = [Float](repeating: 0, count: n / 2 + 1), acf = power
    frame.withUnsafeBufferPointer { f in power.withUnsafeMutableBufferPointer { fft.powerSpectrum(of: f, into: $0) } }
    power.withUnsafeBufferPointer { p in acf.withUnsafeMutableBufferPointer { fft.autocorrelation(fromPower: p, into: $0) } }
    for k in stride(from: 0, through: n / 2, by: 7) {
        var re = 0.0, im = 0.0
        for (i, x) in frame.enumerated() {
            re += Double(x) * cos(2 * Double.pi * Double(k * i) / Double(n))
            im -= Double(x) * sin(2 * Double.pi * Double(k * i) / Double(n))
        }
        #expect(abs(Double(power[k]) - (re * re + im * im)) <= 1e-3 * max(1, re * re + im * im), "bin \(k)")
    }
    for tau in stride(from: 0, through: n / 2, by: 5) {
        let direct = (0..<(frame.count - min(tau, frame.count))).reduce(0.0) { $0 + Double(frame[$1]) * Double(frame[$1 + tau]) }
        #expect(abs(Double(acf[tau]) - direct) <= 1e-3 * max(1, abs(direct)), "lag \(tau)")
    }
}

/// A frame written straight into FFTW's input (`powerSpectrum(count:fill:into:)`, the
/// extractor's way, with no copy) has the power spectrum of the same frame copied there, bit
/// for bit, after a longer frame has been transformed (its samples past the shorter one's end
/// are zero again).
@Test func fftwGivesAFrameWrittenIntoItsInputTheSpectrumOfTheFrameCopied() {
    let fft = FFTWTransform(size: 1024)
    var state: UInt32 = 7
    let frame = (0..<512).map { _ -> Float in
        state = state &* 1_664_525 &+ 1_013_904_223
        return Float(state >> 8) / Float(1 << 24) - 0.5
    }
    let long = [Float](repeating: 0.25, count: 1024)
    var copied = [Float](repeating: 0, count: 513), written = copied, scratch = copied
    frame.withUnsafeBufferPointer { f in copied.withUnsafeMutableBufferPointer { fft.powerSpectrum(of: f, into: $0) } }
    long.withUnsafeBufferPointer { f in scratch.withUnsafeMutableBufferPointer { fft.powerSpectrum(of: f, into: $0) } }
    written.withUnsafeMutableBufferPointer { p in
        fft.powerSpectrum(count: frame.count, fill: { buf in for i in 0..<frame.count { buf[i] = frame[i] } }, into: p)
    }
    #expect(written.map(\.bitPattern) == copied.map(\.bitPattern))
}
