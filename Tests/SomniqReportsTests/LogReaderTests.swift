import Foundation
import SomniqCore
import SomniqLog
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Testing

/// What the reports make of a hostile or damaged event log (issue 26, faults 4, 5 and 6):
/// a number out of its range, a line of megabytes, a clip that was never written.

/// The demo night replayed as if it began at 23:10 on 22 November, as JSON Lines.
private func demoLog(in dir: String) throws -> String {
    let log = dir + "/night.jsonl"
    let r = try somniq("replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:10")
    #expect(r.status == 0, "\(r.stderr)")
    return log
}

/// The log's lines, the `n`th (from 0) record of `kind` changed by `change`, written to `path`.
private func rewrite(_ log: String, to path: String, _ changes: [(kind: String, n: Int, change: (String) -> String)]) throws {
    var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
    for c in changes {
        let matching = lines.indices.filter { lines[$0].contains("\"kind\":\"\(c.kind)\"") }
        let i = matching[c.n]
        let changed = c.change(lines[i])
        #expect(changed != lines[i], "\(c.kind) #\(c.n) unchanged")
        lines[i] = changed
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
}

/// A JSON number member's value replaced: `"l90_dbfs":-45.8` → `"l90_dbfs":1e19`.
private func set(_ key: String, _ value: String) -> (String) -> String {
    { line in
        guard let r = line.range(of: "\"\(key)\":") else { return line }
        let end = line[r.upperBound...].firstIndex { $0 == "," || $0 == "}" } ?? line.endIndex
        return line.replacingCharacters(in: r.upperBound..<end, with: value)
    }
}

struct Bounded {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Killed at the time limit.
    var timedOut: Bool
    /// The most memory it held (kilobytes, resident).
    var maxRSS: Int
}

/// Runs somniq with a time limit (killed after `seconds`) and an address-space limit of
/// 2 GiB (so that a runaway allocation fails at once instead of taking the machine), and
/// measures its peak resident memory. Python runs it: a child spawned from the test
/// process would start with the test process's memory as its peak.
private func bounded(_ arguments: [String], seconds: Double = 30) throws -> Bounded {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let script = """
    import json, resource, subprocess, sys
    def limit(): resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    with open(sys.argv[1], "wb") as out, open(sys.argv[2], "wb") as err:
        try:
            status, timed_out = subprocess.run(sys.argv[4:], stdout=out, stderr=err, timeout=float(sys.argv[3]), preexec_fn=limit).returncode, False
        except subprocess.TimeoutExpired:
            status, timed_out = -9, True
    print(json.dumps({"status": status, "timed_out": timed_out, "maxrss": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
    """
    let r = try runProgram("/usr/bin/python3", ["-c", script, dir + "/out", dir + "/err", "\(seconds)", Paths.somniq] + arguments)
    let result = try JSONValue(parsing: r.stdout)
    return Bounded(status: Int32(result["status"]?.numberValue ?? -1),
                   stdout: (try? String(contentsOfFile: dir + "/out", encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOfFile: dir + "/err", encoding: .utf8)) ?? "",
                   timedOut: result["timed_out"] == .bool(true), maxRSS: Int(result["maxrss"]?.numberValue ?? 0))
}

private func occurrences(_ s: String, in text: String) -> Int { text.components(separatedBy: s).count - 1 }

// MARK: fault 4

@Test func aNumberOutOfItsRangeSkipsItsRecordAndTheReportsSayHowManyOnce() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = try demoLog(in: dir)
    let clean = try bounded(["report", log])
    #expect(clean.status == 0 && !clean.timedOut && !clean.stdout.contains("skipped"))
    // The issue's values: each one ran a report out of memory, or wrote 127 MB of HTML.
    let bad = dir + "/bad.jsonl"
    try rewrite(log, to: bad, [("level", 0, set("l90_dbfs", "1e19")), ("level", 1, set("lmax_dbfs", "1e308")),
                               ("event_end", 3, set("peak_dbfs", "1e7")), ("event_start", 0, set("onset_s", "9.2e18")),
                               ("event_end", 1, set("offset_s", "-9.2e18")), ("event_end", 2, set("confidence", "7")),
                               ("session_end", 0, set("stream_s", "1e300"))])
    let said = "7 records skipped: a number out of range"
    let html = try bounded(["report", bad])
    #expect(html.status == 0 && !html.timedOut, "\(html.stderr)")
    #expect(html.stdout.utf8.count < 2 * clean.stdout.utf8.count, "\(html.stdout.utf8.count) bytes of HTML")
    #expect(occurrences(said, in: html.stdout) == 1)
    #expect(html.stderr == "somniq: warning: \(bad): \(said)\n")
    let text = try bounded(["report", bad, "--format", "text"])
    #expect(text.status == 0 && !text.timedOut && occurrences(said, in: text.stdout) == 1, "\(text.stdout)")
    let history = try bounded(["history", bad])
    #expect(history.status == 0 && !history.timedOut && occurrences(said, in: history.stdout) == 1, "\(history.stdout)")
    #expect(history.stderr == "somniq: warning: \(bad): \(said)\n")
    let json = try bounded(["history", bad, "--json"])
    let skipped = try JSONValue(parsing: json.stdout)["skipped"]
    #expect(skipped?["out_of_range_records"]?.numberValue == 7 && skipped?["unreadable_lines"]?.numberValue == 0)

    // What is left is what the log says in range: the event whose start was skipped is
    // gone, those whose end was skipped are cut off where the session was last heard
    // (its third minute: its end was skipped too), the third minute is the only one.
    let night = try NightReports.night(in: bad, key: nil)
    #expect(night.skipped == LogSkips(outOfRange: 7))
    #expect(night.events.count == 8 && night.events.filter(\.truncated).count == 3)
    #expect(night.minutes.count == 1 && night.minutes[0].l90 > -60 && night.span == 180)
}

