import Foundation
@testable import SomniqAudio
@testable import SomniqConfig
@testable import SomniqSession
@testable import SomniqSupport
import SomniqTestSupport
import Testing
import SomniqCore
import SomniqLog

/// The writer on its own thread, with real libsndfile, fed faster than any disk.
@Suite struct NightAudioTests {
    @Test func aDiskSlowerThanTheAudioLosesWholeBlocksSaysSoAndEveryPartStillRunsFromItsTime() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var config = NightAudioConfig()
        config.enabled = true
        config.partSeconds = 60
        // A ring of 0.1 s: blocks pushed as fast as memory goes outrun FLAC and the disk.
        let night = NightAudio(config: config, directory: dir, queueSeconds: 0.1)
        try night.prepare()
        let start = try #require(WallClock.parse("2026-11-22T23:10:00"))
        // A ramp, different at every sample of 2 minutes: where a part starts, its samples say.
        let seconds = 120, block = 1600
        let source = (0..<seconds * 16_000).map { Int16(truncatingIfNeeded: $0 &* 7) }
        let floats = source.map { Float($0) / 32768 }
        var said: [(status: LogStatus, details: [LogRecord.Status.Detail])] = []
        floats.withUnsafeBufferPointer { all in
            for at in stride(from: 0, to: all.count, by: block) {
                night.append(UnsafeBufferPointer(rebasing: all[at..<min(all.count, at + block)]), at: Int64(at), unix: { start + $0 })
                said += night.takeSaid()
            }
        }
        night.finish(within: .seconds(30))
        said += night.takeSaid()
        let records = said.map { s in LogRecord.status(.init(s.status, streamSeconds: 0, details: s.details)).json }
        let dropped = records.filter { $0["status"] == .string("night_audio_dropped") }
        #expect(!dropped.isEmpty && dropped.allSatisfy { $0["reason"] == .string("queue_full") }, "\(records.map(\.compactText))")
        let parts = nightParts(records)
        #expect(parts.count >= dropped.count, "a part begins after each loss: \(parts.count) parts, \(dropped.count) losses")
        var kept = 0
        for part in parts {
            let got = try samples16(part.path)
            let from = Int((part.startS * 16_000).rounded())
            #expect(!got.isEmpty && Array(source[from..<from + got.count]) == got, "\(part.path) holds the stream from \(part.startS) s")
            #expect(part.startTime == WallClock.iso8601(Date(timeIntervalSince1970: start + part.startS)))
            kept += got.count
        }
        let lost = dropped.compactMap { $0["seconds"]?.numberValue }.reduce(0, +)
        #expect(abs(Double(kept) / 16_000 + lost - Double(seconds)) < 0.01, "kept \(kept) samples, lost \(lost) s")
        // Each loss says from where: right after the samples the part before it holds.
        for d in dropped {
            let from = try #require(d["from_s"]?.numberValue)
            #expect(parts.contains { p in abs(p.startS + Double((try? samples16(p.path).count) ?? 0) / 16_000 - from) < 0.001 })
        }
    }

    /// Feeds `seconds` of a ramp, from stream frame `from`, in ALSA periods, with the wall
    /// clock `unix`; returns the records said.
    private func feed(_ night: NightAudio, seconds: Double, from: Int64 = 0,
                      unix: (Double) -> Double) -> [JSONValue] {
        let count = Int(seconds * 16_000)
        let floats = (0..<count).map { Float(Int16(truncatingIfNeeded: (Int(from) + $0) &* 7)) / 32768 }
        var said: [(status: LogStatus, details: [LogRecord.Status.Detail])] = []
        floats.withUnsafeBufferPointer { all in
            for at in stride(from: 0, to: all.count, by: 1600) {
                night.append(UnsafeBufferPointer(rebasing: all[at..<min(all.count, at + 1600)]), at: from + Int64(at), unix: unix)
                said += night.takeSaid()
            }
        }
        return said.map { s in LogRecord.status(.init(s.status, streamSeconds: 0, details: s.details)).json }
    }

    private func nightAudio(_ dir: String) throws -> NightAudio {
        var config = NightAudioConfig()
        config.enabled = true
        let night = NightAudio(config: config, directory: dir)
        try night.prepare()
        return night
    }

    @Test func aPartEndsAtNoonAndTheNextIsTheNextNights() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let night = try nightAudio(dir)
        let start = try #require(WallClock.parse("2026-11-23T11:59:55"))
        var said = feed(night, seconds: 8, unix: { start + $0 })
        night.finish(within: .seconds(10))
        said += night.takeSaid().map { s in LogRecord.status(.init(s.status, streamSeconds: 0, details: s.details)).json }
        let parts = nightParts(said)
        #expect(parts.map(\.path) == [dir + "/2026-11-22/2026-11-23_11-59-55.flac", dir + "/2026-11-23/2026-11-23_12-00-00.flac"])
        #expect(parts.map(\.startS) == [0, 5])
        #expect(try parts.map { try samples16($0.path).count } == [80_000, 48_000])
    }

    @Test func aJumpOfTheWallClockStartsAPartAtItsNewTime() throws {
        // A device back after 30 s away: the daemon's clock is set anew, the stream goes on.
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let night = try nightAudio(dir)
        let start = try #require(WallClock.parse("2026-11-22T23:10:00"))
        var said = feed(night, seconds: 5, unix: { start + $0 })
        said += feed(night, seconds: 5, from: 80_000, unix: { start + 30 + $0 })
        night.finish(within: .seconds(10))
        said += night.takeSaid().map { s in LogRecord.status(.init(s.status, streamSeconds: 0, details: s.details)).json }
        let parts = nightParts(said)
        #expect(parts.map(\.startS) == [0, 5])
        #expect(parts.map(\.startTime) == [start, start + 35].map { WallClock.iso8601(Date(timeIntervalSince1970: $0)) })
        #expect(parts.last?.path == dir + "/2026-11-22/2026-11-22_23-10-35.flac")
        #expect(try parts.map { try samples16($0.path).count } == [80_000, 80_000])
    }

    @Test func aStreamTimedBackGoesOnInItsPart() throws {
        // A burst: the daemon's clock times the stream no later than it arrived, pulling it
        // back by a few milliseconds a block; the audio has no gap, and stays in one part.
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let night = try nightAudio(dir)
        let start = try #require(WallClock.parse("2026-11-22T23:10:00"))
        var said = feed(night, seconds: 5, unix: { start + $0 })
        said += feed(night, seconds: 5, from: 80_000, unix: { start - 0.5 + $0 })
        night.finish(within: .seconds(10))
        said += night.takeSaid().map { s in LogRecord.status(.init(s.status, streamSeconds: 0, details: s.details)).json }
        let parts = nightParts(said)
        #expect(parts.map(\.startS) == [0])
        #expect(try parts.map { try samples16($0.path).count } == [160_000])
    }
}
