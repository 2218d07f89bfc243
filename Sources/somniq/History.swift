import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqCore
import SomniqReports

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Nights side by side: one row per night, with weekly or monthly totals and trends.",
        discussion: """
        Each night (noon to noon, local time) gets a row: the audio heard, snoring minutes \
        and share, disturbances (every sound but snoring, breathing and pauses in it), \
        alerts by tier (critical/high/medium/low) and the loudest minute. --week and \
        --month group the nights into ISO weeks or calendar months, each with its total, \
        its means per night, the trend over its nights (least squares) and its change \
        from the period before. Pieces of one night in several logs are added together. \
        A recording replayed without --start is listed by its path. Nights with episodes \
        (somniq episode add) gain a column per symptom and tag; --factors sets the nights \
        with each beside those without (3 nights a side at least; associations, not causes).
        """)

    @Argument(help: "Event logs (JSON Lines), in any order.", completion: .file())
    var logs: [String]

    @Flag(help: "Group the nights by ISO week (Monday to Sunday).")
    var week = false

    @Flag(help: "Group the nights by calendar month.")
    var month = false

    @Flag(help: "Comma-separated values, one row per night.")
    var csv = false

    @Flag(help: "One JSON document: nights, periods with totals and trends, the total.")
    var json = false

    @Flag(help: "One self-contained HTML page (the web page's /history): a chart of the nights and the tables.")
    var html = false

    @Flag(help: "What goes with what: for each tag and symptom reported (somniq episode add) on 3 nights or more, and not on 3 or more, those nights beside the others.")
    var factors = false

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    @OptionGroup var zone: ZoneOption

    func validate() throws {
        if week && month { throw ValidationError("--week and --month: choose one") }
        if factors && (week || month || html) { throw ValidationError("--factors sets nights side by side: give it alone, or with --csv or --json") }
        if [csv, json, html].filter({ $0 }).count > 1 { throw ValidationError("--csv, --json and --html: choose one") }
    }

    func run() throws {
        try zone.use()
        let history: History
        do { history = try History.read(logs: logs, grouping: week ? .week : month ? .month : .all) } catch {
            throw fail("\(error)", Exit.dataError)
        }
        if !history.skipped.isEmpty { skippedWarning("\(logs.joined(separator: ", ")): \(history.skipped.description)") }
        if factors {
            let f = Factors(history)
            try emit(csv ? f.csv() : json ? f.json() : f.table(), to: output)
            return
        }
        var text = csv ? history.csv() : json ? history.json() : html ? history.html(version: Release.version) : history.table()
        // How often each class was marked right or wrong (somniq label), under the table.
        let tally = LabelTally(history.labels)
        if !(csv || json || html), !tally.rows.isEmpty { text += "\n" + tally.table() }
        try emit(text, to: output)
    }
}
