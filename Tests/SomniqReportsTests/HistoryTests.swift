import Foundation
import SomniqCore
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Testing

/// Nine nights, 14 to 22 November (ISO weeks 46 and 47), each the demo night cut to a
/// different length so that no two nights have the same figures, in two logs. The night
/// of the 18th is two sessions: 23:10, and 02:30 after midnight in the second log.
private func nineNights(in dir: String) throws -> [String] {
    let lengths = [40, 100, 180, 70, 130, 180, 55, 160, 90]
    for length in Set(lengths + [40]) {
        try sox(Paths.demoNight, dir + "/cut-\(length).flac", "trim", "0", "\(length)")
    }
    let logs = [dir + "/a.jsonl", dir + "/b.jsonl"]
    func replay(_ length: Int, _ start: String, into log: String) throws {
        let r = try somniq("replay", dir + "/cut-\(length).flac", "--format", "jsonl", "--output", log, "--start", start)
        #expect(r.status == 0, "\(r.stderr)")
    }
    for (k, length) in lengths.enumerated() {
        try replay(length, "2026-11-\(14 + k)T23:10", into: logs[k < 6 ? 0 : 1])
    }
    try replay(40, "2026-11-19T02:30", into: logs[1])
    return logs
}

@Test func aWeekOfLogsGivesAHistoryTableWithEachWeeksTotalTrendAndChange() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let logs = try nineNights(in: dir)
    let r = try somniq("history", logs[0], logs[1], "--week")
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // One row per night, in date order, whichever order the logs are given in.
    let rows = lines.filter { $0.hasPrefix("2026-11-") }
    #expect(rows.map { String($0.prefix(10)) } == (14...22).map { "2026-11-\($0)" })
    #expect(try somniq("history", logs[1], logs[0], "--week").stdout == r.stdout)
    #expect(lines.contains("week 2026-W46  2026-11-14 … 2026-11-15  2 nights"))
    #expect(lines.contains("week 2026-W47  2026-11-16 … 2026-11-22  7 nights"))
    // The 15th: 100 s heard.
    #expect(rows[1].hasPrefix("2026-11-15       1.7 min "))
    for prefix in ["2026-W46 ", "2026-W47 ", "a night ", "snoring by night ", "trend  snoring ", "vs week 2026-W46  snoring ", "total "] {
        #expect(lines.contains { $0.hasPrefix(prefix) }, "\(prefix)")
    }
}

