import Foundation
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Testing
import SomniqCore

/// Rotation: whole nights, oldest first, never tonight's, never one a writer holds.
@Suite struct NightStoreTests {
    /// A night folder with parts of the given sizes (their content does not matter here).
    private func night(_ store: NightStore, _ name: String, _ sizes: [Int]) throws {
        try FileManager.default.createDirectory(atPath: store.directory + "/" + name, withIntermediateDirectories: true)
        for (i, size) in sizes.enumerated() {
            #expect(FileManager.default.createFile(atPath: store.path(night: name, name: "\(name)_2\(i)-00-00.flac"), contents: Data(count: size)))
        }
    }

    @Test func rotationDeletesTheOldestWholeNightsFirstAndNeverTheNightBeingWritten() throws {
        let store = NightStore(directory: temporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        for name in ["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22"] { try night(store, name, [500_000, 500_000]) }
        try night(store, "2026-11-23", [3_000_000, 2_000_000])
        // Not nights: left alone.
        try FileManager.default.createDirectory(atPath: store.directory + "/lost+found", withIntermediateDirectories: true)

        // Four nights kept, tonight's among them: the two oldest go, whole.
        #expect(store.enforce(maxBytes: 100_000_000, keepNights: 4, current: "2026-11-23")
                == ["2026-11-18", "2026-11-19"].map { .init(night: $0, reason: "keep_nights", bytes: 1_000_000) })
        #expect(store.nights().map(\.name) == ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23"])
        #expect(!FileManager.default.fileExists(atPath: store.directory + "/2026-11-18"), "its folder goes with its parts")

        // 4 MB: every older night goes, oldest first, and tonight's 5 MB stay all the same.
        #expect(store.enforce(maxBytes: 4_000_000, keepNights: 7, current: "2026-11-23").map(\.night)
                == ["2026-11-20", "2026-11-21", "2026-11-22"])
        #expect(store.nights() == [.init(name: "2026-11-23", parts: ["2026-11-23_20-00-00.flac", "2026-11-23_21-00-00.flac"], bytes: 5_000_000)])
        #expect(FileManager.default.fileExists(atPath: store.directory + "/lost+found"))
    }

    @Test func aNightWhoseFileAWriterHoldsLockedIsNeverDeleted() throws {
        let store = NightStore(directory: temporaryDirectory())
        defer { try? FileManager.default.removeItem(atPath: store.directory) }
        try night(store, "2026-11-20", [1_000_000])
        try night(store, "2026-11-21", [1_000_000])
        // Another process writing the oldest night (this test's lock stands for it), as the
        // daemon's writer locks each part it writes (NightStore.create).
        let held = try store.create(night: "2026-11-20", name: "2026-11-20_20-00-00.flac")
        #expect(held.path.hasSuffix("/2026-11-20_20-00-00_2.flac"), "a name taken is never written over: \(held.path)")
        defer { close(held.fd) }
        #expect(store.enforce(maxBytes: 1, keepNights: 1, current: nil).map(\.night) == ["2026-11-21"])
        #expect(store.nights().map(\.name) == ["2026-11-20"])
        #expect(FileManager.default.fileExists(atPath: held.path))
        close(held.fd)
        #expect(store.enforce(maxBytes: 1, keepNights: 1, current: nil).map(\.night) == ["2026-11-20"])
    }

    @Test func partsAreNamedByTheirLocalTimeSoThatTheySortAcrossMidnight() throws {
        let evening = try #require(WallClock.parse("2026-11-22T23:10:04")), morning = try #require(WallClock.parse("2026-11-23T03:00:00"))
        #expect(NightStore.place(unix: evening) == ("2026-11-22", "2026-11-22_23-10-04.flac"))
        #expect(NightStore.place(unix: morning) == ("2026-11-22", "2026-11-23_03-00-00.flac"))
        // Cuts: each multiple of the part's length on the local clock, and noon.
        #expect(WallClock.nextCut(after: evening, every: 3600) == WallClock.parse("2026-11-23T00:00:00"))
        #expect(WallClock.nextCut(after: morning, every: 3600) == WallClock.parse("2026-11-23T04:00:00"))
        #expect(WallClock.nextCut(after: morning + 0.5, every: 10) == WallClock.parse("2026-11-23T03:00:10"))
        #expect(WallClock.nextCut(after: try #require(WallClock.parse("2026-11-23T11:40:00")), every: 3600)
                == WallClock.parse("2026-11-23T12:00:00"))
        #expect(WallClock.nextCut(after: try #require(WallClock.parse("2026-11-23T11:59:58")), every: 7)
                == WallClock.parse("2026-11-23T12:00:00"), "a night ends at noon, whatever the part's length")
    }
}
