import Foundation
@testable import SomniqReports
import SomniqTestSupport
import Testing
import SomniqCore
import SomniqLog

/// schemas/event-log.schema.json describes every line somniq writes to its event log.
/// Real logs of the real pipeline (a replay of the demo night, with and without wall-clock
/// times, and the daemon's logs in LiveTests) validate against it, and read back through
/// `LogRecord` they are written again byte for byte.
struct EventLogSchemaTests {
    static let schema = Paths.package + "/schemas/event-log.schema.json"

    /// Each line of `log` validates against the schema, and is what `LogRecord` writes of
    /// what it reads from it.
    static func expectValid(_ log: String) throws {
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(!lines.isEmpty)
        for (line, verdict) in zip(lines, try validate(lines, against: schema)) {
            #expect(verdict == nil, "\(verdict ?? ""): \(line.prefix(300))")
        }
        for line in lines {
            guard case let .success(record)? = LogRecord.parse(line) else {
                Issue.record("LogRecord does not read \(line.prefix(300))")
                continue
            }
            #expect(record.line == line)
        }
    }

    @Test func aReplayOfTheDemoNightIsValidAndReadsBackByteForByte() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, extra) in [("plain", [String]()), ("timed", ["--start", "2026-11-22T23:10"])] {
            let r = try somniq(["replay", Paths.package + "/fixtures/demo-night.flac", "--format", "jsonl"] + extra)
            try #require(r.status == 0, "\(r.stderr)")
            let log = dir + "/\(name).jsonl"
            try r.stdout.write(toFile: log, atomically: true, encoding: .utf8)
            let kinds = Set(records(log).compactMap { $0["kind"]?.stringValue })
            #expect(kinds == ["session_start", "event_start", "event_end", "level", "session_end"])
            try Self.expectValid(log)
        }
    }

    @Test func episodesAsWrittenAreValid() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/episodes.jsonl"
        let add = try somniq("episode", "add", "--log", log, "--night", "2026-11-22", "--severity", "moderate",
                             "--symptom", "gasping", "--tag", "alcohol", "--note", "woke up twice", "--at", "03:12", "--duration", "5")
        try #require(add.status == 0, "\(add.stderr)")
        let id = try #require(records(log).first?["id"]?.stringValue)
        let remove = try somniq("episode", "remove", id, "--log", log)
        try #require(remove.status == 0, "\(remove.stderr)")
        #expect(records(log).map { $0["kind"]?.stringValue } == ["episode", "episode_removed"])
        try Self.expectValid(log)
    }

    @Test func labelsAsWrittenAreValid() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/labels.jsonl"
        let replay = try somniq(["replay", Paths.package + "/fixtures/demo-night.flac", "--format", "jsonl", "--output", log,
                                 "--start", "2026-11-22T23:10"])
        try #require(replay.status == 0, "\(replay.stderr)")
        for verdict in ["not", "right", "cough", "other", "none"] {
            let r = try somniq("label", "r1795389000-e2", "--as", verdict, "--log", log)
            try #require(r.status == 0, "\(r.stderr)")
        }
        #expect(records(log).filter { $0["kind"] == .string("label") }.count == 5)
        try Self.expectValid(log)
    }

    /// An event the home's memory held back as what it heard at a plain "not this" mark
    /// (`"heard": true`, `LogRecord.Home.heard`) is a line the schema takes, and so is one held
    /// back with what was said of the marked sound (`"said"`, a class it knows).
    @Test func aHomeMemorysHeardMarkAndWhatWasSaidAreValid() throws {
        let r = try somniq(["replay", Paths.package + "/fixtures/demo-night.flac", "--format", "jsonl"])
        try #require(r.status == 0, "\(r.stderr)")
        let start = try #require(r.stdout.split(separator: "\n").first { $0.contains("\"event_start\"") })
        var object = try #require(try JSONSerialization.jsonObject(with: Data(start.utf8)) as? [String: Any])
        var trace = try #require(object["trace"] as? [String: Any])
        trace["home"] = ["like": "r1795389000-e2", "label": "snoring", "distance": 0.3, "heard": true] as [String: Any]
        object["trace"] = trace
        let line = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(try validate([line], against: Self.schema) == [nil])
        // A critical class its own rule did not hear, alerted at the tier heard (`LogRecord.Home.unheard`).
        trace["home"] = ["like": "r1795389000-e2", "label": "gasp", "from": "e1", "distance": 0.3, "unheard": true] as [String: Any]
        object["trace"] = trace
        let unheard = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(try validate([unheard], against: Self.schema) == [nil])
        trace["home"] = ["like": "r1795389000-e2", "label": "snoring", "distance": 0.3, "heard": false] as [String: Any]
        object["trace"] = trace
        let wrong = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(try validate([wrong], against: Self.schema) != [nil])
        // Held back too far from a sound said to be snoring to be logged as it (`LogRecord.Home.said`).
        trace["home"] = ["like": "r1795389000-e2", "label": "not", "said": "snoring", "distance": 1.4] as [String: Any]
        object["trace"] = trace
        let said = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        trace["home"] = ["like": "r1795389000-e2", "label": "not", "said": "kettle", "distance": 1.4] as [String: Any]
        object["trace"] = trace
        let unknown = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let verdicts = try validate([said, unknown], against: Self.schema)
        #expect(verdicts.first == .some(nil) && verdicts.last != .some(nil), "\(verdicts)")
    }

    /// The names the schema lists are the code's.
    @Test func theSchemaListsTheCodesNames() throws {
        let schema = try JSONValue(parsing: String(contentsOfFile: Self.schema, encoding: .utf8))
        func strings(_ v: JSONValue?) -> [String] {
            guard case let .array(items)? = v else { return [] }
            return items.compactMap(\.stringValue)
        }
        let defs = schema["$defs"]
        #expect(strings(defs?["class"]?["enum"]) == SoundClass.allCases.map(\.rawValue))
        #expect(strings(defs?["tier"]?["enum"]) == Tier.allCases.map(\.rawValue))
        #expect(strings(defs?["statusName"]?["enum"]) == LogStatus.allCases.map(\.rawValue))
        #expect(strings(defs?["endReason"]?["enum"]) == LogRecord.EndReason.allCases.map(\.rawValue))
        #expect(strings(defs?["episode"]?["properties"]?["symptoms"]?["items"]?["enum"]) == Episode.Symptom.allCases.map(\.rawValue))
        // A trace's home label: a mark's kind, or the class the marked sound was said to be.
        let homeLabel = defs?["event_start"]?["properties"]?["trace"]?["properties"]?["home"]?["properties"]?["label"]?["anyOf"]
        guard case let .array(label)? = homeLabel, label.count == 2 else { Issue.record("the home label: \(String(describing: homeLabel))"); return }
        #expect(strings(label[0]["enum"]) == HomeMemory.Kind.allCases.map(\.rawValue))
        #expect(label[1]["$ref"] == .string("#/$defs/class"))
        for kind in LogRecord.Kind.allCases { #expect(defs?[kind.rawValue]?["properties"]?["kind"]?["const"] == .string(kind.rawValue)) }
    }
}
