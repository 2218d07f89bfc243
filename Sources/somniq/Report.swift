import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqCore
import SomniqReports
import SomniqSupport

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show a night from the event log: its level, its sounds, snoring, alerts.",
        discussion: """
        Writes one self-contained HTML page (inline SVG and CSS, no script, no external \
        URL): the night's level with every sound on a lane under it, sounds and snore \
        intensity per 15 minutes, the figures per class, every alert with its decision \
        trace, device and input incidents. --format text prints the same summary for a \
        terminal. A night runs from noon to noon, local time; a replayed recording with no \
        start time is a night of its own, named by its path.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case html, text }

    @Argument(help: "The event log (JSON Lines).", completion: .file())
    var log: String

    @Option(help: "The night, by the date of its evening (2026-11-22); default: the last in the log.")
    var night: String?

    @Option(help: "html or text.")
    var format = Format.html

    @Option(help: "Write to this file instead of standard output.")
    var output: String?

    @Option(name: .customLong("labels-from"), help: ArgumentHelp("Also read the labels (somniq label) in this log: a newer one, when LOG was rotated (repeat for more).", valueName: "log"), completion: .file())
    var labelsFrom: [String] = []

    @OptionGroup var zone: ZoneOption

    func run() throws {
        try zone.use()
        // A night written as a date must be one (a recording's is its path).
        if let night, History.writtenAsDate(night), let problem = History.dateProblem(night) {
            throw fail("night \(night): \(problem)", Exit.usage)
        }
        var n: Night
        do { n = try NightReports.night(in: log, key: night) } catch { throw fail("\(error)", Exit.dataError) }
        if !labelsFrom.isEmpty {
            do { n.labels.merge(try LoggedEvents(logs: labelsFrom).labels.of(n.key)) { a, b in b.time >= a.time ? b : a } } catch {
                throw fail("\(error)", Exit.dataError)
            }
        }
        if !n.skipped.isEmpty { skippedWarning("\(log): \(n.skipped.description)") }
        let text = format == .html ? HTMLReport.render(n, version: Release.version) : TextReport.render(n)
        try emit(text, to: output)
    }
}

/// `somniq: warning: LOG: 2 lines skipped: not a record` on standard error, once a command
/// (the report and the history say it too); control characters escaped.
func skippedWarning(_ message: String) {
    var err = StandardError()
    print("somniq: warning: \(LogText.escape(message))", to: &err)
}
