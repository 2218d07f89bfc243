import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

@Test func demoNightFindsSnoringCoughSpeechAndSmokeAlarm() async throws {
    let found = Set(try await detections(Paths.demoNight).map(\.soundClass))
    for c in [SoundClass.snoring, .cough, .speech, .smokeAlarm] {
        #expect(found.contains(c), "\(c.rawValue) not found in the demo night")
    }
}

@Test func demoNightSmokeAlarmIsFoundWithinFourSeconds() async throws {
    // The label says 118.000; an alarm must never be missed, nor be late.
    let alarms = try await detections(Paths.demoNight).filter { $0.soundClass == .smokeAlarm }
    #expect(alarms.count == 1)
    #expect(alarms.allSatisfy { abs($0.onset - 118.0) <= 4 })
}

@Test func twoReplaysGiveByteIdenticalOutput() throws {
    let dir = temporaryDirectory()
    for format in ["jsonl", "tsv", "table"] {
        let a = try somniq("replay", "--format", format, Paths.demoNight)
        let b = try somniq("replay", "--format", format, Paths.demoNight)
        #expect(a.status == 0 && b.status == 0)
        #expect(!a.stdout.isEmpty && a.stdout == b.stdout, "\(format) output differs between runs")
    }
    _ = try somniq("replay", "--format", "jsonl", "--output", dir + "/a.jsonl", Paths.demoNight)
    _ = try somniq("replay", "--format", "jsonl", "--output", dir + "/b.jsonl", Paths.demoNight)
    #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.jsonl")) == Data(contentsOf: URL(fileURLWithPath: dir + "/b.jsonl")))
}

@Test func jsonlLogHasSessionEventsAndTraces() throws {
    let r = try somniq("replay", "--format", "jsonl", Paths.demoNight)
    let lines = r.stdout.split(separator: "\n").map { try! JSONValue(parsing: String($0)) }
    #expect(lines.first?["kind"] == .string("session_start"))
    #expect(lines.first?["profile"] == .string("balanced"))
    #expect(lines.first?["profile_sha256"] == .string(Profile.balanced.sha256))
    #expect(lines.last?["kind"] == .string("session_end"))
    #expect(lines.allSatisfy { $0["v"] == .number(1) })
    let starts = lines.filter { $0["kind"] == .string("event_start") }
    let ends = lines.filter { $0["kind"] == .string("event_end") }
    #expect(!starts.isEmpty && starts.count == ends.count)
    for s in starts {
        #expect(s["trace"]?["rule"]?["on"] != nil && s["trace"]?["profile_sha256"] != nil)
        #expect(s["trace"]?["level_dbfs"] != nil && s["trace"]?["floor_dbfs"] != nil)
        #expect(ends.contains { $0["id"] == s["id"] })
    }
}

@Test func tsvOutputIsDCASELabels() throws {
    let r = try somniq("replay", "--format", "tsv", Paths.demoNight)
    let rows = r.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    #expect(!rows.isEmpty)
    for row in rows {
        #expect(row.count == 3)
        #expect(Double(row[0]) != nil && Double(row[1])! >= Double(row[0])!)
        #expect(row[0].split(separator: ".").last?.count == 3)
        #expect(SoundClass(rawValue: String(row[2])) != nil)
    }
}

/// The same 40 s of the demo night (baby cry, then the smoke alarm) in several rates,
/// channel counts and containers, made by sox (not the resampler under test).
@Test(arguments: [
    ("8000", "1", "wav"), ("16000", "1", "flac"), ("16000", "2", "wav"), ("44100", "1", "flac"),
    ("44100", "2", "wav"), ("48000", "2", "flac"), ("48000", "1", "wav"),
])
func sameRecordingGivesSameEventsWhateverTheRateChannelsAndFormat(rate: String, channels: String, format: String) async throws {
    let dir = temporaryDirectory()
    let reference = dir + "/reference.wav"
    try sox(Paths.demoNight, reference, "trim", "95", "40")
    let variant = dir + "/variant.\(format)"
    try sox(reference, "-r", rate, "-c", channels, variant)
    let expected = try await detections(reference)
    let got = try await detections(variant)
    #expect(expected.contains { $0.soundClass == .smokeAlarm })
    #expect(got.map(\.soundClass) == expected.map(\.soundClass), "\(rate) Hz × \(channels) \(format): \(got) vs \(expected)")
    for (g, e) in zip(got, expected) {
        #expect(abs(g.onset - e.onset) <= StreamClock.frameSeconds, "\(g) vs \(e)")
    }
}

/// Thresholds are relative to the tracked floor: a quieter microphone hears the same night.
@Test(arguments: ["-6", "-20"])
func gainDoesNotChangeTheEvents(gain: String) async throws {
    let dir = temporaryDirectory()
    let quieter = dir + "/quieter.flac"
    try sox(Paths.demoNight, quieter, "gain", gain)
    let expected = try await detections(Paths.demoNight)
    let got = try await detections(quieter)
    #expect(got.map(\.soundClass) == expected.map(\.soundClass), "\(gain) dB: \(got) vs \(expected)")
    for (g, e) in zip(got, expected) {
        #expect(abs(g.onset - e.onset) <= StreamClock.frameSeconds, "\(gain) dB: \(g) vs \(e)")
    }
}
