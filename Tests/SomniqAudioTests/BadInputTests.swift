import Foundation
import SomniqTestSupport
import Testing
import SomniqCore

@Suite struct BadInputTests {
    let dir = temporaryDirectory()

    @Test func corruptFileExits65NamingTheFile() throws {
        let path = dir + "/noise.wav"
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }).write(to: URL(fileURLWithPath: path))
        let r = try somniq("replay", path)
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("somniq: \(path): not an audio file libsndfile can read"))
    }

    /// Replays `path` as JSON Lines into the test directory; the records and the result.
    private func replayLog(_ path: String) throws -> (result: CommandResult, log: [JSONValue]) {
        let log = dir + "/" + UUID().uuidString + ".jsonl"
        let r = try somniq("replay", path, "--format", "jsonl", "--output", log)
        return (r, records(log))
    }

    private func events(_ log: [JSONValue]) -> [String] {
        log.filter { $0["kind"]?.stringValue == "event_start" }.map { "\($0["class"]!.stringValue!)@\($0["onset_s"]!)" }
    }

    @Test func aCutOffWAVIsAnalysedAsFarAsItGoesWithAWarning() throws {
        let whole = dir + "/whole.wav", cut = dir + "/cut.wav"
        try sox(Paths.demoNight, whole, "trim", "0", "60")
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let (r, log) = try replayLog(cut)
        #expect(r.status == 0)
        #expect(r.stderr == "somniq: warning: \(cut): the header promises 1920000 bytes of audio data but the file holds 959978; analysed the 29.999 s there are (the file was cut off)\n")
        let status = try #require(log.first { $0["kind"]?.stringValue == "status" && $0["status"]?.stringValue == "length_mismatch" })
        #expect(status["header_s"] == .number(60) && status["audio_s"] == .number(29.999))
        // What it found is what the whole file has in its first half.
        let (_, wholeLog) = try replayLog(whole)
        let early = wholeLog.filter { ($0["onset_s"]?.numberValue ?? 99) < 25 }
        #expect(!events(early).isEmpty && Array(events(log).prefix(events(early).count)) == events(early))
        #expect(log.last?["kind"]?.stringValue == "session_end" && log.last?["reason"]?.stringValue == "end_of_file")
    }

    @Test func aFLACWhoseWriterNeverWroteItsLengthIsAnalysedToItsEnd() throws {
        // A FLAC encoder writes the stream's length into its header when it finishes: one
        // killed (a crash, a night audio part still being written) leaves 0 there, which
        // libsndfile reads as a length of SF_COUNT_MAX frames.
        let whole = dir + "/whole.flac", open = dir + "/open.flac"
        try sox(Paths.demoNight, whole, "trim", "0", "60")
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: whole)))
        #expect(data[0..<4].elementsEqual("fLaC".utf8) && data[4] & 0x7F == 0)    // STREAMINFO first
        // Its last 36 bits, after 10 bytes of block and frame sizes and 28 bits of rate,
        // channels and sample size: the total samples.
        data[21] &= 0xF0
        for k in 22..<26 { data[k] = 0 }
        try Data(data).write(to: URL(fileURLWithPath: open))
        let (r, log) = try replayLog(open)
        #expect(r.status == 0)
        #expect(r.stderr == "somniq: warning: \(open): the header gives no length (its writer stopped before finishing it: a crash, or a part still being written); analysed the 60.000 s there are\n")
        let status = try #require(log.first { $0["status"]?.stringValue == "length_mismatch" })
        #expect(status["header_s"] == .null && status["audio_s"] == .number(60))
        let (_, wholeLog) = try replayLog(whole)
        #expect(events(log) == events(wholeLog) && !events(log).isEmpty)
    }

    @Test func aWAVWhoseHeaderUnderstatesItsLengthIsAnalysedToItsEnd() throws {
        // A recorder that stopped without finishing its file: the data size says 15 s of 60.
        let whole = dir + "/whole.wav", short = dir + "/short.wav"
        try sox(Paths.demoNight, whole, "trim", "0", "60")
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: whole)))
        #expect(data[36..<40].elementsEqual("data".utf8))              // sox writes fmt, then data
        let quarter = UInt32(1_920_000 / 4)
        for k in 0..<4 { data[40 + k] = UInt8(truncatingIfNeeded: quarter >> (8 * k)) }
        try Data(data).write(to: URL(fileURLWithPath: short))
        let (r, log) = try replayLog(short)
        #expect(r.status == 0)
        #expect(r.stderr == "somniq: warning: \(short): the header says 15.000 s but the file holds 60.000 s; analysed all of it\n")
        let (_, wholeLog) = try replayLog(whole)
        #expect(events(log) == events(wholeLog))
        #expect(log.last?["stream_s"] == .number(60))
    }

    @Test func aDecodeErrorMidwayClosesEveryEventAndEndsTheSessionWithTheError() throws {
        let whole = dir + "/whole.flac", broken = dir + "/broken.flac", cut = dir + "/cut.flac"
        try sox(Paths.demoNight, whole, "trim", "0", "60")
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: whole)))
        try Data(data.prefix(data.count / 2)).write(to: URL(fileURLWithPath: cut))
        for i in data.count / 2 ..< data.count / 2 + 20_000 { data[i] = UInt8(truncatingIfNeeded: i &* 7919) }
        try Data(data).write(to: URL(fileURLWithPath: broken))
        for path in [broken, cut] {
            let (r, log) = try replayLog(path)
            #expect(r.status == 65)
            #expect(r.stderr.hasPrefix("somniq: \(path): cannot decode audio after "), "\(r.stderr)")
            #expect(r.stderr.hasSuffix("; the file is damaged\n"))
            let started = Set(log.filter { $0["kind"]?.stringValue == "event_start" }.compactMap { $0["id"]?.stringValue })
            let ended = Set(log.filter { $0["kind"]?.stringValue == "event_end" }.compactMap { $0["id"]?.stringValue })
            #expect(!started.isEmpty && started == ended)
            let end = try #require(log.last)
            #expect(end["kind"]?.stringValue == "session_end" && end["reason"]?.stringValue == "decode_error")
            #expect(end["error"]?.stringValue.map { r.stderr.contains($0) } == true)
        }
    }

    @Test func anMP3OrAnOpusNightReplaysLikeItsFLAC() throws {
        let mp3 = dir + "/night.mp3", opus = dir + "/night.opus"
        try sox(Paths.demoNight, "-r", "44100", "-C", "128", mp3)          // a phone's MP3
        let enc = try runProgram("/usr/bin/opusenc", ["--quiet", Paths.demoNight, opus])
        #expect(enc.status == 0, "\(enc.stderr)")
        let (_, flacLog) = try replayLog(Paths.demoNight)
        let labels = try String(contentsOfFile: Paths.fixtures + "/demo-night.tsv", encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: "\t") }.map { (String($0[2]), Double($0[0])!) }
        func found(_ log: [JSONValue]) -> [(String, Double)] {
            log.filter { $0["kind"]?.stringValue == "event_start" }.map { ($0["class"]!.stringValue!, $0["onset_s"]!.numberValue!) }
        }
        for path in [mp3, opus] {
            let (r, log) = try replayLog(path)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
            #expect(log.last?["reason"]?.stringValue == "end_of_file")
            // Every event of a labelled sound within the 1 s onset collar of eval, except the
            // two impulses: a door slam and a bark are smeared by the codec's pre-echo (MP3 and
            // Opus frames are 20–26 ms) below the onset rules' ramps, and may be lost. That is a
            // known weakness of those rules, not waived for any other class. (The speech the
            // learned rule hears in the cough is no labelled sound: the codecs may lose it.)
            for (c, onset) in found(flacLog) where c != "door" && c != "dog_bark" && labels.contains(where: { $0.0 == c && abs($0.1 - onset) <= 1 }) {
                #expect(found(log).contains { $0.0 == c && abs($0.1 - onset) <= 1 }, "\(path): \(c)@\(onset)")
            }
        }
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
