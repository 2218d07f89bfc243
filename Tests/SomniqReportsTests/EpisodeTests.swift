import Foundation
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Testing
import SomniqCore
import SomniqLog

/// Sleep episodes: `somniq episode add|list|remove` on real logs (the demo night's minutes
/// replayed as six nights), their place in the report and the history, and the factors.
@Suite(.serialized) final class EpisodeTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    static let days = ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"]

    /// Six nights: minute k…k+1 of the demo night replayed as the night of days[k], from 23:00.
    static let made = Result<String, any Error> {
        let dir = temporaryDirectory()
        for (k, day) in days.enumerated() {
            let piece = dir + "/\(day).wav"
            try sox(Paths.demoNight, piece, "trim", "\(k * 20)", "60")
            let r = try runProgram(Paths.somniq, ["replay", piece, "--format", "jsonl", "--output", dir + "/events.jsonl",
                                                  "--start", "\(day)T23:00"])
            guard r.status == 0 else { throw CurlFailed(message: r.stderr) }
        }
        return dir + "/events.jsonl"
    }

    func sixNights() throws -> String {
        let log = dir + "/events.jsonl"
        try FileManager.default.copyItem(atPath: try Self.made.get(), toPath: log)
        return log
    }

    func episode(_ arguments: [String]) throws -> CommandResult { try somniq(["episode"] + arguments) }

    @Test func anEpisodeIsARecordOfTheLogAndTheReportSetsItBesideWhatWasHeard() throws {
        let log = try sixNights()
        let add = try episode(["add", "--log", log, "--night", "2026-11-18", "--severity", "moderate", "--symptom", "gasping",
                               "--tag", "alcohol", "--tag", "Late-Meal", "--at", "23:00:30", "--duration", "5", "--note", "woke up twice"])
        #expect(add.status == 0 && add.stderr == "", "\(add.stderr)")
        let id = try #require(records(log).last?["id"]?.stringValue)
        #expect(add.stdout == "episode \(id) added to the night of 2026-11-18: moderate; gasping for air at 23:00 for 5 min; tags alcohol, late-meal; \"woke up twice\"\n")
        let record = try #require(records(log).last)
        #expect(record["kind"] == .string("episode") && record["night"] == .string("2026-11-18"))
        #expect(record["symptoms"] == .array([.string("gasping")]) && record["tags"] == .array([.string("alcohol"), .string("late-meal")]))
        #expect(record["at"]?.stringValue.flatMap(WallClock.parse) == WallClock.parse("2026-11-18T23:00:30"))

        // The report: beside what was heard then, and marked on the timeline.
        let night = try NightReports.night(in: log, key: "2026-11-18")
        let reported = ReportedEpisode(try #require(night.episodes.first), in: night)
        let heard = try #require(reported.heard, "something was heard within 5 minutes")
        let text = try somniq(["report", log, "--night", "2026-11-18", "--format", "text"]).stdout
        #expect(text.contains("reported\n  moderate: gasping for air at 23:00 for 5 min — somniq heard "
                              + "\(EventWords.one(heard.soundClass)) at \(night.clock(heard.onset, seconds: true))\n"
                              + "    tags alcohol, late-meal\n    \"woke up twice\"\n"), "\(text)")
        let html = try somniq(["report", log, "--night", "2026-11-18"]).stdout
        #expect(html.contains("<h2 id=\"reported\">What the sleeper reported</h2>"))
        #expect(html.contains("<g class=\"reported\"><line") && html.contains("reported: gasping for air</text>"))
        #expect(!(try somniq(["report", log, "--night", "2026-11-17"]).stdout.contains("id=\"reported\"")), "another night's report")

        #expect(try episode(["list", "--log", log]).stdout == "\(id)  2026-11-18  moderate; gasping for air at 23:00 for 5 min; tags alcohol, late-meal; \"woke up twice\"\n")
        let removed = try episode(["remove", "--log", log, id])
        #expect(removed.status == 0 && removed.stdout == "episode \(id) of the night of 2026-11-18 removed\n")
        #expect(records(log).last?["kind"] == .string("episode_removed"))
        #expect(try episode(["list", "--log", log]).stdout == "no episode in \(log)\n")
        #expect(try NightReports.night(in: log, key: "2026-11-18").episodes.isEmpty)
        let again = try episode(["remove", "--log", log, id])
        #expect(again.status == 65 && again.stderr == "somniq: no episode \(id) in \(log) (see somniq episode list)\n")
    }

    /// What a person may type wrong gets a message naming it, and nothing is written.
    @Test func badInputIsRefusedByName() throws {
        let log = try sixNights()
        let before = try String(contentsOfFile: log, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--severity", "awful"], "somniq: severity \"awful\": mild, moderate or severe"),
            (["--severity", "mild", "--symptom", "headache"],
             "somniq: \"headache\" is not a symptom; one of: snoring, gasping, restless, insomnia, nightmares, sleepwalking, daytime-sleepiness, morning-headache, dry-mouth, chest-pain"),
            (["--severity", "mild", "--tag", "<script>"], "somniq: \"<script>\" is not a tag: letters, digits and - only, at most 32"),
            (["--severity", "mild", "--tag", "two\nlines"], "somniq: \"two\\nlines\" is not a tag: letters, digits and - only, at most 32"),
            (["--severity", "mild", "--tag", String(repeating: "a", count: 33)],
             "somniq: \"\(String(repeating: "a", count: 33))\" is not a tag: letters, digits and - only, at most 32"),
            (["--severity", "mild", "--note", "one\u{1B}[2J"], "somniq: the note must not contain control characters"),
            (["--severity", "mild", "--tag", "a.b"], "somniq: \"a.b\" is not a tag: letters, digits and - only, at most 32"),
            (["--severity", "mild", "--at", "2026-11-20T03:00"],
             "somniq: at 2026-11-20T03:00 is in the night of 2026-11-19, not of 2026-11-18 (a night runs from noon to noon)"),
            (["--severity", "mild", "--at", "soon"], "somniq: at soon: give a time such as 03:12 or 2026-11-23T03:12"),
            (["--severity", "mild", "--duration", "2000"], "somniq: duration 2000 min: from 0 to 1440 minutes"),
        ]
        for (arguments, message) in cases {
            let r = try episode(["add", "--log", log, "--night", "2026-11-18"] + arguments)
            #expect(r.status == 64, "\(arguments)")
            #expect(r.stderr == message + "\n", "\(arguments)")
        }
        let badNight = try episode(["add", "--log", log, "--night", "tuesday", "--severity", "mild"])
        #expect(badNight.stderr == "somniq: night tuesday: give the evening's date, such as 2026-11-22\n")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == before, "nothing was written")
    }

    /// A night with no sound recorded keeps its episode, and says so; a torn last line (a
    /// power cut) is ended first and counted, never glued to the episode.
    @Test func aNightWithoutSoundAndATornLineAreSaid() throws {
        let log = try sixNights()
        let quiet = try episode(["add", "--log", log, "--night", "2026-11-10", "--severity", "mild", "--symptom", "insomnia"])
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "somniq: warning: no sound was recorded on the night of 2026-11-10 in \(log): the episode is kept, with nothing heard to set it beside\n")
        let report = try somniq(["report", log, "--night", "2026-11-10"])
        #expect(report.status == 65)
        #expect(report.stderr.contains("no sound was recorded on the night of 2026-11-10; it has 1 episode(s) reported"))
        let history = try History.read(logs: [log], grouping: .all)
        let row = try #require(history.nights.first { $0.night == "2026-11-10" })
        #expect(row.heardSeconds == 0 && row.symptoms == [.insomnia])
        #expect(Factors(history).withoutSound == ["2026-11-10"])
        // Listed, but counted in no total, mean or trend.
        #expect(history.periods.map(\.nights) == [6] && history.total.sessions == 6)
        #expect(history.periods[0].meanSnoring == history.periods[0].total.snoringSeconds / 60 / 6)

        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"v":1,"kind":"level","start_s":"#.utf8))
        handle.closeFile()
        #expect(try episode(["add", "--log", log, "--night", "2026-11-21", "--severity", "mild"]).status == 0)
        #expect(records(log).last?["kind"] == .string("episode"), "the episode is a line of its own")
        #expect(try NightReports.night(in: log, key: "2026-11-21").episodes.count == 1)
        #expect(try History.read(logs: [log], grouping: .all).skipped == LogSkips(unreadable: 1))
    }

    /// The history's columns and the factors rest on the nights' own figures: the means of
    /// the nights with a tag are the means of those nights' rows.
    @Test func theFactorsAreTheMeansOfTheNightsOwnFigures() throws {
        let log = try sixNights()
        for day in ["2026-11-16", "2026-11-18", "2026-11-20"] {
            #expect(try episode(["add", "--log", log, "--night", day, "--severity", "mild", "--tag", "alcohol"]).status == 0)
        }
        #expect(try episode(["add", "--log", log, "--night", "2026-11-17", "--severity", "severe", "--symptom", "morning-headache"]).status == 0)
        let history = try History.read(logs: [log], grouping: .all)
        #expect(history.nights.count == 6, "an episode's own time starts no night")
        let factors = Factors(history)
        #expect(factors.nights == 6)
        let alcohol = try #require(factors.factors.first { $0.name == "alcohol" })
        #expect(alcohol.kind == .tag && alcohol.with.nights == 3 && alcohol.without.nights == 3)
        let tagged = history.nights.filter { $0.tags.contains("alcohol") }
        let others = history.nights.filter { !$0.tags.contains("alcohol") }
        #expect(tagged.map(\.night) == ["2026-11-16", "2026-11-18", "2026-11-20"])
        #expect(abs(alcohol.with.snoringMinutes - tagged.map(\.snoringMinutes).reduce(0, +) / 3) < 1e-9)
        #expect(abs(alcohol.without.disturbances - Double(others.map(\.disturbances).reduce(0, +)) / 3) < 1e-9)
        #expect(abs(alcohol.with.alerts - Double(tagged.map(\.alertCount).reduce(0, +)) / 3) < 1e-9)
        #expect(alcohol.sentence.hasPrefix(String(cFormat: "On the 3 nights tagged alcohol, snoring took %.0f %% of the night; on the 3 others,",
                                                  100 * tagged.map(\.snoringShare).reduce(0, +) / 3)))
        #expect(factors.tooFew.map(\.name) == ["morning-headache"], "one night with it")

        let table = try somniq(["history", log, "--factors"]).stdout
        #expect(table.contains("tag alcohol: 3 nights with, 3 without"))
        #expect(table.contains("Not enough nights yet (3 with and 3 without): morning-headache (1 with, 5 without)."))
        #expect(table.contains("not what caused what, and somniq does not diagnose"))
        let json = try JSONValue(parsing: try somniq(["history", log, "--factors", "--json"]).stdout)
        #expect(json["factors"]?.arrayValue?.first?["factor"] == .string("alcohol"))
        let csv = try somniq(["history", log, "--factors", "--csv"]).stdout.components(separatedBy: "\r\n")
        #expect(csv[0].hasPrefix("factor,kind,nights_with,nights_without,snoring_min_with,"))
        #expect(csv[1].hasPrefix("alcohol,tag,3,3,"))

        // The history: a column per symptom and tag, in the table, the CSV and the JSON.
        let lines = try somniq(["history", log]).stdout.components(separatedBy: "\n")
        #expect(lines[0].hasSuffix("morning-headache  alcohol"))
        #expect(lines.first { $0.hasPrefix("2026-11-16") }?.hasSuffix("·                 x") == true)
        let rows = try somniq(["history", log, "--csv"]).stdout.components(separatedBy: "\r\n")
        #expect(rows[0].hasSuffix(",episodes,symptom_morning-headache,tag_alcohol"))
        #expect(rows.first { $0.hasPrefix("2026-11-18,") }?.hasSuffix(",1,0,1") == true)
        let doc = try JSONValue(parsing: try somniq(["history", log, "--json"]).stdout)
        let night = doc["nights"]?.arrayValue?.first { $0["night"] == .string("2026-11-17") }
        #expect(night?["symptoms"] == .array([.string("morning-headache")]) && night?["tags"] == .array([]))
        // The totals are still the sum of the nights.
        #expect(history.total.disturbances == history.nights.map(\.disturbances).reduce(0, +))
    }

    /// The daemon writes its log while episodes are added: every line of both stays whole
    /// (both append with O_APPEND, a line a write(2), which Linux does not interleave).
    @Test func episodesAddedWhileTheLogIsWrittenLoseNothing() throws {
        let log = dir + "/events.jsonl", long = dir + "/long.wav"
        try sox(Paths.demoNight, long, "repeat", "4")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: Paths.somniq)
        writer.arguments = ["replay", long, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:10"]
        writer.standardOutput = FileHandle.nullDevice
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        var added = 0
        while writer.isRunning || added < 10 {
            if (try? episode(["add", "--log", log, "--night", "2026-11-22", "--severity", "mild", "--tag", "n\(added)"]))?.status == 0 {
                added += 1
            }
        }
        writer.waitUntilExit()
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { (try? JSONValue(parsing: String($0))) != nil || $0.isEmpty }, "every line is a whole record")
        #expect(try NightReports.night(in: log, key: "2026-11-22").episodes.count == added)
        #expect(try History.read(logs: [log], grouping: .all).skipped.isEmpty)
    }
}

