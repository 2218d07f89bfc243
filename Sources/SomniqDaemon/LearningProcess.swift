import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqLog
import SomniqSupport

/// The daemon's daily learning of this home's memory, run in a child process: `somniq learn
/// --home` from the daemon's own binary (`/proc/self/exe` names the binary running, even
/// after a package upgrade has replaced its file). Whatever the learning meets (a damaged
/// log or memory file, a fault that traps), it costs the learning, never the listening.
///
/// The child runs in a process group of its own, with the default signal dispositions,
/// none of the daemon's descriptors, and its output in memory (`memfd`): one line of JSON
/// on its standard output says what it learned, or why not (`--report-json`). A child
/// killed by a signal, one that exits without that line, or one still running at `timeout`
/// (then its group is killed) has `failed`, named by its signal or exit status. The memory
/// file is written whole or not at all (`HomeMemoryFile.write`), so a failure leaves the
/// memory in force, and its file, as they were.
public struct LearningProcess: Sendable {
    /// The somniq binary.
    var executable: String
    var log: String
    /// The memory file written.
    var output: String
    /// The profile in force (a name or a path) and where named ones are found.
    var profile: String
    var profileDirectory: String
    /// When the memory says it was learned: the daemon's wall clock.
    var now: Date
    var timeout: Duration
    /// The clock `timeout` is measured on: the daemon's (`DaemonClocks.io`).
    var clock: any IOClock = SystemClock()

    enum Outcome: Sendable {
        /// The memory written, read back, and what `learn --home` said of it.
        case learned(HomeMemory, Report)
        /// `learn --home` said why it learned nothing: no label yet, a log or audio it
        /// cannot read, a disk that refuses.
        case refused(String)
        /// The child ended without saying: a signal, an exit status, a timeout, or it
        /// could not be started.
        case failed(Failure)
    }

    /// What `learn --home --report-json` says besides the memory.
    public struct Report: Sendable, Equatable {
        /// Labelled events left out (their audio gone), and skipped (their records damaged).
        public var missing = 0, skipped = 0
        /// Labels that name no event the log holds.
        public var notFound = 0
        public var reusedText: String?
        public var previousRefused: String?

        public var json: JSONValue {
            var m: [(String, JSONValue)] = [("missing", .number(Double(missing))), ("skipped", .number(Double(skipped))),
                                            ("not_found", .number(Double(notFound)))]
            if let reusedText { m.append(("reused", .string(reusedText))) }
            if let previousRefused { m.append(("previous_refused", .string(previousRefused))) }
            return .object(m)
        }

        public init(missing: Int = 0, skipped: Int = 0, notFound: Int = 0, reusedText: String? = nil, previousRefused: String? = nil) {
            self.missing = missing
            self.skipped = skipped
            self.notFound = notFound
            self.reusedText = reusedText
            self.previousRefused = previousRefused
        }

        init?(_ json: JSONValue) {
            guard let missing = json["missing"]?.numberValue.flatMap({ Int(exactly: $0) }),
                  let skipped = json["skipped"]?.numberValue.flatMap({ Int(exactly: $0) }) else { return nil }
            self.init(missing: missing, skipped: skipped, notFound: json["not_found"]?.numberValue.flatMap { Int(exactly: $0) } ?? 0,
                      reusedText: json["reused"]?.stringValue,
                      previousRefused: json["previous_refused"]?.stringValue)
        }
    }

    struct Failure: Error, Sendable, CustomStringConvertible {
        /// `somniq learn --home was killed by signal 4 (SIGILL)`.
        var problem: String
        var signal: Int32?
        var exitStatus: Int32?
        var description: String { problem }

        /// The members of its `home_learning_failed` status record.
        var details: [LogRecord.Status.Detail] {
            var d: [LogRecord.Status.Detail] = [.error(problem)]
            if let signal { d.append(.signal(Int(signal))) }
            if let exitStatus { d.append(.exitStatus(Int(exitStatus))) }
            return d
        }
    }

    var arguments: [String] {
        ["learn", "--home", "--log", log, "--output", output, "--profile", profile, "--profile-dir", profileDirectory,
         "--learned-at", WallClock.iso8601(now), "--report-json"]
    }

    /// How the wait for the child ended.
    private enum Ending: Sendable {
        /// It ended, with this wait status.
        case exited(Int32)
        case timedOut
    }

