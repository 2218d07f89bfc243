import Foundation
import SomniqCore
import SomniqTestSupport
import Testing

/// A class is one line of classes/classes.tsv (and its rule). The Swift `SoundClass` is made
/// from it at build time; the files other tools read from the repository (the schemas' class
/// enums, the fuzz dictionaries, the trainer's CANDIDATES, the docs' class tables) are
/// written from it by scripts/classes.sh, and must be what it writes (docs/ARCHITECTURE.md,
/// "How to add… a class").
struct SoundClassPlacesTests {
    func read(_ file: String) throws -> String {
        try String(contentsOfFile: Paths.package + "/" + file, encoding: .utf8)
    }

    func classesAwk(_ what: String, _ files: [String], _ assignments: [String] = []) throws -> CommandResult {
        try runProgram("/usr/bin/awk", ["-v", "what=\(what)"] + assignments + ["-f", Paths.package + "/scripts/classes.awk"] + files,
                       directory: Paths.package)
    }

    @Test func theFilesMadeFromTheClassesAreWhatScriptsClassesShWrites() throws {
        let r = try runProgram("/bin/sh", [Paths.package + "/scripts/classes.sh", "--check"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func theClassesInSwiftAreTheListsLines() throws {
        let lines = try read("classes/classes.tsv").split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(lines.map { $0[0] } == SoundClass.allCases.map(\.rawValue))
        #expect(lines.map { $0[2] } == SoundClass.allCases.map(\.defaultTier.rawValue))
        #expect(lines.filter { $0[4].split(separator: ",").contains("learned") }.map { $0[0] } == LearnedRules.candidates.map(\.rawValue))
    }

    /// A stale list is rewritten whole; the rest of the file is kept as it is.
    @Test func aStaleTableIsWrittenAgainAndNothingElse() throws {
        let guide = try read("docs/profiles.md")
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let stale = guide.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("| low |") }
            .joined(separator: "\n")
        #expect(stale != guide)
        try stale.write(toFile: dir + "/profiles.md", atomically: true, encoding: .utf8)
        let r = try classesAwk("docs", ["classes/classes.tsv", dir + "/profiles.md"])
        #expect(r.status == 0)
        #expect(r.stdout == guide)
    }

    /// A malformed line of the classes fails the build, naming its line and what is wrong.
    @Test(arguments: ["swift", "looks"]) func aMalformedClassIsAnErrorNamingItsLine(what: String) throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [(line: String, message: String)] = [
            ("hum\thum\tlowish\t1\t-\t-\tblue\t-\ta hum\tsound\t-", "the tier \"lowish\" is none of critical high medium low"),
            ("hum\thum\tlow\t1\tloud\t-\tblue\t-\ta hum\tsound\t-", "the property \"loud\" is none of train, short, habituated, learned, derived"),
            ("hum\thum\tlow\t1\t-\t-\tblue\t-\t-", "has 9 fields separated by tabs, not 11 (class, case, tier, usual_s, properties, hook, colour, words, one, sensor, note)"),
            ("hum\thum\tlow\t1\t-\talarm span\tblue\t-\ta hum\tsound\t-", "the hook \"alarm span\" is not a Swift name in lower camel case"),
            ("hum\thum\tlow\t1\t-\t-\tmauve\t-\ta hum\tsound\t-",
             "the colour \"mauve\" is not one of black orange skyBlue bluishGreen yellow blue vermillion reddishPurple slate, then hatched or not"),
            ("hum\thum\tlow\t1\t-\t-\tblue striped\t-\ta hum\tsound\t-",
             "the colour \"blue striped\" is not one of black orange skyBlue bluishGreen yellow blue vermillion reddishPurple slate, then hatched or not"),
            ("hum\thum\tlow\t1\t-\t-\tblue\tthe \"hum\"\ta hum\tsound\t-", "the words \"the \"hum\"\" are empty or hold a quote or a backslash"),
            ("hum\thum\tlow\t1\t-\t-\tblue\t-\t-\tsound\t-", "one \"-\" is empty, - or holds a quote or a backslash"),
            ("hum\thum\tlow\t1\t-\t-\tblue\t-\ta hum\tnoise\t-", "the sensor \"noise\" is none of smoke sound"),
            ("Hum\thum\tlow\t1\t-\t-\tblue\t-\ta hum\tsound\t-", "the class \"Hum\" is not lower case letters, digits and _"),
            ("snoring\thum\tlow\t1\t-\t-\tblue\t-\ta hum\tsound\t-", "the class snoring is listed twice"),
        ]
        for c in cases {
            try ("snoring\tsnoring\thigh\t10\ttrain\t-\tblue\t-\tsnoring\tsound\t-\n" + c.line + "\n").write(toFile: dir + "/classes.tsv", atomically: true, encoding: .utf8)
            let r = try classesAwk(what, [dir + "/classes.tsv"])
            #expect(r.status == 2)
            #expect(r.stderr == dir + "/classes.tsv:2: " + c.message + "\n")
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
}
