import Foundation
import Logging
@testable import SomniqConfig
@testable import SomniqCore
import SomniqLog
@testable import SomniqSinks
import SomniqTestSupport
import Testing

private func start(_ id: String, _ c: SoundClass, _ tier: Tier, at onset: Double) -> EventStart {
    let rule = Profile.balanced.rule(for: c)
    return EventStart(id: id, soundClass: c, tier: tier, onset: onset, confidence: 0.9, alert: true, suppressed: nil,
                      trace: DecisionTrace(rule: rule, peakSmoothed: 0.9, peakRaw: 0.9, levelDbfs: -30, floorDbfs: -60,
                                           profileName: "balanced", profileSHA256: Profile.balanced.sha256))
}

/// The rate limit counts stream time: a night replayed in seconds is limited exactly as
/// the night heard live, and critical alerts are never held back.
@Test func theRateLimitCountsStreamTimeAndLetsCriticalAlertsThrough() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let out = dir + "/exec.jsonl"
    let program = try writeRecorderScript(in: dir, out: out)
    let path = dir + "/config.json"
    try #"{"sinks": [{"type": "exec", "command": [\#(String(reflecting: program))], "max_per_minute": 2}]}"#
        .write(toFile: path, atomically: true, encoding: .utf8)
    let settings = try DaemonConfig.read(path: path)
    let hub = SinkHub(configs: settings.sinks, room: "bedroom", profile: .balanced, version: "test", logger: Logger(label: "test"))
    // Within a millisecond of wall time, five alerts spread over 65 s of stream time.
    let starts = [start("e1", .cough, .high, at: 0), start("e2", .cough, .high, at: 10), start("e3", .dogBark, .high, at: 20),
                  start("e4", .smokeAlarm, .critical, at: 25), start("e5", .cough, .high, at: 65)]
    for e in starts { hub.write(.output(.start(e)), logged: .eventStart(.init(e))) }
    hub.shutdown(within: .seconds(20))
    let sent = records(out).compactMap { $0["env"]?["SOMNIQ_EVENT_ID"]?.stringValue }
    // e3 is the third high alert within 60 s; e5 comes 65 s after e1, 55 s after e2: one slot is free.
    #expect(sent == ["e1", "e2", "e4", "e5"])
    #expect(hub.counts.first?.counts.rateLimited == 1)
}
