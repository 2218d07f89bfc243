import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

/// The per-class tallies a replay's `session_end` record gives for `profile`.
private func sessionEndClasses(profile: String) throws -> JSONValue {
    let r = try somniq("replay", Paths.demoNight, "--profile", profile, "--format", "jsonl")
    #expect(r.status == 0, "\(r.stderr)")
    let end = try #require(r.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        .first { $0["kind"]?.stringValue == "session_end" })
    return end["classes"] ?? .object([])
}

@Test func compareGivesEachProfileWhatItsOwnReplayLogs() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try #"{"name": "mine", "extends": "very_conservative", "classes": {"door": {"min_confidence": 0.4, "on": 0.7, "off": 0.5, "debounce_s": 0, "smoothing": {"method": "none"}}}}"#
        .write(toFile: dir + "/mine.json", atomically: true, encoding: .utf8)
    let r = try somniq("compare", Paths.demoNight, "--profile", "balanced", "--profile", "very_conservative",
                       "--profile", dir + "/mine.json", "--json")
    #expect(r.status == 0, "\(r.stderr)")
    let out = try JSONValue(parsing: r.stdout)
    guard case let .array(profiles)? = out["profiles"] else { Issue.record("no profiles in \(r.stdout)"); return }
    #expect(profiles.map { $0["name"]?.stringValue } == ["balanced", "very_conservative", "mine"])
    // One decode, three alert processors: each column is what a replay under that profile logs.
    for (p, spec) in zip(profiles, ["balanced", "very_conservative", dir + "/mine.json"]) {
        #expect(p["classes"] == (try sessionEndClasses(profile: spec)), "\(spec)")
    }
    // The profile that lets the door through as balanced does differs from its parent by the door.
    let door = { (k: Int) in profiles[k]["classes"]?["door"]?["events"] }
    #expect(door(1) == nil && door(2) == .number(1))
}

@Test func compareTableListsClassesAndAlertsByTier() throws {
    let r = try somniq("compare", Paths.demoNight, "--profile", "balanced", "--profile", "very_conservative")
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0].hasSuffix("demo-night.flac: 3:00 of audio, decoded and classified once, judged by 2 profiles"))
    #expect(lines[2] == "events (alerts)  balanced  very_conservative")
    #expect(lines.contains("door                1 (1)              0 (0)"))
    #expect(lines.contains("critical alerts         1                  1"))
}

@Test func compareAndEvalTakeTheProfilesInTheDirectoryWithAll() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try #"{"name": "nursery", "extends": "sensitive"}"#.write(toFile: dir + "/nursery.json", atomically: true, encoding: .utf8)
    try #"{"name": "mine", "extends": "balanced", "base": {"cooldown_s": 60}}"#.write(toFile: dir + "/mine.json", atomically: true, encoding: .utf8)
    let compare = try somniq("compare", Paths.demoNight, "--profile-dir", dir, "--json")
    let names = try JSONValue(parsing: compare.stdout)["profiles"].flatMap { v -> [String]? in
        guard case let .array(a) = v else { return nil }
        return a.compactMap { $0["name"]?.stringValue }
    }
    #expect(names == Profile.builtinNames + ["mine", "nursery"])

    // eval: all, and a path beside it; the demo night has its labels beside it.
    let other = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: other) }
    try #"{"name": "quiet", "extends": "conservative"}"#.write(toFile: other + "/quiet.json", atomically: true, encoding: .utf8)
    let eval = try somniq("eval", "--profile", "all", "--profile", other + "/quiet.json", "--profile-dir", dir, Paths.demoNight)
    #expect(eval.status == 0, "\(eval.stderr)")
    let rows = eval.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
    #expect(rows == Profile.builtinNames + ["mine", "nursery", "quiet"])
}

@Test func twoDifferentProfilesWithOneNameAreRefused() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try #"{"name": "balanced", "extends": "balanced", "base": {"on": 0.8}}"#.write(toFile: dir + "/b.json", atomically: true, encoding: .utf8)
    let r = try somniq("compare", Paths.demoNight, "--profile", "balanced", "--profile", dir + "/b.json")
    #expect(r.status == 65)
    #expect(r.stderr == "somniq: \(dir)/b.json: name: \"balanced\" is also the name of balanced; give one of them another name to compare them\n")
    // The same profile twice is kept once.
    let twice = try somniq("compare", Paths.demoNight, "--profile", "balanced", "--profile", "balanced", "--json")
    #expect(twice.stdout.components(separatedBy: "\"sha256\"").count == 2)
}