/// A session's start time is text, not a number: a year past the calendar (a damaged log)
/// is no time, and the night is read as a recording's, not a trap in the calendar code.
@Test func aStartTimeWhoseYearIsPastTheCalendarMakesNoCrash() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = try demoLog(in: dir)
    let bad = dir + "/bad.jsonl"
    try rewrite(log, to: bad, [("session_start", 0, { $0.replacingOccurrences(of: "\"start_time\":\"2026", with: "\"start_time\":\"99999999999") })])
    for command in [["report", bad], ["history", bad]] {
        let r = try bounded(command)
        #expect(r.status == 0 && !r.timedOut, "\(command): \(r.status) \(r.stderr)")
    }
    #expect(WallClock.parse("99999999999-01-01T00:00:00Z") == nil && WallClock.parse("9999-12-31T23:59:59Z") != nil)
}

/// A directory given as the log is named as one, not read as an empty log.
@Test func aDirectoryGivenAsTheLogIsSaidToBeOne() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for command in ["report", "history"] {
        let r = try somniq(command, dir)
        #expect(r.status == 65 && r.stderr == "somniq: \(dir): is a directory; give the event log (a .jsonl file)\n", "\(command): \(r.stderr)")
    }
}

/// A FIFO put in the log's place is refused at once by every reader of the log, never
/// waited on (the probe's: the web page's thread blocked in open(2) for good, every page
/// timed out even after the log was put back, and SIGTERM was ignored). The index that
/// waited keeps up again once the log is back; an index file that is a FIFO is not read.
@Test func aFIFOInPlaceOfTheLogIsRefusedAtOnceByEveryReader() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let real = try demoLog(in: dir)
    let log = dir + "/events.jsonl"
    #expect(mkfifo(log, 0o600) == 0)
    let refused = "\(log): is not a regular file (a device, a FIFO or a socket); give the event log (a .jsonl file)"
    func said(_ read: () throws -> Void) -> String {
        do { try read(); return "read" } catch { return "\(error)" }
    }
    let index = LogIndex(log: log, indexPath: LogIndex.besideLog(log))
    withoutWaiting(on: log) {
        #expect(said { _ = try LogReader(path: log) } == refused)
        #expect(said { _ = try NightReports.night(in: log, key: nil) } == refused)
        #expect(said { _ = try History.read(logs: [log], grouping: .all) } == refused)
        #expect(said { try index.refresh() } == refused)
    }
    // Through the binary, with a time limit: a clear error, no hang.
    for command in ["report", "history"] {
        let r = try runProgram("/usr/bin/timeout", ["30", Paths.somniq, command, log])
        #expect(r.status == 65 && r.stderr == "somniq: \(refused)\n", "\(command): \(r.status) \(r.stderr)")
    }
    // The log put back: the same index reads it.
    #expect(rename(real, log) == 0)
    #expect(try index.refresh())
    #expect(index.keys == ["2026-11-22"])

    // The index's file a FIFO: not read (the log is), and replaced by a file when written.
    let other = dir + "/other.jsonl"
    _ = try somniq("replay", Paths.demoNight, "--format", "jsonl", "--output", other, "--start", "2026-11-22T23:10")
    #expect(mkfifo(LogIndex.besideLog(other), 0o600) == 0)
    try withoutWaiting(on: LogIndex.besideLog(other)) { () throws in
        let beside = LogIndex(log: other, indexPath: LogIndex.besideLog(other))
        #expect(try beside.refresh())
        #expect(beside.keys == ["2026-11-22"])
    }
}

