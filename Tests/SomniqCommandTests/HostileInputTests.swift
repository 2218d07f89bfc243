import Foundation
import SomniqCore
@testable import SomniqSinks
import SomniqTestSupport
import Testing

/// Hostile input, odd paths and signals (issue 13): nothing lost, nothing injected, no
/// hang and no crash.
@Suite struct HostileInputTests {
    let dir = temporaryDirectory()

    /// Runs a shell command line (for what Foundation cannot pass: bytes that are not
    /// UTF-8, a pipe with no reader), with a five-minute limit so a hang fails instead of
    /// waiting. Not 30 s: four debug-build replays of the demo night past a file-size limit
    /// take 13 s of CPU, and ran past it on a clean-clone CI run under load (58 s at load 10).
    func shell(_ script: String) throws -> CommandResult {
        try runProgram("/usr/bin/timeout", ["300", "/bin/sh", "-c", script, Paths.somniq, dir, Paths.demoNight])
    }

    @Test func aReplayReplacesItsOutputOnlyWhenItSucceedsAndNeverDeletesWhatItIsNotGiven() throws {
        let output = dir + "/out.tsv"
        try "an earlier output\n".write(toFile: output, atomically: true, encoding: .utf8)
        // A replay that fails leaves the earlier output whole.
        let failed = try somniq("replay", dir + "/missing.flac", "--format", "tsv", "--output", output)
        #expect(failed.status == 65)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "an earlier output\n")
        // A directory is refused, and everything in it kept.
        try FileManager.default.createDirectory(atPath: dir + "/results", withIntermediateDirectories: false)
        try "kept".write(toFile: dir + "/results/a.txt", atomically: true, encoding: .utf8)
        for format in ["tsv", "table", "jsonl"] {
            let r = try somniq("replay", Paths.demoNight, "--format", format, "--output", dir + "/results")
            #expect(r.status == 74 && r.stderr == "somniq: \(dir)/results: is a directory; give a file name\n", "\(format): \(r.stderr)")
        }
        #expect(try String(contentsOfFile: dir + "/results/a.txt", encoding: .utf8) == "kept")
        // A FIFO is refused at once (it would block, or be replaced by a file).
        #expect(mkfifo(dir + "/pipe", 0o600) == 0)
        let fifo = try shell(#""$0" replay "$2" --format tsv --output "$1/pipe" 2>&1; echo "rc=$?""#)
        #expect(fifo.stdout.contains("is not a regular file") && fifo.stdout.hasSuffix("rc=74\n"), "\(fifo.stdout)")
        // A link keeps pointing where it did; the file it names gets the new output.
        try FileManager.default.createSymbolicLink(atPath: dir + "/latest.tsv", withDestinationPath: "out.tsv")
        #expect(try somniq("replay", Paths.demoNight, "--format", "tsv", "--output", dir + "/latest.tsv").status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/latest.tsv") == "out.tsv")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("4.500\t36.000\tsnoring\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["latest.tsv", "out.tsv", "pipe", "results"])
    }

    @Test(arguments: ["9.3e18", "1e9", "181.5"])
    func aLabelAfterTheEndOfTheRecordingIsAnErrorNamingFileAndLine(offset: String) throws {
        try FileManager.default.copyItem(atPath: Paths.demoNight, toPath: dir + "/night.flac")
        try "4.5\t36\tsnoring\n10\t\(offset)\tcough\n".write(toFile: dir + "/night.tsv", atomically: true, encoding: .utf8)
        let r = try somniq("eval", dir)
        #expect(r.status == 65)
        #expect(r.stderr == "somniq: \(dir)/night.tsv:2: offset \(offset) s is after the end of the recording (180 s)\n")
    }

    @Test func aFIFOOrADirectoryIsRefusedNotWaitedOn() throws {
        #expect(mkfifo(dir + "/night.flac", 0o600) == 0)
        let replay = try shell(#""$0" replay "$1/night.flac" 2>&1; echo "rc=$?""#)
        #expect(replay.stdout == "somniq: \(dir)/night.flac: is not a regular file (a device, a FIFO or a socket); give an audio file\nrc=65\n")
        try FileManager.default.createDirectory(atPath: dir + "/d.flac", withIntermediateDirectories: false)
        let directory = try somniq("replay", dir + "/d.flac")
        #expect(directory.status == 65 && directory.stderr == "somniq: \(dir)/d.flac: is a directory; give an audio file\n")
        // A label file that is a FIFO: eval says so instead of waiting for a writer.
        try FileManager.default.copyItem(atPath: Paths.demoNight, toPath: dir + "/other.flac")
        #expect(mkfifo(dir + "/other.tsv", 0o600) == 0)
        let eval = try shell(#""$0" eval "$1/other.flac" 2>&1; echo "rc=$?""#)
        #expect(eval.stdout.hasPrefix("somniq: \(dir)/other.tsv: is not a regular file") && eval.stdout.hasSuffix("rc=65\n"), "\(eval.stdout)")
        // A configuration that is a FIFO.
        #expect(mkfifo(dir + "/config.json", 0o600) == 0)
        let config = try shell(#""$0" replay "$1/other.flac" --config "$1/config.json" 2>&1; echo "rc=$?""#)
        #expect(config.stdout.contains("config.json") && config.stdout.contains("is not a regular file") && config.stdout.hasSuffix("rc=65\n"), "\(config.stdout)")
    }

    @Test func writingPastAFileSizeLimitOrIntoAClosedPipeIsAnIOErrorNamingTheOutput() throws {
        let big = try runProgram("/usr/bin/prlimit", ["--fsize=1024", Paths.somniq, "replay", Paths.demoNight, "--format", "jsonl", "--output", dir + "/log.jsonl"])
        #expect(big.status == 74)
        #expect(big.stderr == "somniq: \(dir)/log.jsonl: cannot write the event log: File too large\n")
        // Standard output a pipe whose reader has gone: the first write fails with EPIPE.
        let closed = try runProgram("/usr/bin/python3", ["-c", """
            import os, subprocess, sys
            r, w = os.pipe(); os.close(r)
            p = subprocess.run([sys.argv[1], "replay", sys.argv[2], "--format", "jsonl"], stdout=w, stderr=subprocess.PIPE)
            print(p.returncode, p.stderr.decode().strip())
            """, Paths.somniq, Paths.demoNight])
        #expect(closed.stdout == "74 somniq: standard output: cannot write the event log: Broken pipe\n", "\(closed.stdout) \(closed.stderr)")
    }

    /// Issue 26, fault 3: standard error that cannot be written (`2>/dev/full`, a closed
    /// descriptor, a pipe whose reader has gone) ends no command with a signal: it exits
    /// with the code it would have, and leaves no temporary file behind.
    @Test func aCommandWhoseStandardErrorCannotBeWrittenExitsWithItsCodeAndLeavesNoTemporaryFile() throws {
        let missing = dir + "/missing.flac"
        for redirect in ["2>/dev/full", "2>&-"] {
            let r = try shell(#""$0" replay "$1/missing.flac" "# + redirect + #"; echo "rc=$?""#)
            #expect(r.stdout == "rc=65\n", "\(redirect): \(r.stdout) \(r.stderr)")
        }
        let gone = try runProgram("/usr/bin/python3", ["-c", """
            import os, subprocess, sys
            r, w = os.pipe(); os.close(r)
            p = subprocess.run([sys.argv[1], "replay", sys.argv[2]], stderr=w)
            print(p.returncode)
            """, Paths.somniq, missing])
        #expect(gone.stdout == "65\n", "\(gone.stdout) \(gone.stderr)")
        // Past a file-size limit, with nowhere to say so: exit 74, the output's temporary
        // file removed, an earlier output whole.
        try "an earlier output\n".write(toFile: dir + "/big3.tsv", atomically: true, encoding: .utf8)
        let big = try shell(#"prlimit --fsize=1024 "$0" replay "$2" "$2" "$2" "$2" --format tsv --output "$1/big3.tsv" 2>/dev/full; echo "rc=$?""#)
        #expect(big.stdout == "rc=74\n", "\(big.stdout) \(big.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["big3.tsv"])
        #expect(try String(contentsOfFile: dir + "/big3.tsv", encoding: .utf8) == "an earlier output\n")
    }

    /// A TSV or table output that cannot be written is named as the output, not as the event log.
    @Test func anOutputPastAFileSizeLimitIsNamedAsTheOutput() throws {
        let r = try runProgram("/usr/bin/prlimit", ["--fsize=1024", Paths.somniq, "replay", Paths.demoNight, Paths.demoNight,
                                                    Paths.demoNight, Paths.demoNight, "--format", "tsv", "--output", dir + "/big3.tsv"])
        #expect(r.status == 74)
        #expect(r.stderr == "somniq: \(dir)/big3.tsv: cannot write the output: File too large\n")
    }

    @Test func namesFromOutsideReachNoTerminalLogOrColumnUnescaped() throws {
        // A file name with a tab, a newline and an escape sequence.
        let odd = dir + "/a\tb\nc\u{1B}[31m.flac"
        try FileManager.default.copyItem(atPath: Paths.demoNight, toPath: odd)
        let tsv = try somniq("replay", odd, Paths.demoNight, "--format", "tsv")
        #expect(tsv.status == 0)
        let lines = tsv.stdout.split(separator: "\n")
        #expect(lines.count == 18 && lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 4 })
        #expect(lines.first?.hasPrefix("\(dir)/a\\tb\\nc\\x{1b}[31m.flac\t4.500\t") == true)
        let table = try somniq("replay", odd)
        #expect(table.stdout.hasPrefix("\(dir)/a\\tb\\nc\\x{1b}[31m.flac: 3:00.0 of audio"))
        let missing = try somniq("replay", dir + "/x\ny\u{1B}]0;owned\u{07}.flac")
        #expect(missing.stderr == "somniq: \(dir)/x\\ny\\x{1b}]0;owned\\x{7}.flac: no such file; check the path\n")
        // A device name with a line of its own for systemd is refused, on the command
        // line and in a configuration.
        let device = try somniq("run", "--device", "a\nWATCHDOG=trigger", "--max-seconds", "1")
        #expect(device.status == 64 && device.stderr.contains("--device must not contain control characters"))
        try #"{"device": "a\nWATCHDOG=trigger"}"#.write(toFile: dir + "/config.json", atomically: true, encoding: .utf8)
        let config = try somniq("run", "--check-config", "--config", dir + "/config.json")
        #expect(config.status == 65 && config.stderr.contains("device: must not contain control characters"), "\(config.stderr)")
        // A profile's own words are escaped by `profiles list` and `profiles show`.
        let profiles = dir + "/profiles"
        try FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: false)
        let text = try String(contentsOfFile: Paths.package + "/profiles/balanced.json", encoding: .utf8)
        let hostile = try #require(JSONValue(parsing: text).replacing("description", with: .string("quiet\u{1B}[2J\nroot# ")))
        try hostile.prettyText.write(toFile: profiles + "/odd.json", atomically: true, encoding: .utf8)
        let list = try somniq("profiles", "list", "--profile-dir", profiles)
        #expect(list.stdout.contains("quiet\\x{1b}[2J\\nroot# ") && !list.stdout.contains("\u{1B}"))
        let show = try somniq("profiles", "show", profiles + "/odd.json")
        #expect(!show.stdout.contains("\u{1B}") && show.stdout.contains("quiet\\x{1b}[2J\\nroot# "))
    }

    /// An option's value the argument parser refuses is said back escaped (it prints the
    /// message itself, past `fail`, which escapes every other).
    @Test func aRefusedOptionValueIsSaidBackEscaped() throws {
        for command in [["clips", "list", "--night", "2026\u{1b}[2J\nx"], ["replay", Paths.demoNight, "--start", "2026\u{1b}[2J\nx"]] {
            let r = try somniq(command)
            #expect(r.status == 64 && r.stderr.contains("\"2026\\x{1b}[2J\\nx\" is not a"), "\(command[0]): \(r.stderr)")
            #expect(!r.stderr.utf8.contains(0x1B))
        }
    }

    @Test func aProfileOrConfigurationOverOneMebibyteIsRefusedAndABOMIsReadAlike() throws {
        let text = try String(contentsOfFile: Paths.package + "/profiles/balanced.json", encoding: .utf8)
        let padded = text.replacingOccurrences(of: "{", with: "{" + String(repeating: " ", count: 1 << 20), options: .anchored)
        try padded.write(toFile: dir + "/big.json", atomically: true, encoding: .utf8)
        let big = try somniq("profiles", "validate", dir + "/big.json")
        #expect(big.status == 65 && big.stderr == "\(dir)/big.json: is larger than 1 MiB; a profile (.json) is a few KB\n", "\(big.stderr)")
        // A byte order mark is read past in a profile and in a configuration alike.
        try ("\u{FEFF}" + text).write(toFile: dir + "/bom.json", atomically: true, encoding: .utf8)
        #expect(try somniq("profiles", "validate", dir + "/bom.json").status == 0)
        try "\u{FEFF}{\"device\": \"null\", \"profile\": \"\(dir)/bom.json\", \"log\": \"\(dir)/night.jsonl\"}".write(toFile: dir + "/config.json", atomically: true, encoding: .utf8)
        let config = try somniq("run", "--check-config", "--config", dir + "/config.json")
        #expect(config.status == 0, "\(config.stderr)")
        // Errors name the path as it was given, not its base name.
        try #"{"name": "x"}"#.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        #expect(try somniq("profiles", "validate", dir + "/bad.json").stderr.hasPrefix("\(dir)/bad.json: "))
    }

    @Test func aConfigPathThatIsNotUTF8IsRefusedWithItsKeyAndAFileNamedSoIsReplayed() throws {
        let r = try shell(#"printf '{"log": "/var/lib/somniq/\377.jsonl"}' > "$1/config.json"; "$0" run --check-config --config "$1/config.json" 2>&1; echo "rc=$?""#)
        #expect(r.stdout == "somniq: \(dir)/config.json: log: is not valid UTF-8\nrc=65\n", "\(r.stdout)")
        try FileManager.default.copyItem(atPath: Paths.demoNight, toPath: dir + "/demo.flac")
        let replay = try shell(#"mv "$1/demo.flac" "$1/$(printf 'nuit-\351t\351.flac')"; "$0" replay "$1/$(printf 'nuit-\351t\351.flac')" --format tsv; echo "rc=$?""#)
        #expect(replay.stdout.hasPrefix("4.500\t36.000\tsnoring\n") && replay.stdout.hasSuffix("rc=0\n"), "\(replay.stdout) \(replay.stderr)")
    }

    @Test func samplesThatAreNotNumbersAreCountedAndHeardAsSilenceAndAWildValueIsClipped() throws {
        // 10 s of NaN and infinities, as 32-bit float WAV.
        let nan = dir + "/nan.wav"
        var samples = [Float](repeating: .nan, count: 160_000)
        for i in stride(from: 0, to: samples.count, by: 3) { samples[i] = i % 2 == 0 ? .infinity : -.infinity }
        try writeFloatWAV(nan, samples)
        let r = try somniq("replay", nan, "--format", "jsonl")
        #expect(r.status == 0)
        #expect(r.stderr == "somniq: warning: \(nan): 160000 samples were not numbers (NaN or infinite), the first at 0.00 s; they were analysed as silence\n")
        let bad = r.stdout.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }.filter { $0["status"] == .string("bad_samples") }
        #expect(bad.count == 1 && bad.first?["samples"] == .number(160_000) && bad.first?["first_s"] == .number(0))
        #expect(!r.stdout.contains("event_start"))
        // One sample of 1e30 in the middle of the first snore: the same events as without it.
        let demo = try readMono16k(Paths.demoNight)
        var wild = demo
        wild[20 * 16_000] = 1e30
        try writeFloatWAV(dir + "/wild.wav", wild)
        try writeFloatWAV(dir + "/tame.wav", demo)
        let tame = try somniq("replay", dir + "/tame.wav", "--format", "tsv").stdout
        #expect(try somniq("replay", dir + "/wild.wav", "--format", "tsv").stdout == tame)
    }

    @Test func benchFollowsNoLinkPlantedWhereItWritesItsRecording() throws {
        // The old name was somniq-bench-<pid>.wav: a shell that plants that link and then
        // execs somniq (keeping its pid) would have had the recording written through it.
        try "precious".write(toFile: dir + "/target", atomically: true, encoding: .utf8)
        let r = try shell(#"ln -s "$1/target" "$1/somniq-bench-$$.wav"; exec "$0" bench --hours 0.005 --directory "$1""#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/target", encoding: .utf8) == "precious")
        // Nothing of the bench is left behind; the planted link is untouched.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left.count == 2 && left.contains("target") && left.contains { $0.hasPrefix("somniq-bench-") && $0.hasSuffix(".wav") }, "\(left)")
    }

    @Test func evalRefusesEstimatesThatWouldOverwriteLabelsOrEachOther() throws {
        try FileManager.default.createDirectory(atPath: dir + "/a", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: false)
        for d in ["a", "b"] {
            try FileManager.default.copyItem(atPath: Paths.demoNight, toPath: dir + "/\(d)/night.flac")
            try "4.5\t36\tsnoring\n".write(toFile: dir + "/\(d)/night.tsv", atomically: true, encoding: .utf8)
        }
        let own = try somniq("eval", dir + "/a", "--estimates", dir + "/a")
        #expect(own.status == 64 && own.stderr.contains("holds the reference labels of \(dir)/a/night.flac"))
        #expect(try String(contentsOfFile: dir + "/a/night.tsv", encoding: .utf8) == "4.5\t36\tsnoring\n")
        let twice = try somniq("eval", dir + "/a", dir + "/b", "--json", "--estimates", dir + "/out")
        #expect(twice.status == 64 && twice.stderr.contains("would both write night.tsv"), "\(twice.stderr)")
    }
}

/// A 16 kHz mono 32-bit float WAV, written byte by byte (libsndfile would not write NaN
/// as it is given).
func writeFloatWAV(_ path: String, _ samples: [Float]) throws {
    var d = Data()
    func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
    func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
    let bytes = UInt32(samples.count * 4)
    d.append(contentsOf: Array("RIFF".utf8)); u32(36 + bytes); d.append(contentsOf: Array("WAVE".utf8))
    d.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(3); u16(1); u32(16_000); u32(64_000); u16(4); u16(32)
    d.append(contentsOf: Array("data".utf8)); u32(bytes)
    for s in samples { withUnsafeBytes(of: s.bitPattern.littleEndian) { d.append(contentsOf: $0) } }
    try d.write(to: URL(fileURLWithPath: path))
}

extension JSONValue {
    /// The object with member `key` replaced.
    func replacing(_ key: String, with value: JSONValue) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return .object(members.map { $0.0 == key ? ($0.0, value) : $0 })
    }
}

/// The last session of a long log is found from its end, across read blocks.
@Test func theLastSessionOfALongLogIsReadFromItsEnd() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = dir + "/log.jsonl"
    var lines = [#"{"v":1,"kind":"session_start","source":{"device":"hw:0"}}"#]
    for i in 0..<3000 { lines.append(#"{"v":1,"kind":"level","start_s":\#(60 * i),"seconds":60,"leq_dbfs":-50}"#) }
    lines.append(#"{"v":1,"kind":"session_end","stream_s":180000}"#)
    try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
    #expect(UncleanEnd.scan(log) == nil)
    // A second session, killed with one event open and a torn line.
    var killed = [#"{"v":1,"kind":"session_start","source":{"device":"hw:0"}}"#,
                  #"{"v":1,"kind":"event_start","id":"s1-e1","class":"cough","onset_s":1}"#,
                  #"{"v":1,"kind":"event_end","id":"s1-e1","class":"cough","onset_s":1,"offset_s":2}"#,
                  #"{"v":1,"kind":"event_start","id":"s1-e2","class":"scream","onset_s":5}"#]
    for i in 0..<2000 { killed.append(#"{"v":1,"kind":"level","start_s":\#(60 * i),"seconds":60,"leq_dbfs":-50}"#) }
    killed.append(#"{"v":1,"kind":"event_st"#)
    let handle = try #require(FileHandle(forWritingAtPath: log))
    handle.seekToEndOfFile()
    handle.write(Data(killed.joined(separator: "\n").utf8))
    try handle.close()
    #expect(UncleanEnd.scan(log) == [UncleanEnd.OpenEvent(id: "s1-e2", soundClass: .scream)])
    #expect(UncleanEnd.scan(dir + "/none.jsonl") == nil)
}

/// A log with no `session_start` for many megabytes (copied and truncated by a rotation,
/// damaged, crafted) kept the daemon from listening for minutes: its last session was
/// looked for by copying and searching the whole read tail again at each block. Each byte
/// is read once now: counted, not timed, so a loaded machine cannot fail it.
@Test func aLongLogWithNoSessionStartIsScannedInItsSizeNotItsSizeSquared() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let log = dir + "/log.jsonl"
    let level = #"{"v":1,"kind":"level","start_s":0,"seconds":60,"leq_dbfs":-50}"# + "\n"
    let levels = String(repeating: level, count: 16 << 20 / level.utf8.count)
    try levels.write(toFile: log, atomically: false, encoding: .utf8)
    let size = levels.utf8.count, blocks = (size + UncleanEnd.block - 1) / UncleanEnd.block
    var work = UncleanEnd.Work()
    #expect(UncleanEnd.lastSession(log, work: &work) == nil)
    #expect(work.read == size)
    // Each block searched with the marker's length less one of the block after it.
    #expect(work.searched == size + (blocks - 1) * (UncleanEnd.marker.count - 1))
    // A session started before them, killed with an event open: found, its block and the
    // session's lines read once more (the line's start, then the session from it).
    let session = #"{"v":1,"kind":"session_start","source":{"device":"hw:0"}}"# + "\n"
        + #"{"v":1,"kind":"event_start","id":"s1-e2","class":"scream","onset_s":5}"# + "\n" + levels.prefix(2 << 20)
    try session.write(toFile: log, atomically: false, encoding: .utf8)
    work = UncleanEnd.Work()
    #expect(UncleanEnd.lastSession(log, work: &work)?.first == session.split(separator: "\n").first.map(String.init))
    #expect(work.read <= 2 * session.utf8.count + UncleanEnd.block && work.searched <= 2 * session.utf8.count)
    #expect(UncleanEnd.scan(log) == [UncleanEnd.OpenEvent(id: "s1-e2", soundClass: .scream)])
}
