import ArgumentParser
import Foundation
import SomniqCore
import SomniqIO

@main
struct Somniq: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "somniq",
        abstract: "Listens to a bedroom and keeps an honest log of the night's sounds.",
        discussion: """
        somniq recognises snoring, coughing, speech, a baby crying, a smoke alarm and \
        other sounds of the night with hand-written DSP rules, and passes every detection \
        through a tiered alert processor into a durable JSON Lines event log.
        """,
        version: version,
        subcommands: [Run.self, Replay.self, Report.self, HistoryCommand.self, Eval.self, Profiles.self, Devices.self, Bench.self, Features.self])
}

/// Exit codes of SPEC §6 (from sysexits.h).
enum Exit {
    static let usage = ExitCode(64)
    static let dataError = ExitCode(65)
    static let unavailable = ExitCode(69)
    static let ioError = ExitCode(74)
}

/// Prints `somniq: message` to standard error and returns the exit code to throw.
func fail(_ message: String, _ code: ExitCode) -> ExitCode {
    var err = StandardError()
    print("somniq: \(message)", to: &err)
    return code
}

/// Writes a report to `output` (whole, through a renamed temporary file) or to standard output.
func emit(_ text: String, to output: String?) throws {
    guard let output else {
        FileHandle.standardOutput.write(Data(text.utf8))
        return
    }
    do { try NightReports.write(text, to: output) } catch { throw fail("\(error)", Exit.ioError) }
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