@Test func historyTotalsAreTheSumsOfTheNightsAndEachNightIsWhatItsLogSays() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let logs = try nineNights(in: dir)
    let r = try somniq("history", logs[0], logs[1], "--week", "--json")
    #expect(r.status == 0, "\(r.stderr)")
    let doc = try JSONValue(parsing: r.stdout)
    guard case let .array(nights)? = doc["nights"], case let .array(periods)? = doc["periods"] else {
        Issue.record("no nights or periods: \(r.stdout)")
        return
    }
    #expect(nights.count == 9)
    // Each night's figures are what its sessions' records say: minutes heard from the
    // level records, snoring minutes from the snoring events' durations.
    var heard: [String: Double] = [:], snoring: [String: Double] = [:], sessions: [String: Int] = [:]
    var night = ""
    for record in logs.flatMap(records) {
        switch record["kind"]?.stringValue {
        case "session_start":
            night = WallClock.night(try #require(record["start_time"]?.stringValue.flatMap(WallClock.parse)))
            sessions[night, default: 0] += 1
        case "level": heard[night, default: 0] += record["seconds"]!.numberValue!
        case "event_end" where record["class"] == .string("snoring"):
            snoring[night, default: 0] += record["offset_s"]!.numberValue! - record["onset_s"]!.numberValue!
        default: break
        }
    }
    // Each count of a week's total, and of the whole total, is the sum over its nights;
    // its minutes are the sum of its nights' seconds, rounded once (not a sum of rounded
    // minutes).
    func tenth(_ x: Double) -> Double { (x * 10).rounded() / 10 }
    func sum(_ rows: [JSONValue], _ path: [String]) -> Double {
        tenth(rows.compactMap { row in path.reduce(Optional(row)) { $0?[$1] }?.numberValue }.reduce(0, +))
    }
    func minutes(_ rows: [JSONValue], _ seconds: [String: Double]) -> Double {
        tenth(rows.compactMap { $0["night"]?.stringValue }.map { seconds[$0] ?? 0 }.reduce(0, +) / 60)
    }
    let figures = [["sessions"], ["disturbances"], ["pauses"]]
        + Tier.allCases.map { ["alerts", $0.rawValue] } + SoundClass.allCases.map { ["events", $0.rawValue] }
    for p in periods {
        let label = try #require(p["period"]?.stringValue)
        let mine = nights.filter { $0["week"]?.stringValue == label }
        #expect(p["nights"]?.numberValue == Double(mine.count))
        for f in figures { #expect(sum([p], f) == sum(mine, f), "\(label) \(f)") }
        #expect(p["heard_min"]?.numberValue == minutes(mine, heard) && p["snoring_min"]?.numberValue == minutes(mine, snoring), "\(label)")
    }
    #expect(periods.map { $0["period"]?.stringValue } == ["2026-W46", "2026-W47"])
    let total = try #require(doc["total"])
    for f in figures { #expect(sum([total], f) == sum(nights, f), "total \(f)") }
    #expect(total["heard_min"]?.numberValue == minutes(nights, heard) && total["snoring_min"]?.numberValue == minutes(nights, snoring))
    #expect(total["snoring_share"]?.numberValue == JSONValue.rounded(snoring.values.reduce(0, +) / heard.values.reduce(0, +)).numberValue)

    for n in nights {
        let key = try #require(n["night"]?.stringValue)
        #expect(n["heard_min"]?.numberValue == ((heard[key] ?? 0) / 6).rounded() / 10, "\(key)")
        #expect(n["snoring_min"]?.numberValue == ((snoring[key] ?? 0) / 6).rounded() / 10, "\(key)")
        #expect(n["sessions"]?.numberValue == Double(sessions[key] ?? 0), "\(key)")
    }
    // The night of the 18th: 130 s before midnight and 40 s after, one row.
    #expect(nights.first { $0["night"] == .string("2026-11-18") }?["heard_min"] == .number(2.8))

    // The CSV has the same nights, figure for figure.
    let csv = try somniq("history", logs[0], logs[1], "--week", "--csv").stdout
    let csvRows = csv.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    #expect(csvRows.first == ["night", "week", "sessions", "heard_min", "snoring_min", "snoring_share", "disturbances", "pauses",
                              "alerts_critical", "alerts_high", "alerts_medium", "alerts_low", "loudest_minute", "loudest_leq_dbfs"])
    #expect(csvRows.count == 10)
    for (row, n) in zip(csvRows.dropFirst(), nights) {
        #expect(row[0] == n["night"]?.stringValue && row[1] == n["week"]?.stringValue)
        #expect(Double(row[4]) == n["snoring_min"]?.numberValue && Int(row[6]) == n["disturbances"]?.numberValue.map { Int($0) })
        #expect(Int(row[8]) == n["alerts"]?["critical"]?.numberValue.map { Int($0) })
    }
}

