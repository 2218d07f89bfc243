import Foundation
@testable import SomniqConfig
@testable import SomniqReports
import SomniqTestSupport
import Testing
import SomniqCore

private typealias Night = DemoNightClips

/// Clips kept until labelled (issue 41): past `max_mb`, the clips of events that are
/// labelled and already remembered in this home's memory go first, oldest first, and only
/// then the others; what they taught stays in the memory, which `somniq learn --home`
/// keeps when their audio is gone.
@Suite(.serialized) final class RememberedClipsTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    @Test func theQuotaDeletesALabelledAndRememberedClipBeforeAnOlderUnlabelledOne() throws {
        let (log, _, store) = try Night.replay(in: dir)
        try Night.label(Night.cough, "right", log)
        try Night.label(Night.dog, "not", log)
        // The alarm is labelled but never remembered (no home can teach it away).
        try Night.label(Night.alarm, "right", log)
        let learned = try somniq(["learn", "--home", "--log", log])
        #expect(learned.status == 0, "\(learned.stderr)")
        // Labelled after the memory was learned: not remembered yet.
        try Night.label(Night.cry, "right", log)

        let cough = try Night.clip(of: Night.cough, in: store), dog = try Night.clip(of: Night.dog, in: store)
        let snoring = try Night.clip(of: Night.snoring, in: store)
        #expect(RememberedClips(log: log).names() == [cough.name, dog.name])
        let total = store.entries().reduce(Int64(0)) { $0 + $1.bytes }
        let now = Date().timeIntervalSince1970
        // 100 kB over: the cough's clip goes, not the older snoring's still unlabelled.
        #expect(store.enforce(maxBytes: total - 100_000, maxAgeDays: 14, now: now, first: RememberedClips(log: log).names)
                == [cough.name])
        // Past both remembered clips: then the oldest of the others.
        let left = total - cough.bytes
        #expect(store.enforce(maxBytes: left - dog.bytes - 100_000, maxAgeDays: 14, now: now, first: RememberedClips(log: log).names)
                == [dog.name, snoring.name])
        // Age spares none: the cry's clip, labelled and not remembered, goes at its age.
        let cry = try Night.clip(of: Night.cry, in: store)
        #expect(store.enforce(maxBytes: nil, maxAgeDays: 2.5, now: now, first: { Issue.record("asked with no size quota"); return [] })
                == [cry.name])
    }

    @Test func withNoMemoryOrNoLabelTheOldestGoFirst() throws {
        let (log, _, store) = try Night.replay(in: dir)
        try Night.label(Night.cough, "right", log)
        #expect(RememberedClips(log: log).names().isEmpty, "no memory beside the log")
        let oldest = try Night.clip(of: Night.snoring, in: store)
        let total = store.entries().reduce(Int64(0)) { $0 + $1.bytes }
        #expect(store.enforce(maxBytes: total - 1, maxAgeDays: nil, now: Date().timeIntervalSince1970,
                              first: RememberedClips(log: log).names) == [oldest.name])
    }
}