/// A night is a date of the calendar (the probe's: 2026-02-30 was kept, and listed after
/// 2026-03-02; year 0000's week was "-001-W52"): refused by name where a person types
/// one (`episode add`, the web page's form through `Episode.make`, `report --night`,
/// `episode list --night`), leap years counted.
@Test func aNightThatTheCalendarHasNotIsRefusedByName() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = dir + "/events.jsonl"
    #expect(try somniq("replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-03-02T23:00").status == 0)
    let refused = [
        ("2026-02-30", "there is no such date: February 2026 has 28 days"),
        ("2026-04-31", "there is no such date: April 2026 has 30 days"),
        ("2025-02-29", "there is no such date: February 2025 has 28 days"),
        ("2100-02-29", "there is no such date: February 2100 has 28 days"),
        ("0000-01-01", "there is no year 0000 here: years 0001 to 9999"),
        ("2026-00-10", "there is no month 00: months 01 to 12"),
        ("2026-3-02", "give the evening's date, such as 2026-11-22"),
        ("+026-03-02", "give the evening's date, such as 2026-11-22"),
    ]
    for (night, problem) in refused {
        let r = try somniq("episode", "add", "--log", log, "--night", night, "--severity", "mild")
        #expect(r.status == 64 && r.stderr == "somniq: night \(night): \(problem)\n", "\(night): \(r.stderr)")
        guard case let .failure(e) = Episode.make(night: night, severity: "mild", symptoms: [], tags: [], note: nil, at: nil,
                                                   duration: nil, now: 1_795_400_000) else {
            Issue.record("\(night): the page's form took it")
            continue
        }
        #expect(e.description == "night \(night): \(problem)")
        #expect(!History.isDate(night))
    }
    for command in [["report", log, "--night", "2026-02-30"], ["episode", "list", "--log", log, "--night", "2026-02-30"]] {
        let r = try somniq(command)
        #expect(r.status == 64 && r.stderr == "somniq: night 2026-02-30: there is no such date: February 2026 has 28 days\n", "\(command)")
    }
    #expect(records(log).allSatisfy { $0["kind"] != .string("episode") }, "nothing was written")
    // Leap days that are.
    for night in ["2028-02-29", "2000-02-29"] {
        #expect(try somniq("episode", "add", "--log", log, "--night", night, "--severity", "mild").status == 0, "\(night)")
    }
    // An episode of 2026-02-30 already in a log (written before this check) is not a night:
    // skipped and counted, not listed after 2026-03-02.
    let handle = try #require(FileHandle(forWritingAtPath: log))
    handle.seekToEndOfFile()
    handle.write(Data(#"{"v":1,"kind":"episode","id":"ep-1-00000001","night":"2026-02-30","severity":"mild","symptoms":[],"tags":[],"time":"2026-03-01T08:00:00.000Z"}"#.utf8 + [0x0A]))
    handle.closeFile()
    let history = try History.read(logs: [log], grouping: .all)
    #expect(history.nights.map(\.night) == ["2000-02-29", "2026-03-02", "2028-02-29"])
    #expect(history.skipped == LogSkips(unreadable: 1))
    // The first and last years have four-digit weeks.
    #expect(History.period(of: try #require(History.day("0001-01-01")), .week) == "0001-W01")
    #expect(History.period(of: try #require(History.day("9999-12-31")), .week) == "9999-W52")
}

/// A note is capped in bytes as well as characters: one letter and 60,000 combining marks
/// is one character of 120 KB (the probe's line), refused; 500 accented letters are
/// taken. A record holding such a note (written by hand) is not read as an episode.
@Test func aNoteOfOneLetterAndSixtyThousandMarksIsRefused() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = dir + "/events.jsonl"
    let marks = "a" + String(repeating: "\u{301}", count: 60_000)
    #expect(marks.count == 1 && marks.utf8.count == 120_001)
    let r = try somniq("episode", "add", "--log", log, "--night", "2026-11-22", "--severity", "mild", "--note", marks)
    #expect(r.status == 64)
    #expect(r.stderr == "somniq: a note is at most 4000 bytes of UTF-8 (this one has 120001: combining accents and marks count there, not as characters)\n")
    #expect(!FileManager.default.fileExists(atPath: log) || records(log).isEmpty, "nothing was written")
    let accented = String(repeating: "é", count: 500)
    #expect(try somniq("episode", "add", "--log", log, "--night", "2026-11-22", "--severity", "mild", "--note", accented).status == 0)
    #expect(records(log).last?["note"] == .string(accented))

    var book = EpisodeBook()
    book.add(try LogRecord(json: .object([("v", .number(1)), ("kind", .string("episode")), ("id", .string("ep-1-00000001")), ("night", .string("2026-11-22")),
                      ("severity", .string("mild")), ("symptoms", .array([])), ("tags", .array([])), ("note", .string(marks)),
                      ("time", .string("2026-11-23T08:00:00.000Z"))])))
    #expect(book.episodes.isEmpty && book.unreadable == 1)
}

