import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

/// What bash offers on TAB after the command line `words` (the last is the word being
/// completed), using the completion script at `script`; the script calls back the
/// `somniq` it finds in `binDirectory`.
func bashCompletions(script: String, binDirectory: String, _ words: String...) throws -> [String] {
    let driver = """
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _somniq somniq "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf '%s\\n' "${COMPREPLY[@]}"
    """
    let r = try runProgram("/bin/bash", ["-c", driver, "bash", script] + words,
                           environment: ["PATH": binDirectory + ":/usr/bin:/bin"])
    guard r.status == 0 else { throw NSError(domain: "bash", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
    return r.stdout.split(separator: "\n").map(String.init)
}

/// `--profile` and `profiles show` complete the names a profile can be given by: the
/// built-ins and the files in the profile directory.
final class ProfileCompletionTests {
    let dir = temporaryDirectory()
    let script: String
    let bin = URL(fileURLWithPath: Paths.somniq).deletingLastPathComponent().path

    init() throws {
        script = dir + "/somniq.bash"
        let r = try somniq("--generate-completion-script", "bash")
        try #require(r.status == 0, "\(r.stderr)")
        try r.stdout.write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/profiles", withIntermediateDirectories: true)
        try "{}".write(toFile: dir + "/profiles/night.json", atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    @Test func profileOptionsOfferTheBuiltins() throws {
        for command in ["run", "replay", "eval"] {
            let offered = try bashCompletions(script: script, binDirectory: bin, "somniq", command, "--profile", "")
            #expect(Set(Profile.builtinNames).isSubset(of: offered), "\(command): \(offered)")
        }
        #expect(try bashCompletions(script: script, binDirectory: bin, "somniq", "replay", "--profile", "con") == ["conservative"])
        #expect(try bashCompletions(script: script, binDirectory: bin, "somniq", "run", "--profile", "very_") == ["very_conservative", "very_sensitive"])
    }

    @Test func evalAlsoOffersAll() throws {
        #expect(try bashCompletions(script: script, binDirectory: bin, "somniq", "eval", "--profile", "a") == ["all"])
        #expect(try bashCompletions(script: script, binDirectory: bin, "somniq", "replay", "--profile", "a").isEmpty)
    }

    @Test func theProfileDirectoryOnTheCommandLineIsListed() throws {
        let offered = try bashCompletions(script: script, binDirectory: bin, "somniq", "profiles", "show", "--profile-dir", dir + "/profiles", "")
        #expect(offered.sorted() == (Profile.builtinNames + ["night"]).sorted())
        #expect(try bashCompletions(script: script, binDirectory: bin, "somniq", "replay", "--profile-dir=\(dir)/profiles", "--profile", "n") == ["night"])
    }
}
