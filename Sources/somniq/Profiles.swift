import ArgumentParser
import Foundation
import SomniqCore
import SomniqIO

struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, show and validate sensitivity profiles.",
        subcommands: [List.self, Show.self, Validate.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the profiles that can be named with --profile.")

        @Option(help: "Directory searched for named profiles.")
        var profileDir = "/etc/somniq/profiles"

        func run() throws {
            let loader = ProfileLoader(directory: profileDir)
            for (name, origin) in loader.available() {
                let description = (try? loader.load(origin == "built-in" ? name : origin).description) ?? "(invalid: run `somniq profiles validate \(origin)`)"
                print(LogText.escape(name).padding(toLength: 20, withPad: " ", startingAt: 0) + LogText.escape(origin).padding(toLength: 12, withPad: " ", startingAt: 0) + LogText.escape(description))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the effective rule of every class under a profile.",
            discussion: """
            Each row is the rule the alert processor applies to one class. The last column \
            names every field that a tier adjustment or a class override set, instead of the base.
            """)

        @Argument(help: "Profile name or path to a profile JSON file.", completion: .profiles())
        var profile: String

        @Flag(help: "Print the effective rules as JSON.")
        var json = false

        @Option(help: "Directory searched for named profiles.")
        var profileDir = "/etc/somniq/profiles"

        func run() throws {
            let p: Profile
            do { p = try ProfileLoader(directory: profileDir).load(profile) } catch {
                throw fail("\(error)", Exit.dataError)
            }
            if json {
                let classes = SoundClass.allCases.map { ($0.rawValue, p.rule(for: $0).json) }
                print(JSONValue.object([("name", .string(p.name)), ("sha256", .string(p.sha256)),
                                        ("frame_rate", .number(StreamClock.frameRate)),
                                        ("classes", .object(classes))]).prettyText)
                return
            }
            print("profile \(LogText.escape(p.name)): \(LogText.escape(p.description))")
            print("sha256 \(p.sha256); frame rate \(StreamClock.frameRate) Hz (fixed by the 0.5 s hop)")
            print()
            let header = ["class", "tier", "on", "off", "debounce", "cooldown", "smoothing", "min_conf", "enabled", "adjusted by"]
            var rows = [header]
            for c in SoundClass.allCases {
                let (r, adjusted) = p.resolve(c)
                let notes = adjusted.map { "\($0.field)←\($0.source.keyPath)\(isClass($0.source) ? "." + c.rawValue : "")" }
                rows.append([c.rawValue, r.tier.rawValue, num(r.on), num(r.off), num(r.debounce) + "s", num(r.cooldown) + "s",
                             r.smoothing.summary, num(r.minConfidence), r.enabled ? "yes" : "no",
                             notes.isEmpty ? "-" : notes.joined(separator: ", ")])
            }
            let widths = (0..<header.count).map { col in rows.map { $0[col].count }.max()! }
            for row in rows {
                print(zip(row, widths).map { $0.padding(toLength: $1 + 2, withPad: " ", startingAt: 0) }.joined()
                        .trimmingCharacters(in: .whitespaces))
            }
        }

        private func isClass(_ s: Profile.Source) -> Bool { if case .classOverride = s { true } else { false } }
        private func num(_ x: Double) -> String { JSONValue.format(x) }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check profile files; print each problem with its file and key.",
            discussion: "Exits 0 when every file is valid, 65 when any is not.")

        @Argument(help: "Profile JSON files.", completion: .file(extensions: ["json"]))
        var paths: [String]

        func run() throws {
            var bad = 0
            for path in paths {
                do {
                    let p = try ProfileLoader.read(path: path)
                    print("\(LogText.escape(path)): ok (profile \(LogText.escape(p.name)), sha256 \(p.sha256.prefix(12))…)")
                } catch {
                    var err = StandardError()
                    print(LogText.escape("\(error)"), to: &err)
                    bad += 1
                }
            }
            if bad > 0 { throw Exit.dataError }
        }
    }
}
