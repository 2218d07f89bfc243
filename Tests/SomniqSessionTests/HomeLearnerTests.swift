import Foundation
@testable import SomniqConfig
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Testing
import SomniqCore
import SomniqLog

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

    /// `learn --home` fits this home's fit from the same marks and writes it beside the
    /// memory: the same marks, learned at the same time, give the same file byte for byte;
    /// `rules show` names it; a damaged one is refused by name, and --no-home-fit replays on
    /// the shipped scores.
    @Test func theFitIsWrittenBesideTheMemoryTheSameEachTimeAndADamagedOneIsRefusedByName() throws {
        let (log, recording, _) = try Night.replay(in: dir)
        try Night.label(Night.cough, "right", log)
        try Night.label(Night.dog, "cough", log)
        try Night.label(Night.cry, "not", log)
        let first = try somniq(["learn", "--home", "--log", log, "--learned-at", "2026-11-23T12:00:00Z"])
        #expect(first.status == 0, "\(first.stderr)")
        let memory = HomeMemoryFile.besideLog(log), path = HomeFitFile.beside(memory)
        #expect(path == dir + "/home-fit.txt")
        #expect(first.stdout.contains("\(path): this home's fit "), "\(first.stdout)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let fit = try HomeFitFile.read(path: path)
        #expect(fit.header.first?.key == "learned" && fit.header.contains { $0 == ("marks", "3") })
        #expect(fit.classes.contains { $0.soundClass == .cough && $0.right == 2 }, "the cough, and the bark that was a cough: \(fit.text)")
        let again = try somniq(["learn", "--home", "--log", log, "--learned-at", "2026-11-23T12:00:00Z"])
        #expect(again.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes, "the same marks, the same file")

        let shown = try somniq(["rules", "show", "cough", "--home-rules", memory])
        #expect(shown.stdout.hasPrefix(fit.use(.cough) != nil ? "cough: decided with this home's fit (\(path))" : "cough: this home's fit (\(path)) leaves it"),
                "\(shown.stdout)")

        try "somniq-home-fit 1\nclass cough used 1 right 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try somniq(["replay", recording, "--format", "jsonl", "--output", dir + "/b.jsonl", "--home-rules", memory])
        #expect(refused.status == 65 && refused.stderr.contains("\(path): line 2: class: expected CLASS"), "\(refused.stderr)")
        let shipped = try somniq(["replay", recording, "--format", "jsonl", "--output", dir + "/b.jsonl", "--home-rules", memory, "--no-home-fit"])
        #expect(shipped.status == 0, "\(shipped.stderr)")
    }

    /// An event of a class this home's fit decides says so in words, in the box's time zone.
    @Test func theWhySaysThisHomesFitDecidedTheClass() throws {
        let trace = LogRecord.Trace(try JSONValue(parsing: #"{"peak_smoothed": 0.75, "rule": {"on": 0.7}, "level_dbfs": -30, "floor_dbfs": -50, "#
                                    + #""fit": {"class": "cough", "shift": 1.1106, "learned": "2026-11-23T12:00:00.000Z", "marks": 14}}"#))
        let day = WallClock.localDate(WallClock.parse("2026-11-23T12:00:00.000Z")!)
        #expect(EventWords.why(trace: trace, of: .cough)
                == "loud, about 20 dB over the room; score 75 % (alerts from 70 %); decided with this home's fit for cough, learned \(day) from 14 marks")
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

    /// A labelled live event whose trace says it was confirmed before its onset (a damaged,
    /// edited or crafted log) made `learn --home` trap on a negative count of opening
    /// windows (exit 132, SIGILL). It is skipped, named with why; the others are learned.
    @Test func aLabelledEventConfirmedBeforeItsOnsetIsSkippedByNameNotATrap() throws {
        let (log, recording, _) = try Night.replay(in: dir)
        try Night.label(Night.cough, "right", log)
        try Night.label(Night.dog, "not", log)
        // A live night's events: their sound in their clips alone.
        try FileManager.default.removeItem(atPath: recording)
        let onset = try craftTrace(log, id: Night.cough, confirmed: "1")
        let r = try somniq(["learn", "--home", "--log", log])
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.contains("\(Night.cough) (cough): skipped: its trace's confirmed_s (1) is before its onset_s (\(onset)); its log records are damaged"),
                "\(r.stderr)")
        let memory = HomeMemoryFile.besideLog(log)
        #expect(try remembered(Night.cough, in: memory).isEmpty && !(try remembered(Night.dog, in: memory)).isEmpty)

        // Labelled again now, it is refused by name.
        let again = try somniq(["label", Night.cough, "--as", "not", "--log", log])
        #expect(again.status == 65 && again.stderr.contains("event \(Night.cough) cannot be labelled: its trace's confirmed_s (1) is before its onset_s"),
                "\(again.stderr)")

        // Out of every range a log's seconds have: skipped likewise, never a trap.
        for value in ["-5", "1e300", "-1e300"] {
            _ = try craftTrace(log, id: Night.cough, confirmed: value)
            let hostile = try somniq(["learn", "--home", "--log", log])
            #expect(hostile.status == 0, "confirmed_s \(value): exit \(hostile.status): \(hostile.stderr)")
            #expect(hostile.stderr.contains("\(Night.cough) (cough): skipped: its trace's confirmed_s ("), "\(hostile.stderr)")
        }
        // Not JSON at all (NaN, or a number past a Double): its event_start does not read;
        // its label is said to name no event.
        for value in ["NaN", "1e999"] {
            _ = try craftTrace(log, id: Night.cough, confirmed: value)
            let unread = try somniq(["learn", "--home", "--log", log])
            #expect(unread.status == 0, "confirmed_s \(value): exit \(unread.status): \(unread.stderr)")
            #expect(unread.stderr.contains("\(Night.cough) (cough, night of 2026-11-22): labelled, but no event of it reads in the log"),
                    "\(unread.stderr)")
        }
    }

    /// A clip path in a damaged or crafted log naming a directory, a device or a FIFO
    /// stopped the whole learning (exit 65, every day for the daemon): that event is left
    /// out, by name, and the others are learned.
    @Test func aLabelledEventWhoseAudioCannotBeReadIsLeftOutNotTheLearning() throws {
        let (log, recording, _) = try Night.replay(in: dir)
        try Night.label(Night.cough, "right", log)
        try Night.label(Night.dog, "not", log)
        try FileManager.default.removeItem(atPath: recording)
        let fifo = dir + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        for path in [dir, "/dev/zero", fifo] {
            let crafted = text.split(separator: "\n").map { line in
                guard line.contains(#""kind":"event_end""#), line.contains(#""id":"\#(Night.cough)""#) else { return String(line) }
                return String(line).replacing(/"clip":"[^"]*"/, with: #""clip":"\#(path)""#)
            }
            try (crafted.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
            let r = try somniq(["learn", "--home", "--log", log, "--output", dir + "/memory.txt"])
            #expect(r.status == 0, "\(path): exit \(r.status): \(r.stderr)")
            #expect(r.stderr.contains("\(Night.cough) (cough): left out: its audio cannot be read: "), "\(r.stderr)")
            #expect(try remembered(Night.cough, in: dir + "/memory.txt").isEmpty && !(try remembered(Night.dog, in: dir + "/memory.txt")).isEmpty)
        }
    }

    /// The events of a log read with hostile numbers: each one left out is named with why,
    /// and the others are read.
    @Test func eventsWhoseTimesCannotBeTheirOwnAreRefusedByName() throws {
        let log = dir + "/hostile.jsonl"
        func start(_ id: String, _ members: String) -> String {
            #"{"v":1,"kind":"event_start","id":"\#(id)","class":"cough","tier":"high","confidence":0.8,"alert":true,\#(members)}"#
        }
        func end(_ id: String, _ offset: String) -> String {
            #"{"v":1,"kind":"event_end","id":"\#(id)","class":"cough","offset_s":\#(offset),"duration_s":1,"peak_dbfs":-20,"confidence":0.8}"#
        }
        let lines = [
            #"{"v":1,"kind":"session_start","start_time":"2026-11-22T23:10:00.000Z","source":{"type":"file","path":"/nowhere.flac"}}"#,
            start("ok", #""onset_s":10,"trace":{"confirmed_s":11}"#), end("ok", "12"),
            start("before", #""onset_s":10,"trace":{"confirmed_s":9}"#), end("before", "12"),
            start("negative", #""onset_s":-1"#), end("negative", "12"),
            start("huge", #""onset_s":1e300"#), end("huge", "1e301"),
            start("no-onset", #""trace":{"confirmed_s":11}"#), end("no-onset", "12"),
            start("ends-first", #""onset_s":10"#), end("ends-first", "5"),
            start("no-offset", #""onset_s":10"#),
            #"{"v":1,"kind":"event_end","id":"no-offset","class":"cough","duration_s":1}"#,
            start("huge-confirm", #""onset_s":10,"trace":{"confirmed_s":1e308}"#), end("huge-confirm", "12"),
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let known = try LoggedEvents(logs: [log])
        #expect(known.events.map(\.id) == ["ok"])
        let why = Dictionary(uniqueKeysWithValues: known.refused.map { ($0.id, $0.why) })
        #expect(why == [
            "before": "its trace's confirmed_s (9) is before its onset_s (10)",
            "negative": "its onset_s (-1) is not seconds into a session (0 to a year)",
            "huge": "its onset_s (1e+300) is not seconds into a session (0 to a year)",
            "no-onset": "its onset_s is missing",
            "ends-first": "its offset_s (5) is before its onset_s (10)",
            "no-offset": "its event_end has no offset_s",
            "huge-confirm": "its trace's confirmed_s (1e+308) is not seconds into a session (0 to a year)",
        ], "\(why)")
    }
}
