import Foundation
import Testing
@testable import SomniqIO
import SomniqCore

private typealias Night = DemoNightClips

/// `somniq learn --home` keeps what it learned before: a labelled event whose audio is gone
/// is learned from the windows the memory it replaces holds of it, so that the clip quota
/// may delete labelled clips first without losing what they taught.
@Suite(.serialized) final class HomeLearnerTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// The windows a memory file holds of event `id`, kind and class included.
    func remembered(_ id: String, in path: String) throws -> [String] {
        try HomeMemoryFile.read(path: path).entries.filter { $0.eventID == id }
            .map { "\($0.kind.rawValue) \($0.soundClass.rawValue) \($0.inputs)" }
    }

    @Test func anEventWhoseClipTheQuotaDeletedIsStillRemembered() throws {
        let (log, recording, store) = try Night.replay(in: dir)
        try Night.label(Night.cough, "right", log)
        try Night.label(Night.dog, "cough", log)         // not a bark: a cough
        try Night.label(Night.cry, "not", log)
        // A live night's events: no recording, their sound in their clips alone.
        try FileManager.default.removeItem(atPath: recording)
        let first = try somniq(["learn", "--home", "--log", log])
        #expect(first.status == 0 && !first.stderr.contains("left out"), "\(first.stderr)")
        let memory = HomeMemoryFile.besideLog(log)
        let before = try HomeMemoryFile.read(path: memory)
        let cough = try remembered(Night.cough, in: memory), dog = try remembered(Night.dog, in: memory)
        #expect(!cough.isEmpty && dog.contains { $0.hasPrefix("not dog_bark") } && dog.contains { $0.hasPrefix("right cough") })

        // Over the quota: the cough's clip, labelled and remembered and the oldest such, goes.
        let total = store.entries().reduce(Int64(0)) { $0 + $1.bytes }
        let deleted = store.enforce(maxBytes: total - 1, maxAgeDays: nil, now: Date().timeIntervalSince1970,
                                    first: RememberedClips(log: log).names)
        #expect(deleted == [try #require(deleted.first { $0.hasSuffix("_\(Night.cough).flac") })])
        let again = try somniq(["learn", "--home", "--log", log])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("\n1 event from the previous memory, their audio gone\n"), "\(again.stdout)")
        #expect(!again.stderr.contains("left out"), "\(again.stderr)")
        let after = try HomeMemoryFile.read(path: memory)
        #expect(after.entries.count == before.entries.count)
        #expect(try remembered(Night.cough, in: memory) == cough, "the same windows, right")
        #expect(try remembered(Night.dog, in: memory) == dog)
        #expect(after.header.contains { $0 == ("from_previous", "1") })

        // Relabelled since: its windows are learned with the label now given.
        try Night.label(Night.cough, "not", log)
        #expect(try somniq(["learn", "--home", "--log", log]).status == 0)
        #expect(try remembered(Night.cough, in: memory) == cough.map { $0.replacing("right cough", with: "not cough") })
    }

    @Test func withNoPreviousMemoryOrOneForOtherInputsAnEventWhoseAudioIsGoneIsLeftOut() throws {
        let (log, recording, store) = try Night.replay(in: dir)
        try Night.label(Night.cough, "right", log)
        try Night.label(Night.dog, "not", log)
        try FileManager.default.removeItem(atPath: recording)
        #expect(try somniq(["learn", "--home", "--log", log]).status == 0)
        let memory = HomeMemoryFile.besideLog(log)
        try FileManager.default.removeItem(atPath: store.path(try Night.clip(of: Night.cough, in: store).name))

        // Written elsewhere: there is no memory to keep anything from.
        let elsewhere = try somniq(["learn", "--home", "--log", log, "--output", dir + "/other.txt"])
        #expect(elsewhere.status == 0)
        #expect(elsewhere.stderr.contains("\(Night.cough) (cough): left out: its recording \(recording) and its clip ") && !elsewhere.stdout.contains("previous memory"),
                "\(elsewhere.stderr)")
        #expect(try remembered(Night.cough, in: dir + "/other.txt").isEmpty)

        // A memory made for other inputs is refused by name, and nothing of it is kept.
        let text = try String(contentsOfFile: memory, encoding: .utf8)
        try text.replacing(/inputs \d+ [0-9a-f]+/, with: "inputs 60 0000").write(toFile: memory, atomically: true, encoding: .utf8)
        let other = try somniq(["learn", "--home", "--log", log])
        #expect(other.status == 0)
        #expect(other.stderr.contains("warning: the memory it replaces is not kept: ") && other.stderr.contains("made for other inputs"),
                "\(other.stderr)")
        #expect(other.stderr.contains("\(Night.cough) (cough): left out"))
        #expect(try remembered(Night.cough, in: memory).isEmpty && !(try remembered(Night.dog, in: memory)).isEmpty)
    }
}
