import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqAudio
import SomniqConfig
import SomniqCore
import SomniqSession
import SomniqSupport

struct Eval: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Score detections against labels (segment- and event-based, as sed_eval does).",
        discussion: """
        Every audio file given (or found under a directory given) that has a sibling .tsv \
        label file (onset, offset, class) is replayed and scored. An empty label file means \
        background only: every alert raised there is a false alert.

        Per class: segment-based precision, recall and F1 at 1 s resolution; event-based \
        precision, recall and F1 with a 1.0 s onset collar, offsets ignored; the median onset \
        latency. Averages are class-wise (macro), as sed_eval reports them; a class with \
        nothing to score in either list is left out of them.
        """)

    @Argument(help: "Audio files or directories.", completion: .file())
    var paths: [String]

    @Option(help: ArgumentHelp("Profile name, path to a profile JSON file, or `all` for every built-in profile and every one in /etc/somniq/profiles; repeat it to compare several (one row each).", valueName: "profile"),
            completion: .profiles(plus: ["all"]))
    var profile: [String] = ["balanced"]

    @Option(name: .customLong("profile-dir"), help: ArgumentHelp("Directory searched for named profiles.", visibility: .hidden))
    var profileDirectory = "/etc/somniq/profiles"

    @Flag(help: "Print the results as JSON.")
    var json = false

    @Option(help: "Write each file's scored detections as TSV into this directory.")
    var estimates: String?

    @OptionGroup var learned: RulesOptions

    @OptionGroup var home: HomeOptions

    @Flag(name: .customLong("by-rule"), help: "Score each folder three times, every class by its hand rule, by its learned rule, and as shipped, and print the segment F1 of the three side by side per class.")
    var byRule = false

    func run() async throws {
        // Several paths are scored apart, one summary row each (a tune set, a check set and
        // background-only recordings are different questions); JSON pools them, as before.
        let groups = json || paths.count == 1 ? [paths] : paths.map { [$0] }
        var collected: [(items: [Evaluator.Item], skipped: [String])] = []
        for group in groups {
            do { collected.append(try Evaluator.collect(group)) } catch { throw fail("\(error)", Exit.dataError) }
        }
        for file in collected.flatMap(\.skipped) { StandardError.write("somniq: \(LogText.escape(file)): no sibling .tsv labels; skipped\n") }
        for (group, c) in zip(groups, collected) where c.items.isEmpty {
            throw fail("no audio file with a sibling .tsv label file in \(group.joined(separator: " "))", Exit.dataError)
        }

        let profiles: [Profile]
        do { profiles = try ProfileLoader(directory: profileDirectory).load(each: profile) } catch {
            throw fail("\(error)", Exit.dataError)
        }
        if let estimates { try checkEstimates(estimates, collected.flatMap(\.items)) }
        if let estimates {
            do { try FileManager.default.createDirectory(atPath: estimates, withIntermediateDirectories: true) } catch {
                throw fail("\(estimates): cannot create the estimates directory: \(errorText(error))", Exit.ioError)
            }
        }
        if byRule {
            guard profiles.count == 1, !json, estimates == nil else {
                throw fail("--by-rule scores one profile and prints a table: leave out --json, --estimates and a second --profile", Exit.usage)
            }
            var byUse: [[Evaluator.Result]] = []
            for use in LearnedRules.Use.allCases {
                let rules = try learned.load(use)
                do {
                    var results: [Evaluator.Result] = []
                    for c in collected { results.append(try await Evaluator.evaluate(c.items, profile: profiles[0], learned: rules)) }
                    byUse.append(results)
                } catch let error as AudioFileError {
                    throw fail("\(error)", Exit.dataError)
                }
            }
            let shipped = try learned.load(.shipped)
            print(EvalReport.byRule(byUse, names: groups.map { PathText.lastComponent($0[0]) }) { shipped?.decides($0) == true })
            return
        }
        let rules = try learned.load()
        let memory = try home.load(), fit = try home.loadFit()
        var results: [[Evaluator.Result]] = []          // per profile, per group
        var alarms = AlarmCheck()
        for p in profiles {
            var row: [Evaluator.Result] = []
            for c in collected {
                do {
                    row.append(try await Evaluator.evaluate(c.items, profile: p, learned: rules, home: memory, fit: fit) { item, found in
                        guard profiles.count == 1 else { return }
                        alarms.add(file: item.audio, reference: item.labels, estimated: found)
                        guard let estimates else { return }
                        let name = PathText.deletingExtension(PathText.lastComponent(item.audio)) + ".tsv"
                        let text = found.map { String(cFormat: "%.3f\t%.3f\t%@", $0.onset, $0.offset, $0.label) }.joined(separator: "\n")
                        let path = PathText.appending(estimates, name)
                        do { try (text.isEmpty ? "" : text + "\n").write(toFile: path, atomically: true, encoding: .utf8) } catch {
                            throw fail("\(path): cannot write the estimates: \(errorText(error))", Exit.ioError)
                        }
                    })
                } catch let error as AudioFileError {
                    throw fail("\(error)", Exit.dataError)
                }
            }
            results.append(row)
        }
        let folders = groups.map { PathText.lastComponent($0[0]) }
        if json {
            print(JSONValue.array(results.map { EvalReport.json($0[0]) }).prettyText)
        } else if results.count == 1 && groups.count == 1 {
            print(EvalReport.table(results[0][0], items: collected[0].items))
        } else if results.count == 1 {
            print(EvalReport.folders(results[0], names: folders))
            print(EvalReport.alarms(alarms))
        } else {
            print(EvalReport.profiles(results, folders: groups.count == 1 ? nil : folders))
        }
    }

    /// The estimates directory must not hold the reference labels (they would be
    /// overwritten by the detections), and no two recordings may share a base name (one
    /// would overwrite the other's estimates).
    private func checkEstimates(_ directory: String, _ items: [Evaluator.Item]) throws {
        func real(_ path: String) -> String {
            // (A path realpath cannot resolve does not exist, so it is not the labels' directory.)
            guard let r = realpath(path, nil) else { return path }
            defer { free(r) }
            return String(cString: r)
        }
        let target = real(directory)
        var byName: [String: String] = [:]
        for item in items {
            let name = PathText.deletingExtension(PathText.lastComponent(item.audio))
            if real(PathText.deletingLastComponent(item.audio)) == target {
                throw fail("--estimates \(LogText.escape(directory)) holds the reference labels of \(LogText.escape(item.audio)); the estimates would overwrite them: choose another directory", Exit.usage)
            }
            if let other = byName[name] {
                throw fail("--estimates: \(LogText.escape(other)) and \(LogText.escape(item.audio)) would both write \(name).tsv; evaluate them apart", Exit.usage)
            }
            byName[name] = item.audio
        }
    }
}

