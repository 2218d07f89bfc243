// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
import SomniqConfig
import Testing

/// The demo night replayed with clips, labelled and learned from: what the tests of clips
/// kept until labelled share.
package enum DemoNightClips {
    package static let snoring = "r1795389000-e1", cough = "r1795389000-e4", dog = "r1795389000-e6", cry = "r1795389000-e7",
               alarm = "r1795389000-e8"

    /// A copy of the demo night replayed from 23:10 on 2026-11-22 with clips: its six clips
    /// (snoring e1, cough e4, dog e6, cry e7, alarm e8, snoring e9) in `clips/`, written a
    /// day apart in that order, the last a day ago.
    package static func replay(in dir: String) throws -> (log: String, recording: String, store: ClipStore) {
        let recording = dir + "/night.flac", log = dir + "/events.jsonl"
        try FileManager.default.copyItem(atPath: Paths.demoNight, toPath: recording)
        let r = try somniq(["replay", recording, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:10",
                            "--clips", dir + "/clips"])
        #expect(r.status == 0, "\(r.stderr)")
        let store = ClipStore(directory: dir + "/clips")
        let names = store.entries().map(\.name).sorted()
        #expect(names.count == 6)
        let now = Date().timeIntervalSince1970
        for (i, name) in names.enumerated() {
            let t = Int(now) - (6 - i) * 86_400
            var times = [timespec(tv_sec: t, tv_nsec: 0), timespec(tv_sec: t, tv_nsec: 0)]
            utimensat(AT_FDCWD, store.path(name), &times, 0)
        }
        return (log, recording, store)
    }

    package static func label(_ id: String, _ verdict: String, _ log: String) throws {
        let r = try somniq(["label", id, "--as", verdict, "--log", log])
        #expect(r.status == 0, "\(r.stderr)")
    }

    package static func clip(of id: String, in store: ClipStore) throws -> ClipStore.Entry {
        try #require(store.entries().first { $0.name.hasSuffix("_\(id).flac") })
    }
}
#endif
