import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqSession
import SomniqSupport

struct Compare: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Replay one recording under several profiles and show what each would log and alert.",
        discussion: """
        For choosing a profile with your own night, no labels needed. The recording is \
        decoded and classified once; each profile's alert processor judges the same scores. \
        Each cell is `events (alerts)`: events are what the log would hold, alerts what would \
        reach you (an event within a class's cooldown is logged but not alerted). Without \
        --profile, every built-in profile and every one in /etc/somniq/profiles is compared.
        """)

    @Argument(help: "The recording (any format libsndfile reads).", completion: .file())
    var file: String

    @Option(help: ArgumentHelp("Profile name, path to a profile JSON file, or `all`; repeat it to compare several.", valueName: "profile"),
            completion: .profiles(plus: ["all"]))
    var profile: [String] = ["all"]

    @Flag(help: "Print the comparison as JSON.")
    var json = false

    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Directory searched for named profiles.", visibility: .hidden))
    var profileDirectory = "/etc/somniq/profiles"

    @OptionGroup var home: HomeOptions

    func run() async throws {
        let profiles: [Profile]
        do { profiles = try ProfileLoader(directory: profileDirectory).load(each: profile) } catch {
            throw fail("\(error)", Exit.dataError)
        }
        let replayer = Replayer(profile: profiles[0])
        replayer.factory.compared = profiles
        replayer.factory.home = try home.load()
        replayer.factory.fit = try home.loadFit()
        replayer.warning = { StandardError.write("somniq: warning: \(LogText.escape(file)): \($0)\n") }
        let showProgress = isatty(STDERR_FILENO) == 1
        let summary: Session.Summary
        do {
            summary = try await replayer.replay(path: file, to: [],
                                          progress: showProgress ? { Progress.show(file: file, fraction: $0) } : nil)
            if showProgress { Progress.clear() }
        } catch {
            if showProgress { Progress.clear() }
            throw fail("\(error)", Exit.dataError)
        }
        let comparison = replayer.comparison!
        let text = json ? CompareReport.json(comparison, file: file, seconds: summary.streamSeconds).prettyText + "\n"
                        : CompareReport.table(comparison, file: file, seconds: summary.streamSeconds)
        try emit(text, to: nil)
    }
}

/// How `somniq compare` prints its results.
enum CompareReport {
    static func table(_ c: ProfileComparison, file: String, seconds: Double) -> String {
        let names = c.profiles.map { LogText.escape($0.name) }
        var rows = [["events (alerts)"] + names]
        let heard = SoundClass.allCases.filter { sc in c.tallies.contains { $0[sc.index].events > 0 } }
        for sc in heard {
            rows.append([sc.rawValue] + c.tallies.map { "\($0[sc.index].events) (\($0[sc.index].alerts))" })
        }
        rows.append(["all classes"] + c.tallies.map { t in
            "\(t.reduce(0) { $0 + $1.events }) (\(t.reduce(0) { $0 + $1.alerts }))"
        })
        rows.append([""] + names.map { _ in "" })
        for tier in Tier.allCases {
            rows.append(["\(tier.rawValue) alerts"] + c.alertsByTier.map { "\($0[tier] ?? 0)" })
        }
        let widths = rows[0].indices.map { col in rows.map { $0[col].count }.max()! }
        let minutes = String(cFormat: "%d:%02d", Int(seconds) / 60, Int(seconds) % 60)
        var lines = ["\(LogText.escape(file)): \(minutes) of audio, decoded and classified once, judged by \(c.profiles.count) profile\(c.profiles.count == 1 ? "" : "s")", ""]
        if heard.isEmpty { lines.append("no profile found an event in it"); return lines.joined(separator: "\n") + "\n" }
        for row in rows {
            // The class column left-aligned, the counts right-aligned under their profile.
            lines.append(zip(row, widths).enumerated().map { col, cell in
                let (text, width) = cell
                let pad = String(repeating: " ", count: width - text.count)
                return col == 0 ? text + pad + "  " : pad + text + "  "
            }.joined().trimmingWhitespace())
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ c: ProfileComparison, file: String, seconds: Double) -> JSONValue {
        .object([
            ("file", .string(file)),
            ("stream_s", .rounded(seconds)),
            ("profiles", .array(c.profiles.indices.map { k in
                .object([
                    ("name", .string(c.profiles[k].name)),
                    ("sha256", .string(c.profiles[k].sha256)),
                    ("events", .number(Double(c.tallies[k].reduce(0) { $0 + $1.events }))),
                    ("alerts", .number(Double(c.tallies[k].reduce(0) { $0 + $1.alerts }))),
                    ("alerts_by_tier", .object(Tier.allCases.map { ($0.rawValue, .number(Double(c.alertsByTier[k][$0] ?? 0))) })),
                    ("classes", .object(SoundClass.allCases.compactMap { sc in
                        let t = c.tallies[k][sc.index]
                        guard t.events > 0 else { return nil }
                        return (sc.rawValue, .object([("events", .number(Double(t.events))), ("alerts", .number(Double(t.alerts))),
                                                      ("minutes", .rounded(t.seconds / 60, 2))]))
                    })),
                ])
            })),
        ])
    }
}
