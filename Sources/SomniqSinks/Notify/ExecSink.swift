import FoundationEssentials
import Glibc
import SomniqConfig
import SomniqCore
import SomniqLog
import SomniqSupport
import Synchronization

/// Runs a program for each notification, without a shell: the record as one line of
/// JSON on its stdin, and `SOMNIQ_*` variables in its environment.
///
/// The program starts in a process group of its own, with stdout and stderr on
/// /dev/null and every other descriptor of the daemon closed. It has delivered when it
/// exits 0 within `timeout_s`; it has failed when it exits non-zero, cannot be started,
/// or is still running at `timeout_s`: then its whole process group is sent SIGTERM, and
/// SIGKILL 0.5 s later, and the notification is retried with backoff.
///
/// A program that starts a child and exits (`( play alarm.wav ) & exit 0`, the usual way
/// to start a sound player) has delivered once it exits 0: the child keeps running, as
/// it was meant to. Nothing here waits for it: the end of the program is seen with
/// waitid (`ChildProcess`), not by the end of a pipe a child could inherit and hold open (as
/// Foundation's `Process` does, with the socket it watches), and the daemon reads no
/// pipe from the program at all.
final class ExecSink: SinkEndpoint, Sendable {
    private let config: SinkConfig.Exec
    /// Between SIGTERM and SIGKILL to a program's group at its timeout.
    static let killGrace = Duration.milliseconds(500)
    private struct State {
        /// The program running now (its pid is its process group's), until it is reaped.
        var running: ChildProcess?
        var aborted = false
    }
    private let state = Mutex(State())

    /// The clock of the program's timeout and of its kill grace: the hub's.
    private let clock: any IOClock

    init(_ config: SinkConfig.Exec, clock: any IOClock = SystemClock()) {
        self.config = config
        self.clock = clock
    }

    func start(wake: @escaping @Sendable () -> Void) {}
    func stop() {}
    func takes(_ kind: SinkMessage.Kind) -> Bool { kind != .level }

    /// Kills the running program's process group with SIGKILL: the daemon is ending,
    /// and no program it started may outlive it by ignoring SIGTERM.
    func abort() {
        state.withLock { s in
            guard let child = s.running else { return }
            s.aborted = true
            child.kill(SIGKILL)
        }
    }

    /// The variables a program is given besides the daemon's own environment.
    static func environment(_ m: SinkMessage) -> [String: String] {
        var env = [
            "SOMNIQ_KIND": m.kind.rawValue,
            "SOMNIQ_ROOM": m.room,
            "SOMNIQ_TIER": m.tier.rawValue,
            "SOMNIQ_MESSAGE": m.text,
        ]
        if let c = m.soundClass { env["SOMNIQ_CLASS"] = c.rawValue }
        if let s = m.status { env["SOMNIQ_STATUS"] = s.rawValue }
        if let link = m.link { env["SOMNIQ_LINK"] = link }
        if let id = m.eventID { env["SOMNIQ_EVENT_ID"] = id }
        if let t = m.time { env["SOMNIQ_TIME"] = t }
        return env
    }

    /// `testDeadline` is on `clock`, as the program's timeout is (`SinkHub.sendTest` makes
    /// both from its one clock).
    func deliver(_ message: SinkMessage, until testDeadline: ContinuousClock.Instant?) throws(SinkFailure) {
        let program = config.command[0]
        let env = ProcessInfo.processInfo.environment.merging(Self.environment(message)) { $1 }
        var seconds = config.timeoutSeconds
        if let testDeadline { seconds = min(seconds, max(0, clock.now.duration(to: testDeadline).inSeconds)) }
        let deadline = clock.now + .seconds(seconds)
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SinkFailure("cannot run \(program): no pipe: \(String(cString: strerror(errno)))") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let child: ChildProcess
        do { child = try spawn(program, stdin: fds[0], environment: env) } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[0])
        // The record is far smaller than a pipe's buffer, and the end is non-blocking
        // besides: this write never waits on the program (EPIPE if it has gone already).
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        _ = writeAll(fds[1], Array((message.record.compactText + "\n").utf8))
        close(fds[1])

        let status: Int32
        if child.wait(until: deadline, on: clock) {
            status = reap(child)
        } else {
            child.kill(SIGTERM)
            _ = child.wait(until: clock.now + Self.killGrace, on: clock)
            // The whole group, whether or not the program itself ended on SIGTERM: what it
            // started goes with it. (Not reaped yet, its pid still names the group.)
            child.kill(SIGKILL)
            _ = reap(child)
            if takeAborted() { throw SinkFailure("\(program) was stopped: somniq is ending") }
            throw SinkFailure("\(program) did not finish within \(JSONValue.format(seconds == config.timeoutSeconds ? seconds : (seconds * 10).rounded() / 10)) s and was stopped")
        }
        // Judged by how it ended: a program that exited 0 has delivered, even if an abort
        // came too late to stop it.
        let aborted = takeAborted()
        if (status & 0x7f) == 0 {
            let code = (status >> 8) & 0xff
            guard code == 0 else { throw SinkFailure("\(program) exited with status \(code)") }
        } else if aborted {
            throw SinkFailure("\(program) was stopped: somniq is ending")
        } else {
            throw SinkFailure("\(program) was killed by signal \(status & 0x7f)")
        }
    }

    private func takeAborted() -> Bool {
        state.withLock { s in
            defer { s.aborted = false }
            return s.aborted
        }
    }

    /// Starts `program` in a process group of its own, `stdin` as its standard input,
    /// stdout and stderr on /dev/null (`ChildProcess`), recorded as running as it starts.
    private func spawn(_ program: String, stdin: Int32, environment: [String: String]) throws(SinkFailure) -> ChildProcess {
        let started = ChildProcess.spawn(program, arguments: config.command, environment: environment.map { "\($0.key)=\($0.value)" },
                                         files: { actions in
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }, around: { spawn in
            state.withLock { s in
                let started = spawn()
                if case let .success(child) = started { s.running = child }
                return started
            }
        })
        switch started {
        case let .success(child): return child
        case let .failure(failure):
            throw SinkFailure("cannot run \(program): \(failure.description); check the exec sink's command")
        }
    }

    /// Reaps the program once it has ended (`ChildProcess.reap`: the wait holds no lock of
    /// the sink's, so `abort` from the stopping daemon never waits on it), and forgets it.
    private func reap(_ child: ChildProcess) -> Int32 {
        let status = child.reap()
        state.withLock { $0.running = nil }
        return status
    }
}
