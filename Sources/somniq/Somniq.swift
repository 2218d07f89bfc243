import ArgumentParser
import FoundationEssentials
import Glibc
import SomniqCore
import SomniqReports
import SomniqSupport

@main
struct Somniq: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "somniq",
        abstract: "Listens to a bedroom and keeps an honest log of the night's sounds.",
        discussion: """
        somniq recognises snoring, coughing, speech, a baby crying, a smoke alarm and \
        other sounds of the night with hand-written DSP rules, pattern detectors and rules \
        learned from recordings, and passes every detection \
        through a tiered alert processor into a durable JSON Lines event log.
        """,
        version: Release.version,
        subcommands: [Run.self, TestAlert.self, Serve.self, Replay.self, Report.self, HistoryCommand.self, EpisodeCommand.self, Label.self, Clips.self, Eval.self, Compare.self, Profiles.self, Devices.self, Bench.self, Features.self, RulesCommand.self, Learn.self])

    /// A write to a closed pipe or past a file-size limit is an I/O error every command
    /// reports (exit 74, naming the output), not a signal that ends it without a word.
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        await main(nil)
    }
}

/// Exit codes of the command line (docs/behaviour.md#command-line), from sysexits.h.
enum Exit {
    static let usage = ExitCode(64)
    static let dataError = ExitCode(65)
    static let unavailable = ExitCode(69)
    static let ioError = ExitCode(74)
    /// `replay --config`: the replay is whole, but some notifications were not delivered (EX_TEMPFAIL).
    static let undelivered = ExitCode(75)
}

/// Prints `somniq: message` to standard error and returns the exit code to throw. The
/// message is one line: a control character in it (from a file or device name) is
/// written as an escape and cannot start a line of its own or drive the terminal.
func fail(_ message: String, _ code: ExitCode) -> ExitCode {
    var err = StandardError()
    print("somniq: \(LogText.escape(message))", to: &err)
    return code
}

/// Writes a report to `output` (whole, through a renamed temporary file) or to standard output.
func emit(_ text: String, to output: String?) throws {
    guard let output else {
        let failure = writeAll(STDOUT_FILENO, Array(text.utf8))
        if failure != 0 { throw fail("standard output: cannot write: \(String(cString: strerror(failure)))", Exit.ioError) }
        return
    }
    do { try NightReports.write(text, to: output) } catch { throw fail("\(error)", Exit.ioError) }
}
