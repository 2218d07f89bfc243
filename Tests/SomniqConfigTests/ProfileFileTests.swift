import Foundation
@testable import SomniqConfig
import SomniqTestSupport
import Testing
import SomniqCore

@Test func shippedProfileFilesAreTheBuiltins() throws {
    for (name, text) in Profile.builtinTexts {
        let file = try String(contentsOfFile: Paths.package + "/profiles/\(name).json", encoding: .utf8)
        #expect(file == text, "profiles/\(name).json differs from the built-in the build embedded")
        #expect(try ProfileLoader.read(path: Paths.package + "/profiles/\(name).json").sha256 == Profile.builtin(name)!.sha256)
    }
}

@Test func namedProfileIsFoundInTheDirectoryBeforeTheBuiltins() throws {
    let dir = temporaryDirectory()
    let text = try String(contentsOfFile: Paths.package + "/profiles/sensitive.json", encoding: .utf8)
        .replacingOccurrences(of: "\"name\": \"sensitive\"", with: "\"name\": \"balanced\"")
    try text.write(toFile: dir + "/balanced.json", atomically: true, encoding: .utf8)
    let p = try ProfileLoader(directory: dir).load("balanced")
    #expect(p.base.on == 0.6)
    #expect(throws: ProfileError.self) { try ProfileLoader(directory: dir).load("nightly") }
}

@Test func profilesShowListsEveryClassWithItsAdjustments() throws {
    let r = try somniq("profiles", "show", "balanced")
    #expect(r.status == 0)
    for c in SoundClass.allCases { #expect(r.stdout.contains("\n" + c.rawValue + " ")) }
    #expect(r.stdout.contains("debounce_s←classes.glass_break"))
    #expect(r.stdout.contains("debounce_s←tiers.critical"))
}

// MARK: extends

@Test func aProfileExtendsAFileByARelativePath() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir + "/mine", withIntermediateDirectories: true)
    try #"{"name": "quiet", "extends": "balanced", "base": {"cooldown_s": 60}}"#.write(toFile: dir + "/quiet.json", atomically: true, encoding: .utf8)
    try #"{"name": "nursery", "extends": "../quiet.json", "classes": {"baby_cry": {"tier": "critical"}}}"#
        .write(toFile: dir + "/mine/nursery.json", atomically: true, encoding: .utf8)
    let p = try ProfileLoader(directory: dir + "/none").load(dir + "/mine/nursery.json")
    #expect(p.ancestors == ["../quiet.json", "balanced"])
    #expect(p.rule(for: .babyCry).tier == .critical && p.rule(for: .babyCry).cooldown == 60)
    #expect(p.rule(for: .cough).debounce == 0)                          // balanced's, two levels up
    #expect(p.origin(of: "cooldown_s", in: .base) == "quiet")
    #expect(p.origin(of: "debounce_s", in: .classOverride(.cough)) == "balanced")
}

@Test func aProfileInTheDirectoryMayAdjustTheBuiltinOfItsOwnName() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try #"{"name": "balanced", "extends": "balanced", "base": {"cooldown_s": 30}}"#
        .write(toFile: dir + "/balanced.json", atomically: true, encoding: .utf8)
    let p = try ProfileLoader(directory: dir).load("balanced")
    #expect(p.rule(for: .snoring).cooldown == 30 && p.rule(for: .cough).debounce == 0)
}

@Test func aCycleOrAMissingParentIsNamedAtTheFileThatExtends() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try #"{"name": "a", "extends": "b.json"}"#.write(toFile: dir + "/a.json", atomically: true, encoding: .utf8)
    try #"{"name": "b", "extends": "./a.json"}"#.write(toFile: dir + "/b.json", atomically: true, encoding: .utf8)
    try #"{"name": "c", "extends": "nightly"}"#.write(toFile: dir + "/c.json", atomically: true, encoding: .utf8)
    let loader = ProfileLoader(directory: dir)
    #expect(throws: ProfileError(file: dir + "/b.json", keyPath: "extends",
                                 problem: "\"./a.json\" extends this profile again (a cycle: \(dir)/a.json → \(dir)/b.json → \(dir)/a.json)")) {
        try loader.load(dir + "/a.json")
    }
    #expect(throws: ProfileError(file: dir + "/c.json", keyPath: "extends",
                                 problem: "no profile \"nightly\" (built-in profiles: very_conservative, conservative, balanced, sensitive, very_sensitive; profiles in \(dir); or a path to a .json file, relative to this one)")) {
        try loader.load(dir + "/c.json")
    }
    // A chain deeper than a person writes by hand is refused, not followed forever.
    for i in 0...ProfileLoader.maxDepth {
        try "{\"name\": \"p\(i)\", \"extends\": \"\(i == 0 ? "balanced" : "p\(i - 1).json")\"}"
            .write(toFile: dir + "/p\(i).json", atomically: true, encoding: .utf8)
    }
    #expect(throws: ProfileError(file: dir + "/p1.json", keyPath: "extends",
                                 problem: "more than \(ProfileLoader.maxDepth) profiles deep; extend a profile nearer the built-ins")) {
        try loader.load(dir + "/p\(ProfileLoader.maxDepth).json")
    }
    #expect(try loader.load(dir + "/p\(ProfileLoader.maxDepth - 1).json").ancestors.count == ProfileLoader.maxDepth)
}

/// The example profile of docs/profiles.md (once the README's), as a user would copy it.
private func readmeProfile() throws -> String {
    let readme = try String(contentsOfFile: Paths.package + "/docs/profiles.md", encoding: .utf8)
    let section = try #require(readme.range(of: "## Sensitivity profiles"))
    let start = try #require(readme.range(of: "```json\n", range: section.upperBound..<readme.endIndex))
    let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
    return String(readme[start.upperBound..<end.lowerBound])
}

@Test func theReadmeProfileFindsOnTheDemoNightEverythingBalancedFindsExceptWhatItChanges() async throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try readmeProfile().write(toFile: dir + "/night.json", atomically: true, encoding: .utf8)
    let validate = try somniq("profiles", "validate", dir + "/night.json")
    #expect(validate.status == 0 && !validate.stdout.contains("warning"), "\(validate.stdout)")
    let night = try ProfileLoader().load(dir + "/night.json")

    // What the example changes for detection: classes whose rule differs from balanced's
    // in more than the tier and whether it alerts (they decide who is told, not what is found).
    func detecting(_ r: AlertRule) -> AlertRule { var r = r; r.tier = .high; r.alert = true; return r }
    let changed = SoundClass.allCases.filter { detecting(night.rule(for: $0)) != detecting(Profile.balanced.rule(for: $0)) }
    #expect(changed == [.music])
    #expect(night.rule(for: .door).tier == .low && !night.rule(for: .door).alert)
    let balancedEvents = try await detections(Paths.demoNight, profile: .balanced)
    let nightEvents = try await detections(Paths.demoNight, profile: night)
    #expect(balancedEvents.filter { !changed.contains($0.soundClass) } == nightEvents)
    // The demo night's short sounds are all there: a profile written without `extends`
    // lost the cough, the bark and the door.
    for c: SoundClass in [.cough, .dogBark, .door] { #expect(nightEvents.contains { $0.soundClass == c }, "\(c.rawValue)") }
}
