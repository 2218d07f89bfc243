// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
@testable import SomniqAudio
import SomniqCore
@testable import SomniqSession
import Testing

/// Paths the tests use: the package, its fixtures, the shared corpus beside the clone.
package enum Paths {
    package static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    package static let fixtures = package + "/fixtures"
    package static let demoNight = fixtures + "/demo-night.flac"
    package static let corpus = URL(fileURLWithPath: package + "/../shared/corpus").standardized.path
    package static var corpusPresent: Bool { FileManager.default.fileExists(atPath: corpus + "/MANIFEST.tsv") }
    /// CI must have the corpus: there, a test that needs it runs (and fails on the missing
    /// files) instead of being skipped.
    package static var inCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false }
    /// Whether tests that need the corpus run: it is there, or CI is set.
    package static var corpusTestsRun: Bool { corpusPresent || inCI }

    /// A corpus clip (`cough/scratch_cough_male`): the copy in `fixtures/clips` (FLAC),
    /// else the corpus's WAV.
    package static func clip(_ name: String) -> String {
        let inRepo = fixtures + "/clips/" + name + ".flac"
        return FileManager.default.fileExists(atPath: inRepo) ? inRepo : corpus + "/clips/" + name + ".wav"
    }
    /// Whether a clip's tests run here: it is in the repository, or corpus tests run.
    package static func clipRuns(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: fixtures + "/clips/" + name + ".flac") || corpusTestsRun
    }

    /// The Python of the virtualenv `make sedeval` makes (sed_eval and the other packages
    /// from PyPI the tests check somniq's output with).
    package static let sedevalPython = package + "/.build/sedeval/bin/python"

    /// The `somniq` executable built beside the test bundle.
    package static var somniq: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("somniq").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return package + "/.build/debug/somniq"
    }
}

/// A fresh temporary directory, removed by the caller with `cleanup`.
package func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "somniq-test-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

package struct CommandResult {
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

/// Runs a program to completion and captures its output.
@discardableResult
package func runProgram(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                directory: String? = nil) throws -> CommandResult {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = arguments
    if let environment { p.environment = environment }
    if let directory { p.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return CommandResult(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                         stderr: String(decoding: e, as: UTF8.self))
}

package func somniq(_ arguments: String...) throws -> CommandResult { try runProgram(Paths.somniq, arguments) }
package func somniq(_ arguments: [String]) throws -> CommandResult { try runProgram(Paths.somniq, arguments) }

/// sox, for making test recordings with a resampler that is not the one under test.
package func sox(_ arguments: String...) throws {
    // -R: dither from a fixed seed, so that a test recording is the same on every run.
    let r = try runProgram("/usr/bin/sox", ["-R"] + arguments)
    guard r.status == 0 else { throw NSError(domain: "sox", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
}

/// A detected event, as the TSV output gives it.
package struct Detection: Equatable, CustomStringConvertible {
    package var onset: Double, offset: Double, soundClass: SoundClass
    package var description: String { "\(soundClass.rawValue)@\(onset)" }
}

/// Replays a file in process and returns its events in onset order.
package func detections(_ path: String, profile: Profile = .balanced) async throws -> [Detection] {
    let found = EventCollector()
    try await Replayer(profile: profile).replay(path: path, to: [found])
    return found.ends.map { Detection(onset: $0.onset, offset: $0.offset, soundClass: $0.soundClass) }.sorted { ($0.onset, $0.soundClass) < ($1.onset, $1.soundClass) }
}

/// Reads a whole file as 16 kHz mono (test helper; the product streams).
package func readMono16k(_ path: String) throws -> [Float] {
    let reader = try AudioFileReader(path: path)
    let resampler = try Resampler(inputRate: reader.sampleRate)
    var out: [Float] = []
    var block = [Float](repeating: 0, count: 8192)
    while true {
        let n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
        try block.withUnsafeBufferPointer { b in
            try resampler.process(UnsafeBufferPointer(rebasing: b[0..<n]), last: n == 0) { out.append(contentsOf: $0) }
        }
        if n == 0 { return out }
    }
}

/// Runs samples through a fresh pipeline and returns its events.
package func detections(samples: [Float], profile: Profile = .balanced) throws -> [Detection] {
    let pipeline = try Pipeline(transform: FFTWTransform(size: 1024), profile: profile)
    let outputs = samples.withUnsafeBufferPointer { pipeline.push($0) } + pipeline.finish()
    return outputs.compactMap { o -> Detection? in
        guard case let .end(e) = o else { return nil }
        return Detection(onset: e.onset, offset: e.offset, soundClass: e.soundClass)
    }.sorted { ($0.onset, $0.soundClass) < ($1.onset, $1.soundClass) }
}

/// Runs `body`, which must not wait on the FIFO at `fifo`: if it is still running after
/// `seconds` (blocked in open(2), as a reader waits for a writer), a watchdog opens and
/// closes the FIFO's other end, which lets that open return (and a read after it end), and
/// the wait is recorded as a failure: a regression fails the test instead of hanging the run.
/// The watchdog closes its end at once: Linux wakes an open blocked on a FIFO when the
/// count of the other side's opens changes (fs/pipe.c, `wait_for_partner`), not while the
/// other side is still open, so the blocked open returns however late it runs.
package func withoutWaiting<T>(on fifo: String, seconds: Double = 10, _ body: () throws -> T) rethrows -> T {
    let finished = DispatchSemaphore(value: 0), waited = DispatchSemaphore(value: 0)
    let watchdog = Thread {
        while finished.wait(timeout: .now() + seconds) == .timedOut {
            waited.signal()
            let fd = open(fifo, O_RDWR | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
    }
    watchdog.start()
    defer {
        finished.signal()
        if waited.wait(timeout: .now()) == .success { Issue.record("waited on the FIFO \(fifo) for \(Int(seconds)) s and more") }
    }
    return try body()
}
#endif
