import Foundation
import Testing
import SomniqCore
@testable import SomniqIO

@Test func shippedProfileFilesAreTheBuiltins() throws {
    for (name, text) in Profile.builtinTexts {
        let file = try String(contentsOfFile: Paths.package + "/profiles/\(name).json", encoding: .utf8)
        #expect(file == text, "profiles/\(name).json differs from the built-in; run scripts/embed-profiles.sh")
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
