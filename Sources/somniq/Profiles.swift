import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqSupport

struct Profiles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List, show and validate sensitivity profiles.",
        subcommands: [List.self, Show.self, Validate.self])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the profiles that can be named with --profile.")

        @Option(help: "Directory searched for named profiles.")
        var profileDir = "/etc/somniq/profiles"

        func run() throws {
            let loader = ProfileLoader(directory: profileDir)
            for (name, origin) in loader.available() {
                let description = (try? loader.load(origin == "built-in" ? name : origin).description) ?? "(invalid: run `somniq profiles validate \(origin)`)"
                print(LogText.escape(name).padded(toLength: 20) + LogText.escape(origin).padded(toLength: 12) + LogText.escape(description))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
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
                let classes = SoundClass.allCases.map { c -> (String, JSONValue) in
                    let (rule, sources) = p.sources(c)
                    guard case var .object(members) = rule.json else { return (c.rawValue, rule.json) }
                    members.append(("sources", .object(sources.map { ($0.field, .string(origin(p, $0.field, $0.source))) })))
                    return (c.rawValue, .object(members))
                }
                print(JSONValue.object([("name", .string(p.name)), ("sha256", .string(p.sha256)),
                                        ("extends", .array(p.ancestors.map { .string($0) })),
                                        ("frame_rate", .number(StreamClock.frameRate)),
                                        ("classes", .object(classes))]).prettyText)
                return
            }
            print("profile \(LogText.escape(p.name)): \(LogText.escape(p.description))")
            if !p.ancestors.isEmpty {
                print("extends \(p.ancestors.map(LogText.escape).joined(separator: ", which extends "))")
                // Base fields grouped by the profile that set them.
                let fields = ["on", "off", "debounce_s", "cooldown_s", "smoothing", "min_confidence", "enabled"]
                var byOrigin: [(origin: String, fields: [String])] = []
                for f in fields {
                    let o = p.origin(of: f, in: .base)
                    if let i = byOrigin.firstIndex(where: { $0.origin == o }) { byOrigin[i].fields.append(f) } else { byOrigin.append((o, [f])) }
                }
                print("base: " + byOrigin.map { "\($0.fields.joined(separator: ", ")) from \(LogText.escape($0.origin))" }.joined(separator: "; "))
            }
            print("sha256 \(p.sha256); frame rate \(StreamClock.frameRate) Hz (fixed by the 0.5 s hop)")
            print()
            let header = ["class", "tier", "on", "off", "debounce", "cooldown", "smoothing", "min_conf", "enabled", "alerts", "adjusted by"]
            var rows = [header]
            for c in SoundClass.allCases {
                let (r, adjusted) = p.resolve(c)
                let notes = adjusted.map { a in
                    let from = p.origin(of: a.field, in: a.source)
                    return "\(a.field)←\(a.source.keyPath)" + (from == p.name ? "" : " (\(LogText.escape(from)))")
                }
                rows.append([c.rawValue, r.tier.rawValue, num(r.on), num(r.off), num(r.debounce) + "s", num(r.cooldown) + "s",
                             r.smoothing.summary, num(r.minConfidence), r.enabled ? "yes" : "no", r.alert ? "yes" : "no",
                             notes.isEmpty ? "-" : notes.joined(separator: ", ")])
            }
            let widths = (0..<header.count).map { col in rows.map { $0[col].count }.max()! }
            for row in rows {
                print(zip(row, widths).map { $0.padded(toLength: $1 + 2) }.joined()
                        .trimmingWhitespace())
            }
        }

        /// `classes.cough@balanced`: the section and the profile a field came from.
        private func origin(_ p: Profile, _ field: String, _ source: Profile.Source) -> String {
            "\(source.keyPath)@\(p.origin(of: field, in: source))"
        }
        private func num(_ x: Double) -> String { JSONValue.format(x) }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check profile files; print each problem with its file and key.",
            discussion: """
            Also warns, without failing, about settings under which a class can hardly fire \
            (a debounce longer than the sound usually lasts, smoothing that keeps a short sound \
            below `on`) and critical classes turned off. Exits 0 when every file is valid, 65 \
            when any is not.
            """)

        @Argument(help: "Profile JSON files.", completion: .file(extensions: ["json"]))
        var paths: [String]

        @Option(help: "Directory searched for the profiles named by \"extends\".")
        var profileDir = "/etc/somniq/profiles"

        func run() throws {
            var bad = 0
            for path in paths {
                do {
                    let p = try ProfileLoader(directory: profileDir).read(path: path)
                    let extends = p.ancestors.isEmpty ? "" : ", extends \(p.ancestors.joined(separator: " → "))"
                    print(LogText.escape("\(path): ok (profile \(p.name)\(extends), sha256 \(p.sha256.prefix(12))…)"))
                    for w in p.warnings { print(LogText.escape("\(path): warning: \(w)")) }
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
