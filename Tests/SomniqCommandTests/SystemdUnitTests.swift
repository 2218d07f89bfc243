import Foundation
import SomniqConfig
import SomniqTestSupport
import Testing

/// `systemd/somniq.service` and `config/config.json` (docs/behaviour.md#running-as-a-service); `make install` is in InstallTests.
@Suite struct SystemdUnitTests {
    static let unit = Paths.package + "/systemd/somniq.service"
    static let execStart = "/usr/local/bin/somniq run --config /etc/somniq/config.json"
    static let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The unit's `Key=value` lines, in order (comments and section headers left out).
    static func directives(_ text: String) -> [(key: String, value: String)] {
        text.split(separator: "\n").compactMap { line in
            let l = line.trimmingCharacters(in: .whitespaces)
            guard !l.isEmpty, !l.hasPrefix("#"), !l.hasPrefix(";"), !l.hasPrefix("["),
                  let eq = l.firstIndex(of: "=") else { return nil }
            return (String(l[..<eq]), String(l[l.index(after: eq)...]))
        }
    }

    /// A copy of the unit in `directory` whose ExecStart names an executable that exists
    /// here (the somniq under test, else /bin/true): `verify` rejects a missing binary, and
    /// the installed path is only there after `make install`.
    static func unitCopy(in directory: String) throws -> String {
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        let binary = FileManager.default.isExecutableFile(atPath: Paths.somniq) ? Paths.somniq : "/bin/true"
        let path = directory + "/somniq.service"
        try text.replacingOccurrences(of: "ExecStart=/usr/local/bin/somniq ", with: "ExecStart=\(binary) ")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func requireAnalyze() throws -> String {
        try #require(analyze, "systemd-analyze not found: install the Debian package `systemd` (make test-deps)")
    }

    @Test func unitSetsWhatTheSpecAsks() throws {
        let d = Self.directives(try String(contentsOfFile: Self.unit, encoding: .utf8))
        func values(_ key: String) -> [String] { d.filter { $0.key == key }.map(\.value) }
        #expect(values("ExecStart") == [Self.execStart])
        let required: [(String, String)] = [
            ("Type", "notify"), ("NotifyAccess", "main"), ("WatchdogSec", "30"), ("Restart", "on-failure"),
            ("ExecReload", "/bin/kill -HUP $MAINPID"), ("TimeoutStopSec", "5"),
            ("DynamicUser", "yes"), ("SupplementaryGroups", "audio"),
            ("StateDirectory", "somniq"), ("ConfigurationDirectory", "somniq"),
            ("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
            ("NoNewPrivileges", "yes"), ("RestrictAddressFamilies", "AF_UNIX"),
            ("DevicePolicy", "closed"), ("DeviceAllow", "char-alsa rw"), ("CapabilityBoundingSet", ""),
            ("WantedBy", "multi-user.target"),
        ]
        for (key, value) in required {
            #expect(values(key) == [value], "\(key)=\(value)")
        }
        // PrivateDevices=yes would hide /dev/snd from the daemon.
        #expect(values("PrivateDevices").allSatisfy { $0 == "no" || $0 == "false" })
    }

    @Test func systemdAnalyzeVerifyIsSilent() throws {
        let analyze = try Self.requireAnalyze()
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try runProgram(analyze, ["verify", try Self.unitCopy(in: dir)])
        #expect(r.status == 0)
        #expect(r.stderr == "", "systemd-analyze verify: \(r.stderr)")
        #expect(r.stdout == "")
    }

    /// `systemd-analyze security`'s overall exposure of a unit file.
    static func exposure(_ unit: String) throws -> Double {
        let r = try runProgram(try requireAnalyze(), ["security", "--offline=yes", "--no-pager", unit])
        #expect(r.status == 0, "\(r.stderr)")
        // "→ Overall exposure level for somniq.service: 0.6 SAFE 😀"
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") },
                                "no overall exposure in: \(r.stdout)\(r.stderr)")
        return try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) },
                            "cannot read a number in: \(line)")
    }

    @Test func securityExposureIsAtMostTwo() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let exposure = try Self.exposure(try Self.unitCopy(in: dir))
        print("systemd-analyze security somniq.service: \(exposure)")
        #expect(exposure <= 2.0)
    }

    /// The unit with the drop-in `systemd/NAME` applied as systemd applies one (its
    /// [Service] lines after the unit's): `systemd-analyze verify` is silent on it, and its
    /// exposure is at most 2.0. Returns the drop-in's directives.
    func applyDropIn(_ name: String) throws -> [(key: String, value: String)] {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let unit = try Self.unitCopy(in: dir)
        let dropIn = try String(contentsOfFile: Paths.package + "/systemd/" + name, encoding: .utf8)
        try (try String(contentsOfFile: unit, encoding: .utf8) + "\n" + dropIn).write(toFile: unit, atomically: true, encoding: .utf8)
        let verify = try runProgram(try Self.requireAnalyze(), ["verify", unit])
        #expect(verify.stderr == "", "systemd-analyze verify: \(verify.stderr)")
        let exposure = try Self.exposure(unit)
        print("systemd-analyze security somniq.service + \(name): \(exposure)")
        #expect(exposure <= 2.0)
        return Self.directives(dropIn)
    }

    /// The network drop-in: still at most 2.0, and it opens IPv4/IPv6 to the allowed
    /// addresses only.
    @Test func theNetworkDropInKeepsExposureAtMostTwo() throws {
        let d = try applyDropIn("network.conf")
        #expect(d.filter { $0.key == "RestrictAddressFamilies" }.map(\.value) == ["", "AF_UNIX AF_INET AF_INET6"])
        #expect(d.contains { $0.key == "PrivateNetwork" && $0.value == "no" })
        // It does not lift the unit's IPAddressDeny=any.
        #expect(!d.contains { $0.key == "IPAddressDeny" })
    }

    /// The web page's drop-in: still at most 2.0; the host's network, IPv4/IPv6 to and from
    /// the allowed prefixes only, and the token handed over as a credential.
    @Test func theWebDropInKeepsExposureAtMostTwo() throws {
        let d = try applyDropIn("web.conf")
        #expect(d.filter { $0.key == "RestrictAddressFamilies" }.map(\.value) == ["", "AF_UNIX AF_INET AF_INET6"])
        #expect(d.contains { $0.key == "PrivateNetwork" && $0.value == "no" })
        #expect(!d.contains { $0.key == "IPAddressDeny" })
        #expect(d.contains { $0.key == "LoadCredential" && $0.value == "web-token:/etc/somniq/web-token" })
    }

    @Test func defaultConfigIsTheBuiltInDefaults() throws {
        let path = Paths.package + "/config/config.json"
        let data = try #require(FileManager.default.contents(atPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["device", "profile", "log", "silence_s", "clipping_s", "room", "//http"])
        // The web page is off, and the comment says how to turn it on with its public address.
        #expect((object["//http"] as? String)?.contains("\"public_url\": \"https://somniq.home:8443\"") == true)
        #expect(try DaemonConfig.read(path: path) == DaemonConfig())
    }
}