@Test func weeksAreISOWeeksAndTheTrendIsTheSlopePerCalendarDay() throws {
    let day = { (d: String) in History.day(d)! }
    #expect(History.period(of: day("2026-11-22"), .week) == "2026-W47")  // a Sunday
    #expect(History.period(of: day("2026-11-23"), .week) == "2026-W48")  // the Monday after
    #expect(History.period(of: day("2027-01-01"), .week) == "2026-W53")  // 2026 began on a Thursday
    #expect(History.period(of: day("2024-12-30"), .week) == "2025-W01")
    #expect(History.period(of: day("2026-11-22"), .month) == "2026-11")
    #expect(History.day("2026-13-01") == nil && History.day("yesterday") == nil)

    // Snoring 10, 12, 16 minutes on the 16th, 17th and 19th: 2 minutes more each day.
    let rows = [("2026-11-16", 10.0, 3), ("2026-11-17", 12.0, 3), ("2026-11-19", 16.0, 3)].map { date, snoring, sounds in
        var r = NightRow(named: date)
        r.day = History.day(date)
        r.sessions = 1
        r.heardSeconds = 480 * 60
        r.snoringSeconds = snoring * 60
        r.disturbances = sounds
        return r
    }
    let h = History(rows: rows.reversed(), grouping: .week)
    #expect(h.nights.map(\.night) == ["2026-11-16", "2026-11-17", "2026-11-19"])
    let trend = try #require(h.periods.first?.trend)
    #expect(abs(trend.snoring - 2) < 1e-9 && trend.disturbances == 0)
    #expect(h.total.snoringMinutes == 38 && h.total.heardMinutes == 1440 && h.total.sessions == 3)
}

@Test func historyNamesWhatIsWrongAndListsAnUndatedRecordingByItsFile() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let missing = try somniq("history", dir + "/missing.jsonl")
    #expect(missing.status == 65)
    #expect(missing.stderr == "somniq: \(dir)/missing.jsonl: cannot open the log: No such file or directory\n")
    #expect(try somniq("history", dir + "/x.jsonl", "--week", "--month").status == 64)
    try "not a log\n".write(toFile: dir + "/empty.jsonl", atomically: true, encoding: .utf8)
    let empty = try somniq("history", dir + "/empty.jsonl")
    #expect(empty.status == 65 && empty.stderr == "somniq: \(dir)/empty.jsonl: no session in the log\n")

    let log = dir + "/undated.jsonl"
    #expect(try somniq("replay", Paths.demoNight, "--format", "jsonl", "--output", log).status == 0)
    let r = try somniq("history", log, "--week")
    #expect(r.stdout.contains("recordings without a start time  1 night\n"))
    #expect(r.stdout.contains("\ndemo-night.flac  3.0 min "))
    let csv = try somniq("history", log, "--csv").stdout
    #expect(csv.contains("\r\n\(Paths.demoNight),1,3,"))
}

/// `--output` renames a whole file into place, but never over a device or a link: a
/// report to /dev/stdout reaches standard output (and /dev/stdout stays what it was), a
/// report to a symbolic link replaces the file it points to and the link stays.
@Test func aReportWrittenToADeviceOrThroughALinkLeavesTheDeviceAndTheLink() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = dir + "/night.jsonl"
    #expect(try somniq("replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:10").status == 0)
    let table = try somniq("history", log)
    let device = try somniq("history", log, "--output", "/dev/stdout")
    #expect(device.status == 0 && device.stdout == table.stdout, "\(device.stderr)")
    #expect(try FileManager.default.attributesOfItem(atPath: "/dev/stdout")[.type] as? FileAttributeType == .typeSymbolicLink)

    try "an older report".write(toFile: dir + "/kept.txt", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: dir + "/latest.txt", withDestinationPath: "kept.txt")
    #expect(try somniq("report", log, "--format", "text", "--output", dir + "/latest.txt").status == 0)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/latest.txt") == "kept.txt")
    #expect(try String(contentsOfFile: dir + "/kept.txt", encoding: .utf8).hasPrefix("night 2026-11-22: 3.0 min heard"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["kept.txt", "latest.txt", "night.jsonl"])
}

