import Foundation
import Testing
import SomniqCore

/// What somniq prints for the demo night and every clip in `fixtures/clips` — each window's
/// features and scores, and the event log — is byte for byte what `scripts/golden.sh`
/// recorded in `fixtures/golden/outputs.sha256`. A change meant only to make somniq faster
/// must leave every one of these alone; one that changes them re-records them and says why.
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
    }

    @Test(arguments: recorded.map(\.command))
    func theOutputIsByteIdenticalToTheRecordedOne(command: [String]) throws {
        // Run where the script ran: the log names the file as it was given.
        let r = try runProgram(Paths.somniq, command, directory: Paths.package)
        #expect(r.status == 0, "\(r.stderr)")
        let expected = Self.recorded.first { $0.command == command }!.sha256
        #expect(SHA256.hex(Array(r.stdout.utf8)) == expected, "\(command.joined(separator: " ")) printed something else")
    }
}