/// How `somniq eval` prints its results.
enum EvalReport {
    static func n(_ x: Double) -> JSONValue { x.isNaN ? .null : .rounded(x, 4) }

    static func json(_ r: Evaluator.Result) -> JSONValue {
        func scores(_ c: ClassCounts) -> JSONValue {
            .object([("precision", n(c.precision)), ("recall", n(c.recall)), ("f1", n(c.f1)),
                     ("tp", .number(Double(c.tp))), ("fp", .number(Double(c.fp))), ("fn", .number(Double(c.fn)))])
        }
        func average(_ s: EvalScores) -> JSONValue {
            .object([("precision", n(s.precision)), ("recall", n(s.recall)), ("f1", n(s.f1))])
        }
        return .object([
            ("profile", .string(r.profile)),
            ("classes", .object(r.classes.map { c in
                (c.label, .object([("segment", scores(c.segment)), ("event", scores(c.event)),
                                   ("median_latency_s", c.medianLatency.map { .rounded($0) } ?? .null)]))
            })),
            ("segment_macro", average(r.segmentAverage)),
            ("event_macro", average(r.eventAverage)),
            ("segment_overall", scores(r.segmentOverall)),
            ("event_overall", scores(r.eventOverall)),
            ("labelled_files", .number(Double(r.labelledFiles))),
            ("background", .object([
                ("files", .number(Double(r.backgroundFiles))), ("hours", .rounded(r.backgroundHours, 4)),
                ("false_alerts", .number(Double(r.falseAlerts))), ("false_alerts_per_hour", n(r.falseAlertsPerHour)),
                ("false_critical_alerts", .number(Double(r.falseCriticalAlerts))),
            ])),
        ])
    }

