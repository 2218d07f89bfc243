import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

/// `make install` as a Debian package build runs it (`DESTDIR`, `PREFIX=/usr`), installing
/// the somniq under test (`SOMNIQ_BIN`): what it installs works where it is put, and
/// `make uninstall` takes all of it away again but the configuration.
final class InstallTests {
    let root = temporaryDirectory()
    var usr: String { root + "/usr" }
    let fm = FileManager.default

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// Without the `build` prerequisite (`-o build`): the tests run inside a SwiftPM build
    /// and must not start another.
    func make(_ target: String) throws {
        try #require(fm.isExecutableFile(atPath: Paths.somniq), "no somniq at \(Paths.somniq)")
        let r = try runProgram("/usr/bin/make", ["-s", "-C", Paths.package, "-o", "build", target,
                                                 "DESTDIR=\(root)", "PREFIX=/usr", "SOMNIQ_BIN=\(Paths.somniq)"])
        try #require(r.status == 0, "make \(target): \(r.stdout)\(r.stderr)")
    }

    /// Every file under the staging root, relative to it.
    func installed() -> [String] {
        let files = fm.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return files.filter { path in
            var directory: ObjCBool = false
            return fm.fileExists(atPath: root + "/" + path, isDirectory: &directory) && !directory.boolValue
        }.sorted()
    }

    func sameFile(_ installed: String, as source: String) -> Bool {
        fm.contentsEqual(atPath: root + "/" + installed, andPath: Paths.package + "/" + source)
    }

    @Test func installPutsEachPieceWhereDebianLooksAndUninstallRemovesIt() throws {
        try make("install")
        let profiles = Profile.builtinNames.map { "\($0).json" }
        #expect(installed() == ([
            "etc/somniq/config.json",
            "usr/bin/somniq",
            "usr/lib/systemd/system/somniq.service",
            "usr/share/bash-completion/completions/somniq",
            "usr/share/fish/vendor_completions.d/somniq.fish",
            "usr/share/man/man1/somniq.1.gz",
            "usr/share/somniq/examples/network.conf",
            "usr/share/somniq/examples/web.conf",
            "usr/share/somniq/schemas/config.schema.json",
            "usr/share/somniq/schemas/event-log.schema.json",
            "usr/share/somniq/schemas/profile.schema.json",
            "usr/share/zsh/vendor-completions/_somniq",
        ] + profiles.map { "usr/share/somniq/profiles/" + $0 }).sorted())

        let file = try runProgram("/usr/bin/file", ["-b", usr + "/bin/somniq"])
        #expect(file.stdout.contains(", stripped"), "\(file.stdout)")
        let version = try runProgram(usr + "/bin/somniq", ["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty, "the stripped binary does not run: \(version.stderr)")

        let unit = try String(contentsOfFile: usr + "/lib/systemd/system/somniq.service", encoding: .utf8)
        #expect(SystemdUnitTests.directives(unit).filter { $0.key == "ExecStart" }.map(\.value)
                == ["/usr/bin/somniq run --config /etc/somniq/config.json"])
        #expect(sameFile("etc/somniq/config.json", as: "config/config.json"))
        for p in profiles { #expect(sameFile("usr/share/somniq/profiles/" + p, as: "profiles/" + p), "\(p)") }
        for s in ["profile", "config", "event-log"] {
            #expect(sameFile("usr/share/somniq/schemas/\(s).schema.json", as: "schemas/\(s).schema.json"))
        }
        // The network drop-in is an example, not in force until copied to somniq.service.d/.
        #expect(sameFile("usr/share/somniq/examples/network.conf", as: "systemd/network.conf"))
        #expect(sameFile("usr/share/somniq/examples/web.conf", as: "systemd/web.conf"))

        try make("uninstall")
        #expect(installed() == ["etc/somniq/config.json"], "uninstall leaves the configuration and nothing else")
    }

    /// `man somniq` finds the page where man looks under a prefix, and it renders without a warning.
    @Test func theManualPageIsFoundAndRenders() throws {
        try make("install")
        let found = try runProgram("/usr/bin/man", ["-M", usr + "/share/man", "-w", "somniq"])
        #expect(found.stdout == usr + "/share/man/man1/somniq.1.gz\n", "\(found.stdout)\(found.stderr)")
        let man = try runProgram("/usr/bin/man", ["--warnings", "-l", usr + "/share/man/man1/somniq.1.gz"],
                                 environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "80", "LANG": "C.UTF-8"])
        #expect(man.status == 0 && man.stderr.isEmpty, "\(man.stderr)")
        #expect(man.stdout.hasPrefix("SOMNIQ(1)"))
        let lines = man.stdout.split(separator: "\n")
        for command in ["run", "replay", "eval", "profiles", "report", "history"] {
            #expect(lines.contains { $0 == "     \(command)" || $0.hasPrefix("     \(command) ") }, "the page does not describe \(command)")
        }
    }

    @Test func theInstalledCompletionsOfferProfileNames() throws {
        try make("install")
        let bash = usr + "/share/bash-completion/completions/somniq"
        #expect(try bashCompletions(script: bash, binDirectory: usr + "/bin", "somniq", "replay", "--profile", "bal") == ["balanced"])
        #expect(try bashCompletions(script: bash, binDirectory: usr + "/bin", "somniq", "pro") == ["profiles"])
        #expect(try String(contentsOfFile: usr + "/share/zsh/vendor-completions/_somniq", encoding: .utf8).hasPrefix("#compdef somniq"))
        #expect(try String(contentsOfFile: usr + "/share/fish/vendor_completions.d/somniq.fish", encoding: .utf8)
                    .contains("---completion run -- --profile"))
    }

    @Test func reinstallingAndUninstallingKeepAnEditedConfiguration() throws {
        try make("install")
        let config = root + "/etc/somniq/config.json"
        let edited = #"{"device": "hw:1", "profile": "sensitive"}"# + "\n"
        try edited.write(toFile: config, atomically: true, encoding: .utf8)
        try make("install")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == edited)
        try make("uninstall")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == edited)
    }
}