// MARK: fault 5

@Test func aSixteenMegabyteLineAndMegabytesOfNulBytesAreSkippedInBoundedMemoryAndSaidOnce() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = try demoLog(in: dir)
    let clean = try bounded(["report", log, "--format", "text"])
    #expect(clean.status == 0)
    // The demo night with, after its first record, a 16 MB line, a line that is not a
    // record, and at its end 8 MB of NUL bytes and no newline, as a power cut leaves.
    var lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { Array($0.utf8) }
    lines.insert(Array(repeating: UInt8(ascii: "x"), count: 16 << 20), at: 1)
    lines.insert(Array("{\"kind\": not json".utf8), at: 3)
    var bytes = Array(lines.joined(separator: [0x0A]))
    bytes += [0x0A] + Array(repeating: 0, count: 8 << 20)
    let damaged = dir + "/damaged.jsonl"
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))

    let said = "1 line skipped: not a record; 2 lines skipped: longer than 1 MiB"
    let r = try bounded(["report", damaged, "--format", "text"])
    #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
    #expect(r.stdout == clean.stdout.replacingOccurrences(of: "\nprofile ", with: "\nnot in this report: \(said)\n\nprofile "))
    #expect(r.stderr == "somniq: warning: \(damaged): \(said)\n")
    // Linear and bounded: the report holds no whole line over the cap. Reading a 16 MB
    // line whole (as text, then as JSON) takes tens of megabytes over the clean log's.
    #expect(r.maxRSS < clean.maxRSS + 8 * 1024, "\(r.maxRSS) kB, \(clean.maxRSS) kB for the clean log")
    let history = try bounded(["history", damaged])
    #expect(history.status == 0 && occurrences(said, in: history.stdout) == 1 && history.stderr == "somniq: warning: \(damaged): \(said)\n")

    // The reader itself: every record of the clean log, each skipped line counted once,
    // never more than the cap and a chunk held.
    let reader = try LogReader(path: damaged)
    var count = 0
    while reader.next() != nil { count += 1 }
    #expect(count == records(log).count)
    #expect(reader.unreadable == 1 && reader.overlong == 2)
    #expect(reader.peakBuffer <= LogReader.maxLine + 2 * LogReader.chunk, "\(reader.peakBuffer) bytes held")
}

@Test func aLineJustUnderTheCapIsReadAndOneJustOverItIsSkipped() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    func record(padding: Int) -> String {
        let head = #"{"kind":"status","status":"overrun","error":""#, tail = #""}"#
        return head + String(repeating: "a", count: padding - head.utf8.count - tail.utf8.count) + tail
    }
    let path = dir + "/edge.jsonl"
    let text = record(padding: LogReader.maxLine) + "\n" + record(padding: LogReader.maxLine + 1) + "\n" + record(padding: 100)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let reader = try LogReader(path: path)
    var lengths: [Int] = []
    while let r = reader.next() {
        guard case let .success(.status(s)) = r else { lengths.append(-1); continue }
        lengths.append(s.error?.utf8.count ?? -1)
    }
    #expect(lengths.count == 2 && reader.unreadable == 0 && reader.lineNumber == 3)
    #expect(reader.overlong == 1)
}

// MARK: fault 6 (the report's side)

