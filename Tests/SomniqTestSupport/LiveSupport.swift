// Built only where Swift Testing is: with the tests (`swift build` builds every target,
// and a release build has no Testing module).
#if canImport(Testing)
import Foundation
import SomniqCore

/// A private ALSA configuration for live tests: `fixture:FILE=…` (the `file` plugin
/// reading raw S16_LE 16 kHz mono, docs/behaviour.md#testing-without-a-sound-card) and `pulsefix` (capture from the monitor
/// of a PulseAudio null sink, paced at real time). It lives in a temporary HOME, which
/// alsa.conf reads `~/.asoundrc` from. The fixture has a name hint (a description over
/// two lines, as ALSA gives a card's), so `somniq devices --all` lists it.
package final class LiveRig {
    package let home = temporaryDirectory()
    package let pulseSocket: String
    /// Daemons this rig started: killed when the test is over, however it ended, so that
    /// none outlives a failed test holding the test runner's output open.
    private var started: [Process] = []

    package init() throws {
        pulseSocket = home + "/pulse-native"
        try """
        pcm.fixture {
            @args [ FILE ]
            @args.FILE { type string default "/dev/zero" }
            type file
            slave.pcm "null"
            file "/dev/null"
            infile $FILE
            format "raw"
            hint.description "somniq test fixture
        raw S16_LE 16 kHz mono"
        }
        pcm.pulsefix {
            type pulse
            device "fixture.monitor"
        }
        """.write(toFile: home + "/.asoundrc", atomically: true, encoding: .utf8)
    }

    deinit {
        for p in started where p.isRunning { kill(p.processIdentifier, SIGKILL) }
    }

    package var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = home
        env["PULSE_SERVER"] = "unix:" + pulseSocket
        return env
    }

    /// Raw S16_LE 16 kHz mono of `seconds` of the demo night from `start`.
    package func raw(from start: Double, seconds: Double) throws -> String {
        let path = home + "/clip-\(start)-\(seconds).raw"
        try sox(Paths.demoNight, "-t", "raw", "-e", "signed", "-b", "16", "-c", "1", "-r", "16000", path,
                "trim", "\(start)", "\(seconds)")
        return path
    }

    /// A FIFO fed with `file` and then held open without data: a source that stalls. It is
    /// written a period (1600 samples, 3200 bytes) at a time, each write whole (under
    /// PIPE_BUF), so the FIFO always holds whole periods and each of the daemon's reads takes
    /// one: the stream is the file, sample for sample (a file of whole periods).
    package func stallingFIFO(feeding file: String) throws -> (path: String, writer: Process) {
        let fifo = home + "/stall-\(UUID().uuidString).fifo"
        guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.EEXIST) }
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "dd if=\"$0\" bs=3200 status=none; exec sleep 120", file]
        writer.standardOutput = FileHandle(forUpdatingAtPath: fifo)
        try writer.run()
        return (fifo, writer)
    }

    /// Whether a `stallingFIFO`'s writer has put the whole file into the FIFO: it holds it
    /// open in `sleep` then.
    package func writtenWhole(_ writer: Process) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(writer.processIdentifier)/comm", encoding: .utf8)) ?? "") == "sleep\n"
    }

    /// A FIFO fed with `first`, then nothing for `pause` seconds (held open: the capture
    /// stalls), then `second`, then held open again.
    package func pausingFIFO(_ first: String, pause: Double, _ second: String) throws -> (path: String, writer: Process) {
        let fifo = home + "/pause-\(UUID().uuidString).fifo"
        guard mkfifo(fifo, 0o600) == 0 else { throw POSIXError(.EEXIST) }
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat \"$0\"; sleep \"$1\"; cat \"$2\"; exec sleep 120", first, "\(pause)", second]
        writer.standardOutput = FileHandle(forUpdatingAtPath: fifo)
        try writer.run()
        return (fifo, writer)
    }

    /// Waits until the daemon fed `seconds` of audio through a `stallingFIFO` has judged
    /// every sample of it: its log says the capture stalled (no audio for `silence_s`, at
    /// most 10 s) at that stream time. The FIFO gives whole periods, so the stream is the
    /// audio written; a stall said before the daemon took the last of it (a machine that
    /// held it up that long) says an earlier time, and the wait goes on.
    package func waitUntilJudged(_ log: String, seconds: Double, timeout: Double = 120) throws {
        try waitUntil(timeout: timeout) {
            records(log).contains { $0["status"] == .string("capture_stalled") && ($0["stream_s"]?.numberValue ?? 0) >= seconds - 0.0005 }
        }
    }

    /// Starts `somniq run` with this rig's environment; its journal (standard error) goes to
    /// the file `journal`, when given.
    package func start(_ arguments: [String], environment extra: [String: String] = [:], prefix: [String] = [],
               journal: String? = nil) throws -> Process {
        let p = Process()
        if prefix.isEmpty {
            p.executableURL = URL(fileURLWithPath: Paths.somniq)
            p.arguments = ["run"] + arguments
        } else {
            p.executableURL = URL(fileURLWithPath: prefix[0])
            p.arguments = Array(prefix.dropFirst()) + [Paths.somniq, "run"] + arguments
        }
        p.environment = environment.merging(extra) { $1 }
        if let journal {
            FileManager.default.createFile(atPath: journal, contents: nil)
            p.standardError = FileHandle(forWritingAtPath: journal)
        } else {
            p.standardError = FileHandle.nullDevice
        }
        try p.run()
        started.append(p)
        return p
    }

    /// Starts a PulseAudio server with a null sink called `fixture`.
    package func startPulse() throws {
        // The daemon keeps its standard streams: give it /dev/null, not a pipe we would wait on.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pulseaudio")
        p.arguments = [
            "-n", "--daemonize=yes", "--exit-idle-time=-1", "--use-pid-file=no",
            "-L", "module-null-sink sink_name=fixture rate=16000 channels=1",
            "-L", "module-native-protocol-unix socket=\(pulseSocket) auth-anonymous=1",
        ]
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw NSError(domain: "pulseaudio", code: Int(p.terminationStatus)) }
        try waitUntil(timeout: 5) { FileManager.default.fileExists(atPath: pulseSocket) }
    }

    package func stopPulse() {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pactl")
        p.arguments = ["exit"]
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try? p.run()
        p.waitUntilExit()
        try? waitUntil(timeout: 5) { !FileManager.default.fileExists(atPath: pulseSocket) }
    }

    /// Plays a file into the null sink (paced at real time), in the background.
    package func play(_ file: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/paplay")
        p.arguments = ["-d", "fixture", file]
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }
}

/// The records of a JSON Lines log (a torn last line is skipped, as every reader must).
package func records(_ path: String) -> [JSONValue] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
}

package func kinds(_ log: [JSONValue]) -> [String] {
    log.map { r in
        guard case let .string(k)? = r["kind"] else { return "?" }
        if k == "status", case let .string(s)? = r["status"] { return "status:" + s }
        if case let .string(c)? = r["class"] { return k + ":" + c }
        return k
    }
}

package struct Timeout: Error { package init() {} }

package func waitUntil(timeout: Double, _ condition: () -> Bool) throws {
    let end = Date(timeIntervalSinceNow: timeout)
    while !condition() {
        if Date() > end { throw Timeout() }
        // A poll for an event (in another process, a file, a socket), not a wait for time.
        Thread.sleep(forTimeInterval: 0.02)
    }
}

/// Waits for a process to end; kills it and throws after `timeout`.
package func waitForExit(_ p: Process, timeout: Double) throws -> Int32 {
    do { try waitUntil(timeout: timeout) { !p.isRunning } } catch {
        p.terminate()
        throw error
    }
    return p.terminationStatus
}
#endif
