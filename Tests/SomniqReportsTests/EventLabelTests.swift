import Foundation
@testable import SomniqReports
import SomniqTestSupport
import Testing
import SomniqCore
@testable import SomniqLog

/// Labels (`somniq label`): records appended to the log, the last one winning, shown by the
/// report and counted by the history; they survive a restart, a writer killed mid-line and
/// a rotated log.
@Suite(.serialized) final class EventLabelTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// The demo night replayed from 23:10 on 2026-11-22: ids r1795389000-e1 … e9.
    func demoNight(_ name: String = "events.jsonl") throws -> String {
        let log = dir + "/" + name
        let r = try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:10"])
        #expect(r.status == 0, "\(r.stderr)")
        return log
    }

    static let door = "r1795389000-e2", dog = "r1795389000-e6", cough = "r1795389000-e4"

    func label(_ arguments: [String]) throws -> CommandResult { try somniq(["label"] + arguments) }

    @Test func aLabelIsARecordTheLastOneWinsAndNoneTakesItBack() throws {
        let log = try demoNight()
        let before = try String(contentsOfFile: log, encoding: .utf8)
        let r = try label([Self.door, "--as", "not", "--log", log])
        #expect(r.status == 0 && r.stdout == "\(Self.door) (door, night of 2026-11-22): not this\n", "\(r.stderr)")
        let after = try String(contentsOfFile: log, encoding: .utf8)
        #expect(after.hasPrefix(before), "nothing is rewritten")
        let record = try #require(records(log).last)
        #expect(record["kind"] == .string("label") && record["as"] == .string("not") && record["class"] == .string("door"))
        #expect(try label([Self.door, "--as", "music", "--log", log]).status == 0)
        #expect(try NightReports.night(in: log, key: "2026-11-22").labels[Self.door]?.verdict == .was(.music))
        #expect(try label([Self.door, "--as", "none", "--log", log]).status == 0)
        #expect(try NightReports.night(in: log, key: "2026-11-22").labels[Self.door] == nil)
        // Wrong input: an unknown event, an unknown verdict, --as missing.
        let unknown = try label(["r1-e99", "--as", "not", "--log", log])
        #expect(unknown.status == 65 && unknown.stderr == "somniq: \(log): no event r1-e99; `somniq report \(log) --format text` lists each event with its id\n",
                "\(unknown.stderr)")
        #expect(try label([Self.door, "--as", "cat", "--log", log]).status == 64)
        #expect(try label([Self.door, "--log", log]).status == 64)
    }

    /// The text report names each event by the id `somniq label` takes, and says how loud it
    /// was in the notification's words: the alerts, and the speech that came within its
    /// cooldown, not alerted.
    @Test func theTextReportListsEachEventWithItsId() throws {
        let log = try demoNight()
        let text = try somniq(["report", log, "--format", "text"]).stdout
        #expect(text.contains("""

            alerts
              23:10:04  r1795389000-e1  high      snoring for 31.5 s, clearly heard, about 19 dB over the room
              23:10:46  r1795389000-e2  medium    door for 1.0 s, loud, about 20 dB over the room

            """), "\(text)")
        #expect(text.contains("""

            not alerted
              23:11:14  r1795389000-e5  medium    speech for 2.5 s, loud, about 22 dB over the room

            """), "\(text)")
        for n in 1...9 { #expect(text.contains("  r1795389000-e\(n)  "), "e\(n)") }
        #expect(!text.contains("held back"))
    }

    @Test func theReportShowsTheLabelsAndTheHistoryCountsThemPerWeek() throws {
        let log = try demoNight()
        let file = dir + "/labels.txt"
        try "\(Self.door) not\n# the dog was a cough\n\(Self.dog) cough\n\(Self.cough) right\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try label(["--from", file, "--log", log]).status == 0)
        let text = try somniq(["report", log, "--format", "text"]).stdout
        #expect(text.contains("door for 1.0 s, loud, about 20 dB over the room, marked not this\n"), "\(text)")
        #expect(text.contains("marked\n  23:10:46  \(Self.door)  door: not this\n  23:11:13  \(Self.cough)  cough: right\n  23:11:31  \(Self.dog)  dog_bark: it was cough\n"), "\(text)")
        let html = try somniq(["report", log]).stdout
        #expect(html.contains("<td data-label=\"marked\">not this</td>"), "the alerts' table has a marked column")
        let history = try somniq(["history", log, "--week"]).stdout
        #expect(history.hasSuffix("""
            marked (somniq label)
            week      class         right  wrong  right %
            2026-W47  cough         1      0      100
            2026-W47  dog_bark      0      1      0
            2026-W47  door          0      1      0

            """), "\(history)")
        // Every alert of the night at once.
        #expect(try label(["--night", "2026-11-22", "--all-alerts-as", "right", "--log", log]).stdout.split(separator: "\n").count == 8)
    }

    /// A file of labels with CRLF line ends (written on Windows) is read as with LF.
    @Test func aFileOfLabelsWithCRLFLineEndsIsRead() throws {
        let log = try demoNight()
        let file = dir + "/labels-crlf.txt"
        try "\(Self.door) not\r\n# a comment\r\n\r\n\(Self.dog) cough\r\n".write(toFile: file, atomically: true, encoding: .utf8)
        let r = try label(["--from", file, "--log", log])
        #expect(r.status == 0 && r.stdout.split(separator: "\n").count == 2, "\(r.stdout)\(r.stderr)")
        let night = try NightReports.night(in: log, key: "2026-11-22")
        #expect(night.labels[Self.door]?.verdict == .not && night.labels[Self.dog]?.verdict == .was(.cough))
    }

    /// What label says of what it was given (a verdict, an id, a night) reaches the
    /// terminal with its control characters escaped, as every other command's input does.
    @Test func whatLabelEchoesOfItsInputIsEscaped() throws {
        let log = try demoNight()
        let verdict = try label([Self.door, "--as", "no\u{1b}[2Jt\nright", "--log", log])
        #expect(verdict.status == 64 && verdict.stderr.contains("no\\x{1b}[2Jt\\nright: not a verdict"), "\(verdict.stderr)")
        let all = try label(["--night", "2026-11-22", "--all-alerts-as", "\u{1b}]0;x\u{7}", "--log", log])
        #expect(all.status == 64 && all.stderr.contains("\\x{1b}]0;x\\x{7}: not a verdict"), "\(all.stderr)")
        let id = try label(["r1\u{1b}[31m-e9\nx", "--as", "not", "--log", log])
        #expect(id.status == 65 && id.stderr.contains("no event r1\\x{1b}[31m-e9\\nx"), "\(id.stderr)")
        let night = try label(["--night", "2026\u{1b}[2J", "--all-alerts-as", "right", "--log", log])
        #expect(night.status == 65 && night.stderr.contains("no alert on the night of 2026\\x{1b}[2J"), "\(night.stderr)")
        for r in [verdict, all, id, night] {
            #expect(!r.stderr.utf8.contains(0x1B) && !r.stdout.utf8.contains(0x1B))
            #expect(r.stderr.split(separator: "\n").allSatisfy { !$0.hasPrefix("right") && !$0.hasPrefix("x") })
        }
    }

    @Test func labelsSurviveARestartAWriterKilledMidLineAndARotatedLog() throws {
        let log = try demoNight()
        #expect(try label([Self.door, "--as", "not", "--log", log]).status == 0)
        // A writer killed mid-line (SIGKILL, power loss) leaves a torn line: the next label
        // starts on a line of its own, and the torn line is skipped by every reader.
        let h = try #require(FileHandle(forWritingAtPath: log))
        h.seekToEndOfFile()
        h.write(Data("{\"v\":1,\"kind\":\"label\",\"id\":\"\(Self.cough)\",\"ni".utf8))
        try h.close()
        #expect(try label([Self.dog, "--as", "not", "--log", log]).status == 0)
        // A restart: the daemon's next session appends to the same log.
        let again = try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:30"])
        #expect(again.status == 0)
        let night = try NightReports.night(in: log, key: "2026-11-22")
        #expect(night.labels[Self.door]?.verdict == .not && night.labels[Self.dog]?.verdict == .not && night.labels[Self.cough] == nil)
        #expect(night.skipped.unreadable == 1, "the torn line, and only it")

        // Rotation: the log is moved aside and a new one begun; an event of the old log is
        // labelled in the new one, which the history and the report read beside it.
        let rotated = log + ".1"
        try FileManager.default.moveItem(atPath: log, toPath: rotated)
        #expect(try label([Self.cough, "--as", "right", "--night", "2026-11-22", "--log", log, "--rotated", rotated]).status == 0)
        #expect(try label([Self.cough, "--as", "right", "--log", log]).status == 65, "not in the new log alone")
        let history = try somniq(["history", rotated, log]).stdout
        #expect(history.contains("2026-W47  cough         1      0      100"), "\(history)")
        let text = try somniq(["report", rotated, "--format", "text", "--labels-from", log]).stdout
        #expect(text.contains("cough for 3.0 s, loud, about 23 dB over the room, marked right"), "\(text)")
    }

    /// The memory in a carer's words: a door marked "not this" on two nights is held back
    /// on the third, listed on the report to be heard and marked, and said so with the day
    /// and time (local) of the door it was like.
    @Test func aSoundMarkedNotThisIsHeldBackAndTheReportSaysWhichMarkItWasLike() throws {
        let log = dir + "/home.jsonl"
        for evening in ["2026-11-21", "2026-11-22"] {
            #expect(try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", evening + "T23:10"]).status == 0)
        }
        let first = "r1795302600-e2"   // the door of the 21st
        #expect(try label([first, "--as", "not", "--log", log]).status == 0)
        #expect(try label([Self.door, "--as", "not", "--log", log]).status == 0)
        let memory = dir + "/home-memory.txt"
        let learned = try somniq(["learn", "--home", "--log", log, "--output", memory])
        #expect(learned.status == 0 && learned.stdout.contains("hold back 2 of 2 held-out false alerts"), "\(learned.stdout)\(learned.stderr)")
        let third = dir + "/third.jsonl"
        #expect(try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", third, "--start", "2026-11-23T23:10",
                            "--home-rules", memory]).status == 0)
        let door = try #require(records(third).first { $0["kind"] == .string("event_start") && $0["class"] == .string("door") })
        #expect(door["alert"] == .bool(false) && door["suppressed"] == .string("home"))
        let html = try somniq(["report", third]).stdout
        #expect(html.contains("<h3 id=\"held-back\">Held back by this home's memory</h3>"))
        // The text report lists it too, by its id, and not among the alerts.
        let heldDoor = try #require(door["id"]?.stringValue)
        let text = try somniq(["report", third, "--format", "text"]).stdout
        #expect(text.contains("""

            held back by this home's memory: heard, logged, not alerted; mark one right if it was
              23:10:46  \(heldDoor)  medium    door for 1.0 s, loud, about 20 dB over the room

            """), "\(text)")
        #expect(text.components(separatedBy: heldDoor).count == 2, "listed once: \(text)")
        #expect(html.contains("held back: like the sound you marked “not a door” on 2026-11-22 at 23:10 (distance 0.00)")
                || html.contains("held back: like the sound you marked “not a door” on 2026-11-21 at 23:10 (distance 0.00)"), "\(html)")
    }

    /// A correction re-classifies: a door marked "it was a cough" on two nights is, on the
    /// third, held back as a door and logged as a cough too, under the cough's rule and tier,
    /// both in the log, the report saying why in the marker's words.
    @Test func aSoundMarkedItWasACoughIsLoggedAsACough() throws {
        let log = dir + "/was.jsonl"
        for evening in ["2026-11-21", "2026-11-22"] {
            #expect(try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", evening + "T23:10"]).status == 0)
        }
        #expect(try label(["r1795302600-e2", "--as", "cough", "--log", log]).status == 0)
        #expect(try label([Self.door, "--as", "cough", "--log", log]).status == 0)
        let memory = dir + "/was-memory.txt"
        let learned = try somniq(["learn", "--home", "--log", log, "--output", memory])
        #expect(learned.status == 0, "\(learned.stderr)")
        #expect(try String(contentsOfFile: memory, encoding: .utf8).contains("\nmemory was:cough door r179530"))
        let third = dir + "/was-third.jsonl"
        #expect(try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", third, "--start", "2026-11-23T23:10",
                            "--home-rules", memory]).status == 0)
        let starts = records(third).filter { $0["kind"] == .string("event_start") }
        let door = try #require(starts.first { $0["class"] == .string("door") })
        #expect(door["alert"] == .bool(false) && door["suppressed"] == .string("home") && door["trace"]?["home"]?["label"] == .string("cough"))
        let cough = try #require(starts.first { $0["trace"]?["home"]?["from"] == door["id"] }, "the door logged as a cough")
        let rule = Profile.balanced.rule(for: .cough)
        #expect(cough["class"] == .string("cough") && cough["tier"] == .string(rule.tier.rawValue) && cough["onset_s"] == door["onset_s"])
        #expect(cough["alert"] == .bool(rule.alert))
        let ends = records(third).filter { $0["kind"] == .string("event_end") }
        #expect(ends.first { $0["id"] == door["id"] }?["offset_s"] == ends.first { $0["id"] == cough["id"] }?["offset_s"], "they end together")
        let html = try somniq(["report", third]).stdout
        #expect(html.contains("held back and logged as cough: like the sound you marked “it was a cough” on 2026-11-2"), "\(html)")
        #expect(html.contains("sounds like the cough you marked on 2026-11-2"), "\(html)")
    }

    /// The first mark counts: one door marked "not this" on one night holds back the same
    /// door the next night, 3 dB quieter, by the corpus's prior (no held-out false alert could
    /// choose a radius yet), and the command says what the memory will and will not do.
    @Test func oneMarkHoldsBackTheSameSoundQuieterTheNextNight() throws {
        let log = dir + "/first.jsonl"
        #expect(try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:10"]).status == 0)
        #expect(try label([Self.door, "--as", "not", "--log", log]).status == 0)
        let memory = dir + "/first-memory.txt"
        let learned = try somniq(["learn", "--home", "--log", log, "--output", memory])
        #expect(learned.status == 0, "\(learned.stderr)")
        #expect(learned.stdout.contains(", radius door 0.5 (the corpus's prior)\n"), "\(learned.stdout)")
        #expect(learned.stdout.contains("\n  door: the corpus's prior, radius 0.5: 1 marked not this (no confirmed door nearer a \"not\" memory)\n"),
                "\(learned.stdout)")
        #expect(learned.stdout.contains("\nwhere a class was marked not this once, or no held-out false alert was like another one marked yet, its marks act within the corpus's prior, radius 0.5"),
                "\(learned.stdout)")
        #expect(learned.stdout.contains("\nit will hold back a sound heard as door like one marked not this, within its class's radius, unless nearer a sound marked right\n"),
                "\(learned.stdout)")
        #expect(learned.stdout.contains("\nit will never hold back nor re-classify a smoke alarm, glass breaking, a scream, a gasp or a breathing pause, "
                                        + "and drops nothing: what it holds back stays in the log and the report, to be heard and marked\n"))
        // One mark teaches the fit nothing it could check on held-out marks: it decides no class.
        #expect(learned.stdout.contains("-memory.fit.txt: this home's fit decides no class yet: on the held-out marks none did better than the shipped rules"),
                "\(learned.stdout)")
        let quieter = dir + "/quieter.flac"
        #expect(try runProgram("/usr/bin/sox", [Paths.demoNight, quieter, "vol", "-3dB"]).status == 0)
        let next = dir + "/next.jsonl"
        #expect(try somniq(["replay", quieter, "--format", "jsonl", "--output", next, "--start", "2026-11-23T23:10", "--home-rules", memory]).status == 0)
        let starts = records(next).filter { $0["kind"] == .string("event_start") }
        let door = try #require(starts.first { $0["class"] == .string("door") })
        #expect(door["alert"] == .bool(false) && door["suppressed"] == .string("home"), "\(door)")
        #expect(starts.filter { $0["suppressed"] == .string("home") }.count == 1, "only the door")
    }

    /// An event held back as nearer a sound marked right as another class says so, and still
    /// says a sound marked right where its trace names no class this somniq knows (a log
    /// written by another version), never a "not" mark it was not.
    @Test func aHoldBackByASoundMarkedRightReadsAsOneWithOrWithoutItsClass() throws {
        func words(_ home: String) throws -> String? {
            let trace = LogRecord.Trace(try JSONValue(parsing: #"{"home": "# + home + "}"))
            return trace.home.map { EventWords.home($0, .door) }
        }
        #expect(try words(#"{"like": "e8", "label": "right", "class": "dog_bark", "distance": 0.2}"#)
                == "held back: more like the dog bark you marked right (event e8) (distance 0.20) than any door you marked right")
        #expect(try words(#"{"like": "e8", "label": "right", "class": "kettle", "distance": 0.2}"#)
                == "held back: more like a sound you marked right (event e8) (distance 0.20) than any door you marked right")
        #expect(try words(#"{"like": "e8", "label": "right", "distance": 0.2}"#)
                == "held back: more like a sound you marked right (event e8) (distance 0.20) than any door you marked right")
    }
    /// A night's row for a class gives the most urgent tier of its events: a gasp a correction
    /// logged at the tier heard (`unheard`) before a gasp the classifier raised does not make the
    /// night's gasps read as "high".
    @Test func aClasssRowGivesTheMostUrgentTierOfItsEvents() throws {
        let lines = [
            #"{"v":1,"kind":"session_start","source":{"type":"file","path":"n.flac"},"profile":"balanced","profile_sha256":"x"}"#,
            #"{"v":1,"kind":"event_start","id":"e2","class":"gasp","tier":"high","onset_s":10,"alert":true,"trace":{"home":{"like":"r1-e5","label":"gasp","from":"e1","distance":0.3,"unheard":true}}}"#,
            #"{"v":1,"kind":"event_end","id":"e2","class":"gasp","onset_s":10,"offset_s":11,"peak_dbfs":-30,"confidence":0.9,"truncated":false}"#,
            #"{"v":1,"kind":"event_start","id":"e3","class":"gasp","tier":"critical","onset_s":40,"alert":true}"#,
            #"{"v":1,"kind":"event_end","id":"e3","class":"gasp","onset_s":40,"offset_s":41,"peak_dbfs":-30,"confidence":0.9,"truncated":false}"#,
            #"{"v":1,"kind":"session_end","stream_s":60,"reason":"end"}"#,
        ]
        let log = dir + "/tiers.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let night = try NightReports.night(in: log, key: nil)
        #expect(night.events.map(\.tier) == [.high, .critical])
        #expect(NightSummary(night).classes.first { $0.soundClass == .gasp }?.tier == .critical)
    }

    /// A "not this" mark remembered as the sound marked right at its moment (`heard`) keeps
    /// the listener's own words, says what the home confirmed there, and its trace reads back.
    @Test func aNotThisMarkHeardAsAConfirmedSoundSaysTheListenersWords() throws {
        let match = HomeMemory.Match(eventID: "e5", at: nil, distance: 0.31, holdsBack: true, was: .snoring, heard: true)
        let home = LogRecord.Home(match)
        #expect(home.json["heard"] == .bool(true) && home.json["label"] == .string("snoring"))
        let trace = LogRecord.Trace(try JSONValue(parsing: #"{"home": {"like": "e5", "label": "snoring", "distance": 0.31, "heard": true}}"#))
        #expect(trace.home == home)
        #expect(EventWords.home(home, .cough)
                == "held back and logged as snoring: like the sound you marked “not a cough” (event e5) (distance 0.31), where you marked the snoring right")
        var from = home
        from.from = "e9"
        #expect(EventWords.home(from, .snoring)
                == "sounds like the sound you marked “not this” (event e5) (distance 0.31), where you marked the snoring right, heard as another class (event e9)")
        // A critical class its own rule did not hear (`unheard`) says why it did not wake anyone.
        var gasp = LogRecord.Home(HomeMemory.Match(eventID: "e5", at: nil, distance: 0.31, holdsBack: true, was: .gasp))
        gasp.from = "e9"
        gasp.unheard = true
        #expect(gasp.json["unheard"] == .bool(true) && LogRecord.Trace(.object([("home", gasp.json)])).home == gasp)
        #expect(EventWords.home(gasp, .gasp)
                == "sounds like the gasp you marked (event e5) (distance 0.31), heard as another class (event e9); not raised as urgent: this home's marks say so, somniq's own rules did not confirm it")
        let said = LogRecord.Home(HomeMemory.Match(eventID: "e5", at: nil, distance: 0.31, holdsBack: true, was: .snoring))
        #expect(said.json["heard"] == nil && !said.heard)
        #expect(EventWords.home(said, .cough) == "held back and logged as snoring: like the sound you marked “it was snoring” (event e5) (distance 0.31)")
    }

    /// An event held back too far from a sound marked "it was snoring" to be logged as snoring
    /// says what the listener said, never "not a cough" (nobody said it) nor "logged as
    /// snoring" (it was not), in the report's words as in the trace read back.
    @Test func anEventHeldBackFarFromASoundSaidToBeSnoringSaysWhatWasSaid() throws {
        let far = LogRecord.Home(HomeMemory.Match(eventID: "e5", at: nil, distance: 1.4, holdsBack: true, said: .snoring))
        #expect(far.label == "not" && far.said == .snoring && far.was == nil)
        #expect(EventWords.home(far, .cough) == "held back: like the sound you marked “it was snoring” (event e5) (distance 1.40)")
        let trace = LogRecord.Trace(try JSONValue(parsing: #"{"home": {"like": "e5", "label": "not", "said": "snoring", "distance": 1.4}}"#))
        #expect(trace.home == far)
        let scream = LogRecord.Home(HomeMemory.Match(eventID: "e5", at: nil, distance: 1.4, holdsBack: false, said: .snoring))
        #expect(EventWords.home(scream, .scream)
                == "like the sound you marked “it was snoring” (event e5) (distance 1.40), alerted all the same: a scream is never held back by what this home taught")
        // A log written before `said`, or naming a class this somniq does not know, says the "not" its label says.
        for home in [#"{"like": "e5", "label": "not", "distance": 1.4}"#, #"{"like": "e5", "label": "not", "said": "kettle", "distance": 1.4}"#] {
            let old = try #require(LogRecord.Trace(try JSONValue(parsing: #"{"home": "# + home + "}")).home)
            #expect(EventWords.home(old, .cough) == "held back: like the sound you marked “not a cough” (event e5) (distance 1.40)")
        }
    }
}