    static func f(_ x: Double) -> String { x.isNaN ? "  - " : String(cFormat: "%.2f", x) }
    static func pad(_ s: String, _ w: Int) -> String { s.count >= w ? s : s + String(repeating: " ", count: w - s.count) }
    /// A table row without the padding after its last column.
    static func trimmed(_ s: String) -> String { String(s.reversed().drop { $0 == " " }.reversed()) }

    static func table(_ r: Evaluator.Result, items: [Evaluator.Item]) -> String {
        let labels = items.reduce(0) { $0 + $1.labels.count }
        var lines = ["profile \(r.profile): \(r.labelledFiles) labelled files (\(labels) labels), \(r.backgroundFiles) background files (\(String(cFormat: "%.2f", r.backgroundHours)) h)",
                     "",
                     pad("class", 13) + "segment P   R     F1   | event P   R     F1   | latency"]
        for c in r.classes {
            let latency = c.medianLatency.map { String(cFormat: "%+.2f s", $0) } ?? "   -"
            lines.append(pad(c.label, 13) + "  " + [c.segment.precision, c.segment.recall, c.segment.f1].map(f).joined(separator: "  ")
                         + "  |   " + [c.event.precision, c.event.recall, c.event.f1].map(f).joined(separator: "  ") + "  | " + latency)
        }
        lines.append(pad("macro", 13) + "  " + [r.segmentAverage.precision, r.segmentAverage.recall, r.segmentAverage.f1].map(f).joined(separator: "  ")
                     + "  |   " + [r.eventAverage.precision, r.eventAverage.recall, r.eventAverage.f1].map(f).joined(separator: "  ") + "  |")
        lines.append("")
        if r.backgroundFiles > 0 {
            lines.append(String(cFormat: "background: %d false alerts in %.2f h = %.1f per hour (%d critical)",
                                r.falseAlerts, r.backgroundHours, r.falseAlertsPerHour, r.falseCriticalAlerts))
        } else {
            lines.append("background: no background-only recordings given")
        }
        return lines.joined(separator: "\n")
    }

    /// One row per profile (`byProfile[p][0]`), or with `folders`, one per folder and
    /// profile (`byProfile[p][g]` for folder `g`).
    static func profiles(_ byProfile: [[Evaluator.Result]], folders: [String]? = nil) -> String {
        var lines = [(folders == nil ? "" : pad("folder", 10)) + pad("profile", 19) + "seg F1  event F1  seg recall  false alerts/h  critical"]
        let rows: [(String, Evaluator.Result)] = folders.map { folders in
            folders.indices.flatMap { g in byProfile.map { (folders[g], $0[g]) } }
        } ?? byProfile.map { ("", $0[0]) }
        for (folder, r) in rows {
            lines.append((folders == nil ? "" : pad(folder, 10)) + pad(r.profile, 19) + pad(f(r.segmentAverage.f1), 8) + pad(f(r.eventAverage.f1), 10)
                         + pad(f(r.segmentOverall.recall), 12) + pad(r.backgroundFiles > 0 ? String(cFormat: "%.1f", r.falseAlertsPerHour) : "-", 16)
                         + "\(r.falseCriticalAlerts)")
        }
        return lines.joined(separator: "\n")
    }