/// A tag is a word of any script: `İstanbul` (lowercased to i and a combining dot) and
/// `été` written with combining accents are taken, lowercased as before; spaces,
/// punctuation, controls and a mark with no letter before it are not.
@Test func aTagOfLettersOfAnyScriptIsTakenAndPunctuationIsNot() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = dir + "/events.jsonl"
    let decomposed = "e\u{301}te\u{301}"
    let r = try somniq("episode", "add", "--log", log, "--night", "2026-11-22", "--severity", "mild",
                       "--tag", "İstanbul", "--tag", decomposed, "--tag", "Nuit-2", "--tag", "ÉTÉ")
    #expect(r.status == 0, "\(r.stderr)")
    // Kept as typed, lowercased; ÉTÉ is été again (canonically equivalent), kept once.
    let kept = records(log).last?["tags"]?.arrayValue?.compactMap { $0.stringValue }
    let tags = try #require(kept)
    #expect(tags.map { Array($0.unicodeScalars) } == [Array("i\u{307}stanbul".unicodeScalars), Array(decomposed.unicodeScalars), Array("nuit-2".unicodeScalars)])
    #expect(try History.read(logs: [log], grouping: .all).nights.first?.tags == ["i\u{307}stanbul", "été", "nuit-2"])
    for tag in ["a b", "a_b", "a.b", "a/b", "tab\there", "\u{301}e", "a\u{200B}b", "x\u{7F}"] {
        let refused = try somniq("episode", "add", "--log", log, "--night", "2026-11-22", "--severity", "mild", "--tag", tag)
        #expect(refused.status == 64 && refused.stderr == "somniq: \"\(LogText.escape(tag))\" is not a tag: letters, digits and - only, at most 32\n",
                "\(tag.unicodeScalars.map { String($0.value, radix: 16) }): \(refused.stderr)")
    }
    // 32 characters of a letter and four marks each: 32 characters, but 288 bytes.
    let heavy = String(repeating: "e" + String(repeating: "\u{301}", count: 4), count: 32)
    #expect(Episode.tagProblem(heavy) != nil && Episode.tagProblem(String(repeating: "é", count: 32)) == nil)
}

