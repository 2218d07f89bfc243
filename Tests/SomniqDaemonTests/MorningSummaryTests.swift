import Foundation
import Logging
@testable import SomniqConfig
import SomniqCore
@testable import SomniqDaemon
import SomniqLog
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Synchronization
import Testing

/// The morning summary: last night in three lines, at `morning_summary.at` (07:30), to the
/// sinks that take it, through a real HTTP server (ntfy) and a real Mosquitto broker (Home
/// Assistant's "Last night" sensor); an exec sink only when it asks.
@Suite(.serialized) final class MorningSummaryTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// The demo night replayed from `start` (23:10 on 2026-11-22) into the daemon's log.
    func night(from start: String = "2026-11-22T23:10") throws -> String {
        let log = dir + "/events.jsonl"
        try? FileManager.default.removeItem(atPath: log)
        let r = try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", start])
        #expect(r.status == 0, "\(r.stderr)")
        return log
    }

    static let lines = [
        "Heard 23:10–23:13 (3.0 min).",
        "8 alerts (smoke alarm, 2 snoring, cough, baby cry, dog bark, speech, door); snoring 35 % of the night; 1 cough.",
        "Stood out: smoke alarm at 23:11.",
    ]

    /// What the journal said of the summary (the MQTT sink says when it connects, too).
    fileprivate func said(_ journal: JournalLines) -> [String] { journal.all.filter { $0.contains("morning summary") } }

    /// A configuration whose one sink is an exec program that takes the summary at `at`,
    /// recording each run into `out`.jsonl: the configuration, and that file.
    func optedInExec(log: String, at: String, out name: String) throws -> (json: String, out: String) {
        let out = dir + "/\(name).jsonl"
        let program = try writeRecorderScript(in: dir, out: out)
        return ("""
        {"room": "nursery", "log": "\(log)", "morning_summary": {"at": "\(at)"},
         "sinks": [{"type": "exec", "command": [\(String(reflecting: program))], "morning_summary": true}]}
        """, out)
    }

    fileprivate func daemon(_ json: String, wall: Wall, journal: JournalLines) throws -> SessionService {
        let config = try DaemonConfig.parse(json, file: "config.json")
        var options = SessionService.Options(config: config, configPath: nil)
        options.clocks = wall.clocks
        options.profileDirectory = dir
        return try SessionService(options: options, source: NoDevice(), controls: AsyncStream { $0.finish() }, logger: journal.logger)
    }

    @Test func atHalfPastSevenLastNightGoesToTheSinksThatTakeItOnce() async throws {
        let log = try night()
        let endpoints = try Endpoints(in: dir, name: "morning")
        defer { endpoints.stop() }
        let json = """
        {"room": "nursery", "log": "\(log)", "http": {"listen": "127.0.0.1:18999", "public_url": "https://somniq.home:8443"},
         "sinks": [
          {"type": "webhook", "url": "http://127.0.0.1:\(endpoints.httpPort)/", "format": "ntfy", "min_tier": "critical"},
          {"type": "mqtt", "host": "127.0.0.1", "port": \(endpoints.broker.port), "min_tier": "critical"},
          {"type": "exec", "command": [\(String(reflecting: endpoints.program))]}]}
        """
        let wall = Wall(), journal = JournalLines()
        wall.set("2026-11-23T07:00")
        let service = try daemon(json, wall: wall, journal: journal)

        // Not yet.
        wall.set("2026-11-23T07:29:59")
        await service.sendMorningSummaryIfDue()
        #expect(said(journal).isEmpty)

        // 07:30: the night of 2026-11-22, to the webhook and MQTT (the exec sink did not ask).
        wall.set("2026-11-23T07:30:05")
        await service.sendMorningSummaryIfDue()
        #expect(said(journal) == ["info: morning summary of the night of 2026-11-22 sent to 2 sinks: 8 alerts, snoring 35 %, 1 cough"])
        let hook = try JSONValue(parsing: try endpoints.web.first { $0.contains("last night") }.line)
        #expect(hook["headers"]?["Title"]?.stringValue == "somniq nursery: last night")
        #expect(hook["headers"]?["Priority"]?.stringValue == "3")
        #expect(hook["headers"]?["Tags"]?.stringValue == "sunrise,morning_summary,nursery")
        #expect(hook["headers"]?["Click"]?.stringValue == "https://somniq.home:8443/night/2026-11-22")
        #expect(hook["body"]?.stringValue == (Self.lines + ["https://somniq.home:8443/night/2026-11-22"]).joined(separator: "\n"))

        // Home Assistant's "Last night" sensor: its discovery, and its retained state.
        try endpoints.subscriber.first { $0.hasPrefix("somniq/nursery/summary ") }
        let retained = try endpoints.broker.retained("#")
        let sensor = try JSONValue(parsing: try #require(retained["homeassistant/sensor/somniq_nursery/summary/config"]))
        #expect(sensor["state_topic"]?.stringValue == "somniq/nursery/summary")
        #expect(sensor["value_template"]?.stringValue == "{{ value_json.headline }}")
        #expect(sensor["json_attributes_topic"]?.stringValue == "somniq/nursery/summary")
        let state = try JSONValue(parsing: try #require(retained["somniq/nursery/summary"]))
        #expect(state["kind"]?.stringValue == "morning_summary" && state["night"]?.stringValue == "2026-11-22")
        #expect(state["headline"]?.stringValue == "8 alerts, snoring 35 %, 1 cough")
        #expect(state["text"]?.stringValue == Self.lines.joined(separator: "\n"))
        #expect(state["alerts"] == .number(8) && state["coughs"] == .number(1))
        #expect(state["stood_out"]?["class"] == .string("smoke_alarm") && state["stood_out"]?["id"]?.stringValue?.hasSuffix("-e8") == true)
        // What stood out is timed as its record in the log times it, to the millisecond.
        let alarm = try #require(records(log).first { $0["kind"] == .string("event_start") && $0["class"] == .string("smoke_alarm") })
        #expect(state["stood_out"]?["time"] == alarm["onset_time"], "\(state.compactText)")
        #expect(state["link"]?.stringValue == "https://somniq.home:8443/night/2026-11-22")

        // The log keeps what was sent, a record as the schema says; the night's page shows it.
        let kept = try #require(records(log).last)
        #expect(kept == state, "\(kept.compactText)")
        try EventLogSchemaTests.expectValid(log)
        let page = try somniq("report", log, "--night", "2026-11-22").stdout
        #expect(page.contains("<p class=\"summary\" id=\"morning-summary\"><b>The morning summary</b> (sent 2026-11-23 at 07:30):<br>"
                              + Self.lines.joined(separator: "<br>") + "</p>"), "\(page)")
        // The served page (the log's index) has it too.
        let index = LogIndex(log: log, indexPath: nil)
        #expect(try index.refresh())
        #expect(try index.night("2026-11-22")?.morningSummary?.text == Self.lines.joined(separator: "\n"))

        // Once a day.
        wall.set("2026-11-23T07:45")
        await service.sendMorningSummaryIfDue()
        #expect(said(journal).count == 1)
        #expect(endpoints.web.lines.filter { $0.line.contains("last night") }.count == 1)
        #expect(records(endpoints.execOut).isEmpty, "an exec sink takes it only with \"morning_summary\": true")
    }

    @Test func aSlotMissedIsNotMadeUpAndAnOptedInExecSinkGetsIt() async throws {
        let log = try night()
        let (json, out) = try optedInExec(log: log, at: "08:15", out: "exec")
        // Started after the slot: nothing that morning.
        let wall = Wall(), journal = JournalLines()
        wall.set("2026-11-23T08:20")
        let late = try daemon(json, wall: wall, journal: journal)
        await late.sendMorningSummaryIfDue()
        #expect(journal.all.isEmpty)

        // Listening at 08:15: the exec program gets it, the record on stdin.
        wall.set("2026-11-23T08:00")
        let service = try daemon(json, wall: wall, journal: journal)
        wall.set("2026-11-23T08:15:01")
        await service.sendMorningSummaryIfDue()
        try waitUntil(timeout: 10) { !records(out).isEmpty }
        let run = try #require(records(out).first)
        #expect(run["env"]?["SOMNIQ_KIND"]?.stringValue == "morning_summary")
        #expect(run["env"]?["SOMNIQ_MESSAGE"]?.stringValue == Self.lines.joined(separator: "\n"))
        let stdin = try JSONValue(parsing: try #require(run["stdin"]?.stringValue))
        #expect(stdin["night"]?.stringValue == "2026-11-22" && stdin["link"] == nil)

        // A night the log does not hold: said, nothing sent.
        wall.set("2026-11-25T08:15:01")
        await service.sendMorningSummaryIfDue()
        #expect(said(journal).last?.hasPrefix("notice: no morning summary: \(log): no night 2026-11-24") == true, "\(journal.all)")
    }

    /// Asked every minute for three days (sending when due), the schedule that skips the slot's
    /// lookup where none can be due answers as the lookup does each time: due at each 07:30,
    /// for an hour, until it has sent.
    @Test func theScheduleAnswersAsTheSlotsLookupDoes() {
        let at = HomeConfig.TimeOfDay(hour: 7, minute: 30)
        let start = WallClock.parse("2026-11-22T08:00")!
        var schedule = MorningSchedule(at: at, last: start)
        var sent: [Double] = []
        for now in stride(from: start, to: start + 3 * 86_400, by: 60) {
            let slot = DailyLearning.lastSlot(at, atOrBefore: now)
            let lookedUp = slot > schedule.last && now - slot < 3600 ? slot : nil
            let due = schedule.due(now: now)
            if due != lookedUp { Issue.record("at \(now): \(String(describing: due)), the lookup \(String(describing: lookedUp))") }
            // Sent 5 minutes late the first morning: due until then.
            if let due, sent.count > 0 || now >= due + 300 {
                schedule.last = now
                sent.append(due)
            }
        }
        #expect(sent == ["2026-11-23T07:30", "2026-11-24T07:30", "2026-11-25T07:30"].map { WallClock.parse($0)! })
    }

    /// A slot sums up the night that began the evening before its day, whenever it is set and
    /// however long past midnight the night went on.
    @Test func theSummaryIsOfTheNightBeforeTheSlotsDay() async throws {
        for at in ["07:30", "13:00", "00:30"] {
            #expect(MorningSchedule.night(before: WallClock.parse("2026-11-23T\(at)")!) == "2026-11-22", "\(at)")
        }
        // A night heard from 23:59 to 00:02, summed up at 13:00: that night, by its evening.
        let log = try night(from: "2026-11-22T23:59")
        let (json, out) = try optedInExec(log: log, at: "13:00", out: "noon")
        let wall = Wall(), journal = JournalLines()
        wall.set("2026-11-23T08:00")
        let service = try daemon(json, wall: wall, journal: journal)
        // Started at 08:00, after no slot of its own: nothing at once.
        await service.sendMorningSummaryIfDue()
        #expect(journal.all.isEmpty)
        wall.set("2026-11-23T13:00:01")
        await service.sendMorningSummaryIfDue()
        #expect(said(journal) == ["info: morning summary of the night of 2026-11-22 sent to 1 sink: 8 alerts, snoring 35 %, 1 cough"], "\(journal.all)")
        try waitUntil(timeout: 10) { !records(out).isEmpty }
        #expect(records(out).first?["env"]?["SOMNIQ_MESSAGE"]?.stringValue?.hasPrefix("Heard 23:59–00:02 (3.0 min).\n") == true, "\(records(out))")
    }

    /// Off, it is no sink's: MQTT announces no "Last night" sensor that nothing would fill.
    @Test func offThereIsNoLastNightSensor() throws {
        let endpoints = try Endpoints(in: dir, name: "off")
        defer { endpoints.stop() }
        let json = """
        {"room": "nursery", "log": "\(dir)/off.jsonl", "morning_summary": {"enabled": false},
         "sinks": [{"type": "mqtt", "host": "127.0.0.1", "port": \(endpoints.broker.port)}]}
        """
        let service = try daemon(json, wall: Wall(), journal: JournalLines())
        defer { _ = service }
        let smoke = "homeassistant/binary_sensor/somniq_nursery/smoke_alarm/config"
        try waitUntil(timeout: 10) { (try? endpoints.broker.retained("#"))?[smoke] != nil }
        let retained = try endpoints.broker.retained("#")
        #expect(retained["homeassistant/sensor/somniq_nursery/last_event/config"] != nil)
        #expect(retained["homeassistant/sensor/somniq_nursery/summary/config"] == nil, "\(retained.keys.sorted())")
        #expect(try DaemonConfig.parse(json, file: "c.json").sinksInForce.map(\.morningSummary) == [false])
    }

    @Test func theConfigurationNamesAWrongTime() {
        #expect(throws: ConfigError(file: "c.json", keyPath: "morning_summary.at",
                                    problem: "\"7:30\" is not a time of day like 07:30 (00:00 to 23:59, local time)")) {
            try DaemonConfig.parse(#"{"morning_summary": {"at": "7:30"}}"#, file: "c.json")
        }
        #expect(throws: ConfigError.self) { try DaemonConfig.parse(#"{"morning_summary": {"when": "07:30"}}"#, file: "c.json") }
        let sinks = try? DaemonConfig.parse(#"{"sinks": [{"type": "exec", "command": ["/bin/true"]}, {"type": "webhook", "url": "http://x/"}]}"#, file: "c.json").sinks
        #expect(sinks?.map(\.morningSummary) == [false, true])
    }
}