    /// One column of segment F1 per folder and class, then one summary row per folder.
    static func folders(_ results: [Evaluator.Result], names: [String]) -> String {
        let w = max(8, (names.map(\.count).max() ?? 0) + 2)
        var lines = ["profile \(results[0].profile); segment F1 per class and folder", "",
                     pad("class", 13) + names.map { pad($0, w) }.joined()]
        for (k, c) in results[0].classes.enumerated() {
            lines.append(pad(c.label, 13) + results.map { pad(f($0.classes[k].segment.f1), w) }.joined())
        }
        lines.append(pad("macro", 13) + results.map { pad(f($0.segmentAverage.f1), w) }.joined())
        lines += ["", pad("folder", w) + "files  labels  seg F1  event F1  false alerts/h  critical"]
        for (name, r) in zip(names, results) {
            let labelled = r.classes.reduce(0) { $0 + $1.event.nref }
            lines.append(pad(name, w) + pad("\(r.labelledFiles + r.backgroundFiles)", 7) + pad("\(labelled)", 8)
                         + pad(f(r.segmentAverage.f1), 8) + pad(f(r.eventAverage.f1), 10)
                         + pad(r.backgroundFiles > 0 ? String(cFormat: "%.1f in %.2f h", r.falseAlertsPerHour, r.backgroundHours) : "-", 16)
                         + (r.backgroundFiles > 0 ? "\(r.falseCriticalAlerts)" : "-"))
        }
        return lines.joined(separator: "\n")
    }

    /// Per class and folder, the segment F1 with every class by its hand rule, by its
    /// learned rule, and as shipped (`byUse[use][folder]`, in `LearnedRules.Use` order).
    static func byRule(_ byUse: [[Evaluator.Result]], names: [String], shipped: (SoundClass) -> Bool) -> String {
        let w = 7
        let head = names.map { pad($0, 3 * w + 2) }.joined()
        var lines = ["profile \(byUse[0][0].profile); segment F1 per class and folder: by the hand rule, the learned rule, as shipped", "",
                     pad("", 13) + head,
                     pad("class", 13) + names.map { _ in ["hand", "learn", "ship"].map { pad($0, w) }.joined() + "  " }.joined()]
        let classes = byUse[0][0].classes.map(\.label)
        for (k, label) in classes.enumerated() {
            let decided = SoundClass(rawValue: label).map(shipped) ?? false
            lines.append(pad(label + (decided ? " *" : ""), 13) + names.indices.map { g in
                byUse.map { pad(f($0[g].classes[k].segment.f1), w) }.joined() + "  "
            }.joined())
        }
        lines.append(pad("macro", 13) + names.indices.map { g in byUse.map { pad(f($0[g].segmentAverage.f1), w) }.joined() + "  " }.joined())
        lines.append(pad("false/h", 13) + names.indices.map { g in
            byUse.map { pad($0[g].backgroundFiles > 0 ? String(cFormat: "%.1f", $0[g].falseAlertsPerHour) : "-", w) }.joined() + "  "
        }.joined())
        lines += ["", "* shipped with its learned rule (`somniq rules list`)"]
        return lines.map(trimmed).joined(separator: "\n")
    }

    /// Every labelled smoke alarm: found (onset error, events) or missed; then false ones.
    static func alarms(_ a: AlarmCheck) -> String {
        var lines = ["", "smoke alarms: \(a.alarms.count - a.missed) of \(a.alarms.count) found within \(Int(AlarmCheck.tolerance)) s, "
                     + "\(a.split) split into several events, \(a.falseAlarms) raised where none sounded"]
        for alarm in a.alarms {
            let folder = PathText.lastComponent(PathText.deletingLastComponent(alarm.file))
            let name = folder + "/" + PathText.deletingExtension(PathText.lastComponent(alarm.file))
            let what = alarm.latency.map { String(cFormat: "found %+.2f s, %d event%@", $0, alarm.events, alarm.events == 1 ? "" : "s") } ?? "MISSED"
            lines.append("  " + pad(name, 24) + String(cFormat: "%7.2f s  ", alarm.onset) + what)
        }
        return lines.joined(separator: "\n")
    }
}
