import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqCore
import SomniqReports
import SomniqSinks
import SomniqSupport

struct Label: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Mark an event right or wrong: what this home's memory learns from (somniq learn --home).",
        discussion: """
        A label is a `label` record appended to the event log (written and fsync'd under the \
        log's lock, as the daemon writes: the log may be appended to while it runs); nothing \
        is rewritten. A later label for the same event wins; --as none takes it back. \
        Verdicts: right (it was this class), not (it was not this class), other (something \
        no class names), a class (it was that), none. The report shows each event's label \
        and somniq history counts, per week, how often each class was marked right or wrong.

        One event: somniq label EVENT-ID --as not. Many: --from FILE, one \
        `EVENT-ID VERDICT` a line (# starts a comment), or --all-alerts-as VERDICT with \
        --night DATE for every alert of the night. The event is looked for in the log and \
        in the rotated logs named by --rotated; the label goes into the log.
        """)

    @Argument(help: "The event's id, as somniq report LOG --format text lists it (and the HTML report and the log name it).")
    var id: String?

    @Option(name: .customLong("as"), help: ArgumentHelp("right, not, other, none or a class.", valueName: "verdict"))
    var verdict: String?

    @Option(help: "The night (its evening's date, or a replayed recording's path): needed when replays without --start reused the id; with --all-alerts-as, the night whose alerts are meant.")
    var night: String?

    @Option(help: ArgumentHelp("A file of labels, one `EVENT-ID VERDICT` a line.", valueName: "file"), completion: .file())
    var from: String?

    @Option(name: .customLong("all-alerts-as"), help: ArgumentHelp("Give every alert of --night this verdict.", valueName: "verdict"))
    var allAlertsAs: String?

    @Option(help: ArgumentHelp("An older, rotated log whose events may be labelled (repeat for more).", valueName: "log"), completion: .file())
    var rotated: [String] = []

    @OptionGroup var logOptions: EpisodeCommand.LogOptions

    func validate() throws {
        let forms = [id != nil, from != nil, allAlertsAs != nil].filter { $0 }.count
        if forms != 1 { throw ValidationError("give an EVENT-ID with --as, or --from FILE, or --all-alerts-as VERDICT with --night") }
        if id != nil, verdict == nil { throw ValidationError("--as: say what the event was: \(EventLabel.Verdict.accepted)") }
        if id == nil, verdict != nil { throw ValidationError("--as goes with an EVENT-ID") }
        if allAlertsAs != nil, night == nil { throw ValidationError("--all-alerts-as: give the --night whose alerts are meant") }
        for v in [verdict, allAlertsAs].compactMap({ $0 }) where EventLabel.Verdict(v) == nil {
            // Printed by the argument parser, not by `fail`: escaped here, as `fail` escapes.
            throw ValidationError("\(LogText.escape(v)): not a verdict; give \(EventLabel.Verdict.accepted)")
        }
    }

    func run() throws {
        let log = try logOptions.path()
        let known: LoggedEvents
        do { known = try LoggedEvents(logs: rotated + (FileManager.default.fileExists(atPath: log) ? [log] : [])) } catch {
            throw fail("\(error)", Exit.dataError)
        }
        var wanted: [(id: String, verdict: EventLabel.Verdict)] = []
        if let id, let v = verdict.flatMap(EventLabel.Verdict.init) { wanted = [(id, v)] }
        if let from { wanted = try Self.readFile(from) }
        var labels: [EventLabel] = []
        let now = Date().timeIntervalSince1970   // a command's record is stamped when it runs
        if let all = allAlertsAs.flatMap(EventLabel.Verdict.init), let night {
            let alerts = known.events.filter { $0.night == night && $0.alert }
            guard !alerts.isEmpty else { throw fail("\(log): no alert on the night of \(night)", Exit.dataError) }
            labels = alerts.map { EventLabel(id: $0.id, night: $0.night, soundClass: $0.soundClass, verdict: all, time: now) }
        }
        for (id, v) in wanted {
            let found = known.find(id, night: night)
            guard let e = found.first else {
                if let damaged = known.refused.first(where: { $0.id == id && (night == nil || $0.night == night) }) {
                    throw fail("\(log): event \(id) cannot be labelled: \(damaged.why); its log records are damaged", Exit.dataError)
                }
                // The report that lists each event with its id, this night's when one is named.
                let report = "somniq report \(log)\(night.map { " --night \($0)" } ?? "") --format text"
                throw fail("\(log): no event \(id)\(night.map { " on the night of \($0)" } ?? ""); `\(report)` lists each event with its id", Exit.dataError)
            }
            guard Set(found.map(\.night)).count == 1 else {
                throw fail("\(id) names events of several nights (\(found.map(\.night).joined(separator: ", "))): say which with --night", Exit.usage)
            }
            labels.append(EventLabel(id: id, night: e.night, soundClass: e.soundClass, verdict: v, time: now))
        }
        do {
            let writer = try EventLogWriter(path: log)
            for l in labels { try writer.append(l.record) }
        } catch { throw fail("\(error)", Exit.ioError) }
        for l in labels { print(LogText.escape("\(l.id) (\(l.soundClass.rawValue), night of \(l.night)): \(l.verdict.words)")) }
    }

    /// `EVENT-ID VERDICT` lines; blank lines and `#` comments skipped.
    static func readFile(_ path: String) throws -> [(id: String, verdict: EventLabel.Verdict)] {
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("\(path): cannot read the labels", Exit.dataError) }
        var out: [(String, EventLabel.Verdict)] = []
        for (n, line) in TextLines.of(String(decoding: data, as: UTF8.self)).enumerated() {
            let words = line.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if words.isEmpty { continue }
            guard words.count == 2, let v = EventLabel.Verdict(words[1]) else {
                throw fail("\(path): line \(n + 1): expected `EVENT-ID VERDICT`, VERDICT one of \(EventLabel.Verdict.accepted)", Exit.dataError)
            }
            out.append((words[0], v))
        }
        return out
    }
}
