import Foundation
import SomniqCapture
import SomniqTestSupport
import Testing

/// `somniq devices` and `somniq run --check-config` through real ALSA. This machine has no
/// sound card: the hardware rows are checked through `CaptureDevices.listing`, the empty
/// list, the plugins and the device check through the binary.
@Suite struct DevicesTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    private func somniq(_ arguments: String...) throws -> CommandResult {
        try runProgram(Paths.somniq, arguments, environment: rig.environment)
    }

    private func config(_ body: String) throws -> String {
        let path = rig.home + "/config-\(UUID().uuidString).json"
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let noHardware = "no capture hardware: no sound card with a capture device; is a microphone connected, "
        + "and the user in the `audio` group (sudo usermod -aG audio $USER, then log in again)?"

    @Test func withoutCaptureHardwareDevicesSaysWhatToDoAndExits69() throws {
        let r = try somniq("devices")
        let hardware = CaptureDevices.hardware()
        if hardware.isEmpty {
            #expect(r.status == 69 && r.stdout.isEmpty)
            #expect(r.stderr == "somniq: \(Self.noHardware) `somniq devices --all` also lists ALSA's plugins (pulse, …)\n")
        } else {
            #expect(r.status == 0 && hardware.allSatisfy { r.stdout.contains($0.pcm) }, "\(r.stdout)")
        }
    }

    @Test func devicesAllListsThePluginsAfterTheHardwareMarkedAndEscaped() throws {
        // A plugin whose description would drive the terminal and break the table.
        let asoundrc = try String(contentsOfFile: rig.home + "/.asoundrc", encoding: .utf8)
        try (asoundrc + "pcm.hostile {\n  type null\n  hint.description \"red\\033[31m\nsecond\\tline\"\n}\n")
            .write(toFile: rig.home + "/.asoundrc", atomically: true, encoding: .utf8)
        let r = try somniq("devices", "--all")
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("plugins: ") }, "\(r.stdout)")
        #expect(lines[header + 1].hasPrefix("plugin ") && lines[header + 1].hasSuffix(" description"))
        let plugins = lines[(header + 2)...].filter { !$0.isEmpty }
        let name = { (line: String) in String(line.prefix { $0 != " " }) }
        // ALSA's own plugins, and the test's fixture with its two lines joined.
        #expect(plugins.contains { name($0) == "null" })
        #expect(plugins.contains { name($0) == "fixture" && $0.hasSuffix(" somniq test fixture — raw S16_LE 16 kHz mono") })
        #expect(plugins.contains { name($0) == "hostile" && $0.hasSuffix(" red\\x{1b}[31m — second\\tline") })
        #expect(!r.stdout.contains("\u{1B}") && !r.stdout.contains("\t"))
        if CaptureDevices.hardware().isEmpty {
            #expect(lines.first == Self.noHardware && lines[1].isEmpty && header == 2)
        }
    }

    @Test func theListingNamesEachCardDeviceWithItsPlugNameThenThePlugins() {
        let hardware = [
            CaptureHardware(card: 0, device: 0, cardID: "PCH", cardName: "HDA Intel PCH", deviceName: "ALC3246 Analog"),
            CaptureHardware(card: 1, device: 0, cardID: "Device", cardName: "USB PnP Sound\u{1B}[2J Device", deviceName: "USB Audio"),
        ]
        #expect(hardware.map(\.pcm) == ["plughw:CARD=PCH,DEV=0", "plughw:CARD=Device,DEV=0"])
        #expect(CaptureDevices.listing(hardware: hardware, plugins: []) == """
            card  device  card id  card name                      device name     --device
            0     0       PCH      HDA Intel PCH                  ALC3246 Analog  plughw:CARD=PCH,DEV=0
            1     0       Device   USB PnP Sound\\x{1b}[2J Device  USB Audio       plughw:CARD=Device,DEV=0

            """)
        let plugins = [CapturePlugin(name: "pulse", description: "PulseAudio Sound Server"),
                       CapturePlugin(name: "dsnoop:CARD=PCH,DEV=0", description: "HDA Intel PCH, ALC3246 Analog\nDirect sample snooping device\n")]
        #expect(CaptureDevices.listing(hardware: Array(hardware.prefix(1)), plugins: plugins) == """
            card  device  card id  card name      device name     --device
            0     0       PCH      HDA Intel PCH  ALC3246 Analog  plughw:CARD=PCH,DEV=0

            plugins: PCMs of ALSA's configuration, not sound cards; each captures what it is configured to
            plugin                 description
            pulse                  PulseAudio Sound Server
            dsnoop:CARD=PCH,DEV=0  HDA Intel PCH, ALC3246 Analog — Direct sample snooping device

            """)
        #expect(CaptureDevices.listing(hardware: [], plugins: []) == Self.noHardware + "\n")
    }

    @Test func checkConfigOpensTheDeviceAndReadsAPeriod() throws {
        let raw = try rig.raw(from: 0, seconds: 2)
        let c = try config(#"{"device": "fixture:FILE=\#(raw)", "log": "\#(rig.home)/night.jsonl"}"#)
        let r = try somniq("run", "--check-config", "--config", c)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(r.stdout)")
        #expect(lines.first == "\(c): ok — device fixture:FILE=\(raw), profile balanced, log \(rig.home)/night.jsonl")
        // ALSA picks the period and buffer (0.5 s asked for); the format is what the daemon asks.
        #expect(lines.last?.hasPrefix("fixture:FILE=\(raw): capturing 16000 Hz, 1 channel, S16_LE, period ") == true, "\(r.stdout)")
        #expect(lines.last?.hasSuffix(", buffer 500 ms; read 1600 frames") == true, "\(r.stdout)")
        // A check neither writes the log nor leaves anything behind.
        #expect(!FileManager.default.fileExists(atPath: rig.home + "/night.jsonl"))
    }

    @Test func whatADeviceNegotiatedIsSaidInHertzChannelsAndMilliseconds() {
        #expect(AlsaCapture.Negotiated(rate: 16000, channels: 1, format: "S16_LE", periodFrames: 2000, bufferFrames: 8000).description
                == "16000 Hz, 1 channel, S16_LE, period 125 ms, buffer 500 ms")
        #expect(AlsaCapture.Negotiated(rate: 48000, channels: 2, format: "S32_LE", periodFrames: 1024, bufferFrames: 4096).description
                == "48000 Hz, 2 channels, S32_LE, period 21 ms, buffer 85 ms")
        // A device that reported no rate: frames, not a division by zero.
        #expect(AlsaCapture.Negotiated(rate: 0, channels: 1, format: "unknown", periodFrames: 64, bufferFrames: 256).description
                == "0 Hz, 1 channel, unknown, period 64 frames, buffer 256 frames")
    }

    @Test func checkConfigWithADeviceThatIsNotThereExits69NamingIt() throws {
        let r = try somniq("run", "--check-config", "--device", "hw:CARD=nope", "--log", rig.home + "/night.jsonl")
        #expect(r.status == 69 && r.stdout.isEmpty)
        #expect(r.stderr.hasSuffix("somniq: hw:CARD=nope: cannot open for capture: No such device; "
                                   + "check the name with `somniq devices` and that the microphone is plugged in\n"), "\(r.stderr)")
        // The configuration and the profile are checked first: a bad profile is bad input data.
        let bad = try somniq("run", "--check-config", "--device", "hw:CARD=nope", "--profile", "nonesuch")
        #expect(bad.status == 65 && !bad.stderr.contains("hw:CARD=nope"), "\(bad.stderr)")
    }

    @Test(.enabled(if: getuid() == 0, "runs somniq as nobody"))
    func aUserWhoCannotWriteTheDefaultLogIsToldToPassLog() throws {
        // No "log": the default, /var/lib/somniq, which is the service's and not nobody's,
        // whether it exists here or not. The device is there, so only the log can fail.
        let c = try config(#"{"device": "fixture:FILE=/dev/zero"}"#)
        let asNobody = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", Paths.somniq, "run", "--config", c, "--max-seconds", "1"]
        let r = try runProgram("/usr/bin/setpriv", asNobody, environment: rig.environment)
        #expect(r.status == 74)
        #expect(r.stderr.hasPrefix("somniq: /var/lib/somniq/events.jsonl: cannot write the event log: "), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("; that is the default log, in the service's state directory: "
                                   + "pass --log PATH, or set \"log\" in the configuration\n"), "\(r.stderr)")
        // A log that was given is the user's own choice: only its directory is in question.
        let given = try runProgram("/usr/bin/setpriv", asNobody + ["--log", rig.home + "/night.jsonl"], environment: rig.environment)
        #expect(given.status == 74)
        #expect(given.stderr == "somniq: \(rig.home)/night.jsonl: cannot write the event log: Permission denied; "
                + "check the permissions of the log's directory\n")
    }
}
