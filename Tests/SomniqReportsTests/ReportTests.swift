import Foundation
import SomniqCore
@testable import SomniqSupport
import SomniqTestSupport
import Testing

/// The demo night replayed as if it began at 23:10 on 22 November, with its report.
private func demoNight(in dir: String, extraArguments: [String] = []) throws -> (log: String, html: String) {
    let log = dir + "/night.jsonl", html = dir + "/night.html"
    let r = try somniq("replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:10", "--report", html)
    #expect(r.status == 0, "\(r.stderr)")
    return (log, html)
}

/// Python's HTML parser: every element that is opened is closed, in order.
private func wellFormed(_ html: String) throws -> String {
    let script = """
    import sys, html.parser
    VOID = {"meta", "br", "img", "hr", "input", "link"}
    class P(html.parser.HTMLParser):
        def __init__(self): super().__init__(); self.stack = []; self.errors = []
        def handle_starttag(self, tag, attrs):
            if tag not in VOID: self.stack.append(tag)
        def handle_startendtag(self, tag, attrs): pass
        def handle_endtag(self, tag):
            if not self.stack or self.stack[-1] != tag: self.errors.append("unexpected </%s> at %s" % (tag, self.getpos()))
            else: self.stack.pop()
    p = P(); p.feed(open(sys.argv[1]).read()); p.close()
    print("; ".join(p.errors + (["unclosed " + " ".join(p.stack)] if p.stack else [])) or "ok")
    """
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try html.write(toFile: dir + "/r.html", atomically: true, encoding: .utf8)
    try script.write(toFile: dir + "/check.py", atomically: true, encoding: .utf8)
    return try runProgram("/usr/bin/python3", [dir + "/check.py", dir + "/r.html"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

@Test func theDemoNightsReportShowsItsEightSoundsAndItsSnoringMinutes() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (log, htmlPath) = try demoNight(in: dir)
    let html = try String(contentsOfFile: htmlPath, encoding: .utf8)
    #expect(try wellFormed(html) == "ok")
    // Self-contained: nothing to fetch, nothing to run.
    #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
    for section in ["timeline", "disturbances", "snoring", "classes", "alerts", "incidents"] {
        #expect(html.contains("<h2 id=\"\(section)\">"), "section \(section)")
    }
    // The eight sounds on the timeline, each on its class's lane, and the speech the learned
    // rule hears in the cough (logged, not alerted: speech's cooldown).
    #expect(html.components(separatedBy: "<rect class=\"event\"").count - 1 == 9)
    // Snoring minutes are the sum of the snoring events' durations in the log.
    let ends = records(log).filter { $0["kind"] == .string("event_end") && $0["class"] == .string("snoring") }
    let snoring = ends.reduce(0.0) { $0 + $1["offset_s"]!.numberValue! - $1["onset_s"]!.numberValue! }
    #expect(snoring > 60)
    #expect(html.contains(String(format: "<b>%.1f min</b>snoring", snoring / 60)), "\(snoring) s")
    // The same figure from the report of the log, as the daemon would have written it.
    let again = try somniq("report", log, "--night", "2026-11-22")
    #expect(again.status == 0 && again.stdout == html)
}

@Test func everyMinuteOfAudioHasALevelRecordAndItsClassSecondsAgreeWithTheEvents() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (log, _) = try demoNight(in: dir)
    let all = records(log)
    let levels = all.filter { $0["kind"] == .string("level") }
    // 3 minutes of audio: 3 records, covering it all, in order, with wall-clock times.
    #expect(levels.map { $0["start_s"]!.numberValue! } == [0, 60, 120])
    #expect(levels.map { $0["seconds"]!.numberValue! } == [60, 60, 60])
    #expect(levels.first?["time"]?.stringValue == WallClock.iso8601(Date(timeIntervalSince1970: WallClock.parse("2026-11-22T23:10")!)))
    for l in levels {
        let leq = l["leq_dbfs"]!.numberValue!, l10 = l["l10_dbfs"]!.numberValue!, l90 = l["l90_dbfs"]!.numberValue!
        #expect(l90 <= leq && leq <= l["lmax_dbfs"]!.numberValue! && l90 <= l10 && l["floor_dbfs"]!.numberValue! <= l90 + 3)
    }
    // Per class, the seconds the level records count are the seconds the events lasted.
    for c in ["snoring", "speech", "smoke_alarm"] {
        let counted = levels.compactMap { $0["active_s"]?[c]?.numberValue }.reduce(0, +)
        let lasted = all.filter { $0["kind"] == .string("event_end") && $0["class"] == .string(c) }
            .reduce(0.0) { $0 + $1["offset_s"]!.numberValue! - $1["onset_s"]!.numberValue! }
        #expect(abs(counted - lasted) < 0.2, "\(c): \(counted) counted, \(lasted) lasted")
    }
    // session_end tallies each class.
    let end = try #require(all.last)
    #expect(end["classes"]?["snoring"]?["events"] == .number(2))
    #expect(end["classes"]?["smoke_alarm"]?["alerts"] == .number(1))
}

@Test func aTornLastLineIsToleratedAndAnUnknownNightIsNamed() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (log, _) = try demoNight(in: dir)
    let whole = try somniq("report", log, "--format", "text")
    let torn = dir + "/torn.jsonl"
    try (String(contentsOfFile: log, encoding: .utf8) + #"{"v":1,"kind":"event_start","id":"r17"#).write(toFile: torn, atomically: true, encoding: .utf8)
    let r = try somniq("report", torn, "--format", "text")
    // Nothing before it is lost; that it was skipped is said, once.
    let said = "not in this report: 1 line skipped: not a record"
    #expect(r.status == 0 && r.stdout == whole.stdout.replacingOccurrences(of: "\nprofile ", with: "\n\(said)\n\nprofile "))
    #expect(r.stderr == "somniq: warning: \(torn): 1 line skipped: not a record\n")
    #expect(r.stdout.contains("9 events, 8 alerts") && r.stdout.contains("snoring"))
    let none = try somniq("report", log, "--night", "2026-11-30")
    #expect(none.status == 65)
    #expect(none.stderr == "somniq: \(log): no night 2026-11-30 (nights: 2026-11-22)\n")
}

@Test func namesFromOutsideAreEscapedInTheReport() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let odd = dir + "/<b>night&\"x\".flac"
    try FileManager.default.copyItem(atPath: Paths.demoNight, toPath: odd)
    let html = dir + "/r.html"
    #expect(try somniq("replay", odd, "--format", "tsv", "--report", html).status == 0)
    let text = try String(contentsOfFile: html, encoding: .utf8)
    #expect(!text.contains("<b>night") && text.contains("&lt;b&gt;night&amp;&quot;x&quot;.flac"))
    #expect(try wellFormed(text) == "ok")
}