    /// Runs the child until it ends, or until `timeout` of `clock`; nil at once when the
    /// calling task is cancelled (the child's group is killed first). The child is waited
    /// for by a thread of its own blocked in `waitid` (`ChildProcess.reap`), which also reaps
    /// a child killed; the timeout is one sleep on `clock`, no poll, and the wait holds no thread of
    /// Swift's cooperative pool.
    func run() async -> Outcome? {
        guard let out = Self.memoryFile("somniq-learn-out"), let err = Self.memoryFile("somniq-learn-err") else {
            return .failed(Failure(problem: "somniq learn --home could not be started: no memory file: \(String(cString: strerror(errno)))"))
        }
        defer {
            close(out)
            close(err)
        }
        let child: ChildProcess
        switch spawn(stdout: out, stderr: err) {
        case let .success(c): child = c
        case let .failure(problem): return .failed(problem)
        }
        let ending = FirstResult<Ending>()
        PosixThread.start(name: "somniq-learn") { ending.set(.exited(child.reap())) }
        let deadline = clock.now + timeout
        let ended = await withTaskCancellationHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { if (try? await clock.sleep(until: deadline)) != nil { ending.set(.timedOut) } }
                defer { group.cancelAll() }
                return await ending.value()
            }
        } onCancel: {
            ending.set(nil)
        }
        let status: Int32
        switch ended {
        case let .exited(s)?: status = s
        case .timedOut?:
            child.kill(SIGKILL)
            return .failed(Failure(problem: "somniq learn --home was still running after \(JSONValue.format(timeout.inSeconds)) s and was stopped"))
        case nil:
            child.kill(SIGKILL)
            return nil
        }
        let report = Self.text(of: out).split(separator: "\n").last.flatMap { try? JSONValue(parsing: String($0)) }
        // What it said last on standard error, or the runtime's word on a trap (a crash
        // report may follow it).
        let lines = Self.text(of: err).split(separator: "\n")
        let said = (lines.last { $0.contains("Fatal error") } ?? lines.last).map { String($0.trimmingPrefix("somniq: ").prefix(300)) }
        if let error = report?["error"]?.stringValue { return .refused(error) }
        let signal = status & 0x7f, code = (status >> 8) & 0xff
        guard signal == 0 else {
            return .failed(Failure(problem: "somniq learn --home was killed by signal \(signal) (\(Self.name(signal: signal)))"
                                   + (said.map { ": " + $0 } ?? ""), signal: signal))
        }
        guard code == 0, let report, let learned = Report(report) else {
            return .failed(Failure(problem: "somniq learn --home exited with status \(code) and no report" + (said.map { ": " + $0 } ?? ""),
                                   exitStatus: code))
        }
        do { return .learned(try HomeMemoryFile.read(path: output), learned) } catch {
            return .failed(Failure(problem: "the memory somniq learn --home wrote cannot be read: \(error)", exitStatus: 0))
        }
    }

    private typealias MemfdCreate = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc's memfd_create (2.27 and later), which Swift's Glibc module does not declare.
    private static let memfdCreate: MemfdCreate? = dlsym(dlopen(nil, RTLD_NOW), "memfd_create")
        .map { unsafeBitCast($0, to: MemfdCreate.self) }

    /// An anonymous file, closed on exec (the child gets it as 1 or 2 only): in memory, or
    /// an unlinked temporary file where memfd_create is missing.
    private static func memoryFile(_ name: String) -> Int32? {
        if let fd = memfdCreate?(name, 1 /* MFD_CLOEXEC */), fd >= 0 { return fd }
        var template = Array("/tmp/\(name)-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return nil }
        unlink(template)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// What was written to `fd`, from its start; at most 1 MiB.
    private static func text(of fd: Int32) -> String {
        guard lseek(fd, 0, SEEK_SET) == 0 else { return "" }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < 1 << 20 {
            let n = read(fd, &buffer, buffer.count)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func name(signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL, a trap"
        case SIGTRAP: "SIGTRAP, a trap"
        case SIGABRT: "SIGABRT"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        case SIGKILL: "SIGKILL"
        case SIGSEGV: "SIGSEGV"
        case SIGTERM: "SIGTERM"
        default: String(cString: strsignal(signal))
        }
    }

    private func spawn(stdout: Int32, stderr: Int32) -> Result<ChildProcess, Failure> {
        ChildProcess.spawn(executable, arguments: [executable] + arguments, files: { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
            posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        }).mapError { Failure(problem: "somniq learn --home could not be started from \(executable): \($0.description)") }
    }
}
