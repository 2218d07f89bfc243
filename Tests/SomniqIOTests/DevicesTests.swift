import Foundation
@testable import SomniqIO
import Testing

/// `somniq devices` through real ALSA. This machine has no sound card: the hardware rows
/// are checked through `CaptureDevices.listing`, the empty list and the plugins through
/// the binary.
@Suite struct DevicesTests {
    let rig: LiveRig
    init() throws { rig = try LiveRig() }

    private func somniq(_ arguments: String...) throws -> CommandResult {
        try runProgram(Paths.somniq, arguments, environment: rig.environment)
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
}