/// Two nights of 95 s heard and 33.25 s snoring, 35 % each, are 35 % together: totals,
/// shares and means come from the seconds, not from the rounded minutes (1.2 of 3.2,
/// the 37 % the probe found).
@Test func aTotalAndItsShareComeFromTheSecondsNotFromRoundedMinutes() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func night(_ day: String) -> String {
        func level(_ start: Int, _ seconds: Int, _ clock: String) -> String {
            #"{"v":1,"kind":"level","start_s":\#(start),"seconds":\#(seconds),"time":"\#(day)T\#(clock)","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{"snoring":\#(seconds / 2)}}"#
        }
        return [
            #"{"v":1,"kind":"session_start","source":{"type":"alsa","device":"hw:0"},"profile":"balanced","profile_sha256":"x","start_time":"\#(day)T23:00:00"}"#,
            level(0, 60, "23:00:00"),
            #"{"v":1,"kind":"event_start","id":"s-\#(day)","class":"snoring","tier":"high","onset_s":10,"alert":false}"#,
            #"{"v":1,"kind":"event_end","id":"s-\#(day)","class":"snoring","onset_s":10,"offset_s":43.25,"peak_dbfs":-30,"confidence":0.9,"truncated":false}"#,
            level(60, 35, "23:01:00"),
            #"{"v":1,"kind":"session_end","stream_s":95}"#,
        ].joined(separator: "\n") + "\n"
    }
    let log = dir + "/events.jsonl"
    try (night("2026-11-20") + night("2026-11-21")).write(toFile: log, atomically: true, encoding: .utf8)
    let r = try somniq("history", log)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == """
        night            heard     snoring   share  disturbances  alerts  loudest minute
        2026-11-20       1.6 min   0.6 min   35 %   0             none    23:00  -40.0 dBFS
        2026-11-21       1.6 min   0.6 min   35 %   0             none    23:00  -40.0 dBFS
        total            3.2 min   1.1 min   35 %   0             none    2026-11-20 23:00  -40.0 dBFS
        a night          1.6 min   0.6 min          0.0           0.0
        snoring by night  ▁▁

        """, "\(r.stdout)")
    let json = try JSONValue(parsing: try somniq("history", log, "--json").stdout)
    #expect(json["total"]?["snoring_share"] == .number(0.35) && json["total"]?["heard_min"] == .number(3.2)
            && json["total"]?["snoring_min"] == .number(1.1))
}

/// `history --config` shows its times in the configuration's `time_zone`, as the daemon's
/// notifications do, whatever the machine's zone: a loudest minute logged at 22:00 UTC is
/// 03:30 in Kolkata, the next morning, and still the night of 2026-11-20.
@Test func historyShowsItsTimesInTheConfiguredZone() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = dir + "/events.jsonl"
    try """
    {"v":1,"kind":"session_start","source":{"type":"alsa","device":"hw:0"},"profile":"balanced","profile_sha256":"x","start_time":"2026-11-20T22:00:00.000Z"}
    {"v":1,"kind":"level","start_s":0,"seconds":60,"time":"2026-11-20T22:00:00.000Z","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{}}
    {"v":1,"kind":"session_end","stream_s":60}

    """.write(toFile: log, atomically: true, encoding: .utf8)
    let config = dir + "/config.json"
    try #"{"time_zone": "Asia/Kolkata"}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let utc = ["TZ": "UTC", "PATH": "/usr/bin:/bin"]
    let machine = try runProgram(Paths.somniq, ["history", log], environment: utc)
    let zoned = try runProgram(Paths.somniq, ["history", log, "--config", config], environment: utc)
    #expect(zoned.status == 0, "\(zoned.stderr)")
    let head = "night            heard     snoring   share  disturbances  alerts  loudest minute\n"
    #expect(machine.stdout == head + "2026-11-20       1.0 min   0.0 min   0 %    0             none    22:00  -40.0 dBFS\n", "\(machine.stdout)")
    #expect(zoned.stdout == head + "2026-11-20       1.0 min   0.0 min   0 %    0             none    03:30  -40.0 dBFS\n", "\(zoned.stdout)")
}