@Test func aClipThatWasNeverWrittenIsNotKeptNotDeleted() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = try demoLog(in: dir)
    let text = try String(contentsOfFile: log, encoding: .utf8)
    let ends = text.split(separator: "\n").filter { $0.contains(#""kind":"event_end""#) }
    let ids = ends.compactMap { try? JSONValue(parsing: String($0))["id"]?.stringValue }
    #expect(ids.count == 9)
    // Three events of a full disk: one as an old log has it (event_end names the clip),
    // one as it is now (no clip), one whose clip failed for another reason; a fourth kept
    // its clip, since deleted by the quota.
    var lines = text.split(separator: "\n").map(String.init)
    for (k, i) in lines.indices.filter({ lines[$0].contains(#""kind":"event_end""#) }).prefix(4).enumerated() {
        if k != 1 { lines[i] = String(lines[i].dropLast()) + #","clip":"\#(dir)/clip-\#(k).wav"}"# }
    }
    let end = lines.firstIndex { $0.contains(#""kind":"session_end""#) }!
    func skipped(_ id: String, _ error: String) -> String {
        #"{"v":1,"kind":"status","status":"clip_skipped","id":"\#(id)","path":"\#(dir)/clip.wav","error":"\#(error)"}"#
    }
    lines.insert(contentsOf: [skipped(ids[0], "write: No space left on device (ENOSPC)"), skipped(ids[1], "No space left on device"),
                              skipped(ids[2], "open: Permission denied <b>")], at: end)
    let withClips = dir + "/clips.jsonl"
    try (lines.joined(separator: "\n") + "\n").write(toFile: withClips, atomically: true, encoding: .utf8)

    let night = try NightReports.night(in: withClips, key: nil)
    let byId = Dictionary(uniqueKeysWithValues: night.events.map { ($0.id, $0) })
    #expect(byId[ids[0]]?.clipNotKept != nil && byId[ids[1]]?.clipNotKept != nil && byId[ids[2]]?.clipNotKept != nil)
    #expect(byId[ids[3]]?.clipNotKept == nil && byId[ids[3]]?.clip == "\(dir)/clip-3.wav")

    let html = try somniq("report", withClips).stdout
    #expect(occurrences("<span class=\"gone\">not kept: no space left</span>", in: html) == 2)
    #expect(occurrences("<span class=\"gone\">not kept: open: Permission denied &lt;b&gt;</span>", in: html) == 1)
    #expect(occurrences("<span class=\"gone\">deleted</span>", in: html) == 1)
    let report = try somniq("report", withClips, "--format", "text").stdout
    #expect(occurrences(", clip not kept: no space left", in: report) == 2, "\(report)")
    #expect(TextReport.notKept("") == "not kept" && TextReport.notKept("a\nb") == "not kept: a")
}

// MARK: history --csv

@Test func historyCSVNeutralisesTextThatASpreadsheetWouldRunAndLeavesNumbersAlone() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // Recordings replayed by a relative name: a night without a start time is named by it.
    let names = ["=HYPERLINK(\"http:x\";\"y\").flac", "+1.flac", "-12.5", "@SUM(A1).flac", "\tx.flac", "plain.flac"]
    var logs: [String] = []
    for name in names {
        try FileManager.default.copyItem(atPath: Paths.demoNight, toPath: dir + "/" + name)
        let log = dir + "/\(logs.count).jsonl"
        let r = try runProgram(Paths.somniq, ["replay", "--format", "jsonl", "--output", log, "--", name], directory: dir)
        #expect(r.status == 0, "\(r.stderr)")
        logs.append(log)
    }
    let csv = try somniq(["history", "--csv"] + logs).stdout
    let rows = Set(csv.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty })
    // The cell of each name as written; the tab is escaped (\t) by the CSV writer as before.
    let cells = ["'=HYPERLINK(\"\"http:x\"\";\"\"y\"\").flac", "'+1.flac", "'-12.5", "'@SUM(A1).flac", "'\\tx.flac", "plain.flac"]
    for cell in cells {
        let quoted = cell.contains("\"") ? "\"" + cell + "\"" : cell
        #expect(rows.contains { $0.hasPrefix(quoted + ",1,3,") }, "\(cell) in \(rows)")
    }
    // Number cells stay numbers: the loudest minute's level is negative and unquoted.
    for row in rows { #expect(row.hasSuffix(",recording 1:00,-32.9"), "\(row)") }
    #expect(History.csvText("\rx") == "'\rx" && History.csvText("2026-11-22") == "2026-11-22" && History.csvText("") == "")
}
