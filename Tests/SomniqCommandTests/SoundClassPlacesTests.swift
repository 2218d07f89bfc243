import Foundation
import SomniqCore
import SomniqTestSupport
import Testing

/// A class is one case of `SoundClass` and its descriptor, from which the code's lists are
/// derived; the files the build does not derive must name it too (docs/ARCHITECTURE.md,
/// "How to add… a class"). Each failure names the class and the file to add it to.
struct SoundClassPlacesTests {
    func read(_ file: String) throws -> String {
        try String(contentsOfFile: Paths.package + "/" + file, encoding: .utf8)
    }

    /// The quoted names in `text` from `opening` to the `closing` after it.
    func names(in text: String, from opening: String, to closing: String) -> [String]? {
        guard let start = text.range(of: opening), let end = text[start.upperBound...].range(of: closing) else { return nil }
        return text[start.upperBound..<end.lowerBound].split(separator: "\"", omittingEmptySubsequences: false)
            .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// Every class, and nothing else, in `listed`, in `allCases` order.
    func expectEveryClass(_ listed: [String], in place: String) {
        for c in SoundClass.allCases where !listed.contains(c.rawValue) {
            #expect(Bool(false), "\(c.rawValue) is missing from \(place)")
        }
        for name in listed where SoundClass(rawValue: name) == nil {
            #expect(Bool(false), "\(place) lists \(name), which is no class")
        }
        if Set(listed) == Set(SoundClass.allCases.map(\.rawValue)) {
            #expect(listed == SoundClass.allCases.map(\.rawValue), "\(place) lists the classes in another order than SoundClass")
        }
    }

    @Test func theSchemasListEveryClass() throws {
        for schema in ["schemas/profile.schema.json", "schemas/config.schema.json"] {
            let json = try JSONValue(parsing: read(schema))
            guard case let .array(items)? = json["$defs"]?["class"]?["enum"] else {
                Issue.record("\(schema) has no $defs.class.enum")
                continue
            }
            expectEveryClass(items.compactMap(\.stringValue), in: "\(schema)'s $defs.class.enum")
        }
    }

    @Test func theFuzzDictionaryHasEveryClass() throws {
        let dictionary = try read("Fuzz/dict/labels.dict")
        for c in SoundClass.allCases where !dictionary.contains("\n\"\(c.rawValue)\"\n") {
            #expect(Bool(false), "\(c.rawValue) is missing from Fuzz/dict/labels.dict")
        }
    }

    /// A class's settings in each built-in profile let a clear instance of it become an
    /// event (a short class needs its own `debounce_s`).
    @Test func everyProfileCanTurnEveryClassIntoAnEvent() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Paths.package + "/profiles").filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count == Profile.builtinNames.count)
        for file in files {
            let profile = try Profile(json: read("profiles/" + file), file: file)
            for c in SoundClass.allCases {
                for w in profile.warnings where w.soundClass == c {
                    #expect(Bool(false), "\(c.rawValue) needs its own settings in profiles/\(file): \(w)")
                }
            }
        }
    }

    /// The trainer fits a rule for each class a learned rule may decide, and its inputs
    /// hold their hand scores in this order.
    @Test func theTrainerFitsEveryLearnedClass() throws {
        let trainer = "tools/learn/train.py"
        let listed = try #require(names(in: read(trainer), from: "\nCANDIDATES = [", to: "]"), "\(trainer) has no CANDIDATES list")
        for c in SoundClass.allCases {
            if c.descriptor.learned, !listed.contains(c.rawValue) {
                #expect(Bool(false), "\(c.rawValue) is a learned class (its descriptor) but missing from \(trainer)'s CANDIDATES")
            } else if !c.descriptor.learned, listed.contains(c.rawValue) {
                #expect(Bool(false), "\(trainer)'s CANDIDATES has \(c.rawValue), which its descriptor does not let a learned rule decide")
            }
        }
        #expect(listed == LearnedRules.candidates.map(\.rawValue), "\(trainer)'s CANDIDATES are in another order than LearnedRules.candidates")
    }

    /// The guide to profiles lists each class under its default tier.
    @Test func theProfilesGuideGivesEveryClassItsTier() throws {
        let guide = "docs/profiles.md"
        let text = try read(guide)
        for c in SoundClass.allCases {
            let row = text.split(separator: "\n").first { $0.hasPrefix("| \(c.defaultTier.rawValue) |") }
            #expect(row?.contains("`\(c.rawValue)`") == true, "\(c.rawValue) is missing from the \(c.defaultTier.rawValue) row of \(guide)'s classes and tiers")
        }
    }
}