/// A removal counts wherever it is: logs may be read in any order.
@Test func aRemovalTakesBackAnEpisodeWrittenBeforeOrAfterIt() throws {
    let e = Episode(id: "ep-1-00000001", night: "2026-11-22", severity: .mild, tags: ["alcohol"], recorded: 1_795_400_000)
    var forwards = EpisodeBook(), backwards = EpisodeBook()
    forwards.add(e.record)
    forwards.add(Episode.removal(e.id, time: 1_795_400_100))
    backwards.add(Episode.removal(e.id, time: 1_795_400_100))
    backwards.add(e.record)
    #expect(forwards.episodes.isEmpty && backwards.episodes.isEmpty)
    var kept = EpisodeBook()
    kept.add(e.record)
    #expect(kept.episodes == [e] && kept.of("2026-11-22") == [e] && kept.of("2026-11-21").isEmpty)
}

extension JSONValue {
    var arrayValue: [JSONValue]? {
        guard case let .array(items) = self else { return nil }
        return items
    }
}

/// An episode's time is the configuration's `time_zone`'s, as `history --config` shows it,
/// whatever the machine's zone: 03:30 in Kolkata on the night of 2026-11-20 is 22:00 UTC.
@Test func anEpisodesTimeIsTheConfiguredZones() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = dir + "/events.jsonl", config = dir + "/config.json"
    try #"{"time_zone": "Asia/Kolkata", "log": "\#(log)"}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let utc = ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
    for arguments in [["--config", config], ["--log", log, "--config", config]] {
        try? FileManager.default.removeItem(atPath: log)
        let r = try runProgram(Paths.somniq, ["episode", "add"] + arguments + ["--night", "2026-11-20", "--severity", "mild", "--at", "03:30"],
                               environment: utc)
        #expect(r.status == 0, "\(r.stderr)")
        let at = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\"at\":\"").dropFirst().first?.prefix(24)
        #expect(at == "2026-11-20T22:00:00.000Z", "\(arguments)")
    }
}
