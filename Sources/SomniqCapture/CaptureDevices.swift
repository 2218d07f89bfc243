import CALSA
import FoundationEssentials
import Glibc
import SomniqSupport

/// A capture device on a sound card, as ALSA's control interface reports it.
public struct CaptureHardware: Sendable, Equatable {
    public var card: Int, device: Int
    /// The card's short id (`PCH`, `Device`): unlike its number, it stays the same when
    /// another card is plugged in.
    public var cardID: String
    public var cardName: String
    /// The PCM's own name (`ALC3246 Analog`, `USB Audio`).
    public var deviceName: String

    public init(card: Int, device: Int, cardID: String, cardName: String, deviceName: String) {
        self.card = card
        self.device = device
        self.cardID = cardID
        self.cardName = cardName
        self.deviceName = deviceName
    }

    /// The name to give `--device`: the card by its id, through the `plug` layer, which
    /// converts the device's own rate and channels to 16 kHz mono.
    public var pcm: String { "plughw:CARD=\(cardID),DEV=\(device)" }
}

/// A PCM that ALSA's configuration defines rather than a sound card: a plugin or a virtual
/// device (`pulse`, `null`, a `pcm.NAME` of `~/.asoundrc` with a hint), from the name hints.
public struct CapturePlugin: Sendable, Equatable {
    public var name: String
    /// ALSA's description, which may run over several lines.
    public var description: String

    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }
}

/// What `somniq devices` lists: the capture hardware of every sound card, and ALSA's
/// plugins that can capture.
public enum CaptureDevices {
    /// Every device of every card that has a capture substream. A card whose control
    /// device this user may not open (not in the `audio` group) is not seen by ALSA.
    public static func hardware() -> [CaptureHardware] {
        var found: [CaptureHardware] = []
        var cardInfo: OpaquePointer?, pcmInfo: OpaquePointer?
        guard snd_ctl_card_info_malloc(&cardInfo) >= 0, snd_pcm_info_malloc(&pcmInfo) >= 0 else { return [] }
        defer {
            snd_ctl_card_info_free(cardInfo)
            snd_pcm_info_free(pcmInfo)
        }
        var card: Int32 = -1
        while snd_card_next(&card) >= 0, card >= 0 {
            var handle: OpaquePointer?
            guard snd_ctl_open(&handle, "hw:\(card)", 0) >= 0, let ctl = handle else { continue }
            defer { snd_ctl_close(ctl) }
            guard snd_ctl_card_info(ctl, cardInfo) >= 0 else { continue }
            let id = String(cString: snd_ctl_card_info_get_id(cardInfo))
            let name = String(cString: snd_ctl_card_info_get_name(cardInfo))
            var device: Int32 = -1
            while snd_ctl_pcm_next_device(ctl, &device) >= 0, device >= 0 {
                snd_pcm_info_set_device(pcmInfo, UInt32(device))
                snd_pcm_info_set_subdevice(pcmInfo, 0)
                snd_pcm_info_set_stream(pcmInfo, SND_PCM_STREAM_CAPTURE)
                // Fails (ENOENT) for a device that only plays.
                guard snd_ctl_pcm_info(ctl, pcmInfo) >= 0 else { continue }
                found.append(CaptureHardware(card: Int(card), device: Int(device), cardID: id, cardName: name,
                                             deviceName: String(cString: snd_pcm_info_get_name(pcmInfo))))
            }
        }
        return found
    }

    /// PCMs from ALSA's name hints that can capture: hints marked output-only are skipped.
    public static func plugins() -> [CapturePlugin] {
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var out: [CapturePlugin] = []
        var i = 0
        while let hint = hints[i] {
            i += 1
            func get(_ key: String) -> String? {
                guard let p = snd_device_name_get_hint(hint, key) else { return nil }
                defer { free(p) }
                return String(cString: p)
            }
            guard let name = get("NAME"), get("IOID") != "Output" else { continue }
            out.append(CapturePlugin(name: name, description: get("DESC") ?? ""))
        }
        return out
    }

    /// Why the list is empty, and what to do.
    public static let noHardware = "no capture hardware: no sound card with a capture device; is a microphone connected, "
        + "and the user in the `audio` group (sudo usermod -aG audio $USER, then log in again)?"

    /// The table `somniq devices` prints: hardware first, with the name to give `--device`,
    /// then the plugins, marked as such. Names and descriptions come from drivers and
    /// configuration files: a description's lines are joined with " — " and control
    /// characters are escaped.
    public static func listing(hardware: [CaptureHardware], plugins: [CapturePlugin]) -> String {
        var out = ""
        if hardware.isEmpty {
            out += noHardware + "\n"
        } else {
            out += table([["card", "device", "card id", "card name", "device name", "--device"]]
                         + hardware.map { ["\($0.card)", "\($0.device)", $0.cardID, $0.cardName, $0.deviceName, $0.pcm] })
        }
        guard !plugins.isEmpty else { return out }
        out += "\nplugins: PCMs of ALSA's configuration, not sound cards; each captures what it is configured to\n"
        return out + table([["plugin", "description"]] + plugins.map {
            [$0.name, $0.description.split(whereSeparator: \.isNewline).joined(separator: " — ")]
        })
    }

    /// Left-aligned columns, outside text escaped; the last column is not padded.
    private static func table(_ rows: [[String]]) -> String {
        let cells = rows.map { $0.map(LogText.escape) }
        let widths = cells[0].indices.map { column in cells.map { $0[column].count }.max()! + 2 }
        return cells.map { row in
            row.indices.map { $0 == row.count - 1 ? row[$0] : padded(row[$0], widths[$0]) }.joined() + "\n"
        }.joined()
    }
}
