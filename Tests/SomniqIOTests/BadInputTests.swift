import Foundation
import Testing
@testable import SomniqIO

@Suite struct BadInputTests {
    let dir = temporaryDirectory()

    @Test func corruptFileExits65NamingTheFile() throws {
        let path = dir + "/noise.wav"
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }).write(to: URL(fileURLWithPath: path))
        let r = try somniq("replay", path)
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("somniq: \(path): not an audio file libsndfile can read"))
    }

    @Test func truncatedFileExits65() throws {
        let whole = dir + "/whole.wav", cut = dir + "/cut.wav"
        try sox(Paths.demoNight, whole, "trim", "0", "10")
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let r = try somniq("replay", cut)
        #expect(r.status == 65)
        #expect(r.stderr.contains("\(cut): the header promises more audio than the file holds"))
        #expect(r.stderr.contains("truncated"))
    }

    @Test func truncatedFlacExits65() throws {
        let whole = dir + "/whole.flac", cut = dir + "/cut.flac"
        try sox(Paths.demoNight, whole, "trim", "0", "20")
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let r = try somniq("replay", cut)
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("somniq: \(cut): "))
        #expect(r.stderr.contains("truncated") || r.stderr.contains("damaged"))
    }

    @Test func emptyFileExits65() throws {
        let empty = dir + "/empty.wav"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let r = try somniq("replay", empty)
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("somniq: \(empty): "))
        // A well-formed WAV with no samples is also empty.
        let noFrames = dir + "/zero.wav"
        try sox("-n", "-r", "16000", "-c", "1", noFrames, "trim", "0", "0")
        let z = try somniq("replay", noFrames)
        #expect(z.status == 65)
        #expect(z.stderr == "somniq: \(noFrames): contains no audio (0 frames); record or choose a file with sound in it\n")
    }

    @Test func missingFileExits65() throws {
        let r = try somniq("replay", dir + "/nope.flac")
        #expect(r.status == 65)
        #expect(r.stderr == "somniq: \(dir)/nope.flac: no such file; check the path\n")
    }

    @Test func badProfileExits65WithKeyPath() throws {
        let path = dir + "/night.json"
        let text = try String(contentsOfFile: Paths.package + "/profiles/balanced.json", encoding: .utf8)
            .replacingOccurrences(of: "\"classes\": {", with: "\"classes\": {\n    \"snoring\": {\"off\": 0.8},")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try somniq("profiles", "validate", path)
        #expect(r.status == 65)
        #expect(r.stderr == "\(path): classes.snoring.off: 0.8 is above on (0.7)\n")
        let replay = try somniq("replay", "--profile", path, Paths.demoNight)
        #expect(replay.status == 65)
        #expect(replay.stderr == "somniq: \(path): classes.snoring.off: 0.8 is above on (0.7)\n")
    }

    @Test func usageErrorExits64() throws {
        #expect(try somniq("replay").status == 64)
        #expect(try somniq("replay", "--format", "xml", Paths.demoNight).status == 64)
    }
}
