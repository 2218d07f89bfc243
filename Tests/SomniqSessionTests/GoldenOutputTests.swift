import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

/// What somniq prints for the demo night and every clip in `fixtures/clips` — each window's
/// features and scores, and the event log — is byte for byte what `scripts/golden.sh`
/// recorded in `fixtures/golden/outputs/` (as text: a change shows as a diff, and a failure
/// names the first line that differs), whose SHA-256 `fixtures/golden/outputs.sha256` lists.
/// A change meant only to make somniq faster must leave every one of these alone; one that
/// changes them re-records them and says why.
struct GoldenOutputTests {
    static let recorded: [(sha256: String, command: [String])] = {
        let text = (try? String(contentsOfFile: Paths.fixtures + "/golden/outputs.sha256", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init))
        }
    }()

    @Test func everyRecordedOutputIsThere() {
        // The demo night and each clip, two outputs each.
        let clips = (try? FileManager.default.subpathsOfDirectory(atPath: Paths.fixtures + "/clips"))?.filter { $0.hasSuffix(".flac") } ?? []
        #expect(Self.recorded.count == 2 * (1 + clips.count))
        // Each kept as text, and nothing else kept.
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: Paths.fixtures + "/golden/outputs")) ?? []
        #expect(Set(kept.map { Paths.fixtures + "/golden/outputs/" + $0 }) == Set(Self.recorded.map { Self.outputFile($0.command) }))
    }

    /// The file `scripts/golden.sh` keeps a command's output in: its recording's path below
    /// `fixtures/`, "/" made "_", and what the command prints.
    static func outputFile(_ command: [String]) -> String {
        let path = command.last!.dropFirst("fixtures/".count).dropLast(".flac".count).replacing("/", with: "_")
        return Paths.fixtures + "/golden/outputs/\(path).\(command[0] == "features" ? "features.tsv" : "replay.jsonl")"
    }

    @Test(arguments: recorded.map(\.command))
    func theOutputIsByteIdenticalToTheRecordedOne(command: [String]) throws {
        // Run where the script ran: the log names the file as it was given.
        let r = try runProgram(Paths.somniq, command, directory: Paths.package)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = try String(contentsOfFile: Self.outputFile(command), encoding: .utf8)
        #expect(SHA256.hex(Array(expected.utf8)) == Self.recorded.first { $0.command == command }!.sha256,
                "\(Self.outputFile(command)) is not the output outputs.sha256 recorded")
        guard r.stdout != expected else { return }
        let got = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(got.count, want.count)
        Issue.record("""
            \(command.joined(separator: " ")) printed something else, first at line \(line + 1) of \(Self.outputFile(command)):
            recorded: \(line < want.count ? String(want[line]) : "(the end)")
            now:      \(line < got.count ? String(got[line]) : "(the end)")
            """)
    }
}
