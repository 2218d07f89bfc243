import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

/// `replay --threads 2` decodes on a thread of its own, which analyses windows ahead when it
/// has time: it must print what one thread prints, byte for byte, whatever the file (its rate,
/// its channels, a break midway) and whichever thread analysed which window.
struct ReadAheadTests {
    let dir = temporaryDirectory()

    private func replay(_ path: String, threads: Int) throws -> CommandResult {
        try somniq("replay", "--threads", String(threads), "--format", "jsonl", path)
    }

    @Test func twoThreadsPrintWhatOnePrints() throws {
        let stereo48k = dir + "/night-48k.flac", wav = dir + "/night.wav", phone = dir + "/night-8k.wav"
        // At 500 Hz a block (8,192 frames, 262,144 samples at 16 kHz) completes more windows
        // (32) than the reader keeps (24): it waits for all of them to be taken, and keeps what fits.
        let slow = dir + "/night-500.wav"
        try sox(Paths.demoNight, "-r", "48000", "-c", "2", stereo48k)
        try sox(Paths.demoNight, wav)
        try sox(Paths.demoNight, "-r", "8000", phone)
        try sox(Paths.demoNight, "-r", "500", slow, "trim", "0", "60")
        for path in [Paths.demoNight, stereo48k, wav, phone, slow] {
            let one = try replay(path, threads: 1), two = try replay(path, threads: 2)
            #expect(one.status == 0 && two.status == 0, "\(two.stderr)")
            #expect(!one.stdout.isEmpty && one.stdout == two.stdout, "\(path): two threads printed something else")
        }
    }

    @Test func aFileThatBreaksOffEndsAsOnOneThread() throws {
        let whole = dir + "/whole.flac", broken = dir + "/broken.flac"
        try sox(Paths.demoNight, whole, "trim", "0", "90")
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: whole)))
        for i in data.count / 2 ..< data.count / 2 + 20_000 { data[i] = UInt8(truncatingIfNeeded: i &* 7919) }
        try Data(data).write(to: URL(fileURLWithPath: broken))
        let one = try replay(broken, threads: 1), two = try replay(broken, threads: 2)
        #expect(one.status == 65 && two.status == 65)
        #expect(one.stdout == two.stdout && one.stderr == two.stderr)
        #expect(two.stdout.contains("\"reason\":\"decode_error\""))
    }

    @Test func threadsOtherThanOneOrTwoAreRefused() throws {
        let r = try somniq("replay", "--threads", "3", Paths.demoNight)
        #expect(r.status == 64)
        #expect(r.stderr.contains("--threads must be 1 or 2"), "\(r.stderr)")
    }
}
