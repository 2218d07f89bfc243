import Glibc
import Synchronization

/// A program started by the daemon (an exec sink's, the daily learning's), and the one way
/// it is waited for and killed.
///
/// It starts in a process group of its own (so that it and whatever it starts can be
/// killed together), with the default signal dispositions and an empty signal mask (the
/// daemon ignores SIGPIPE and blocks others in its threads), and none of the daemon's
/// descriptors from 3 up.
///
/// Its end is seen with `waitid(WNOWAIT)`, which leaves it unreaped; it is reaped (`reap`)
/// under a lock that `kill` takes too. Until it is reaped its pid, which names its group,
/// cannot be reused, so a kill reaches the program's group or nothing, never a process
/// that took the pid after it.
package final class ChildProcess: Sendable {
    package let pid: pid_t
    /// Its wait status once reaped: its pid may be another process's from then on.
    private let reaped = Mutex<Int32?>(nil)
    /// Signalled when the program has ended (`ended`, read and set under its lock).
    private let ending = PosixCondition()
    private let ended = Mutex(false)
    /// Whether a thread watches for its end (`wait(until:on:)` starts one, once).
    private let watched = Mutex(false)

    private init(_ pid: pid_t) { self.pid = pid }

    /// posix_spawn's error number, when the program could not be started.
    package struct SpawnFailure: Error, Sendable {
        package let code: Int32
        package var description: String { String(cString: strerror(code)) }
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which Swift's
    /// Glibc module does not declare: the program gets none of the daemon's descriptors
    /// (the log, the device, a broker's socket), even those opened without O_CLOEXEC.
    private static let addCloseFrom: CloseFrom? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// Starts `program` with `arguments` (the first is its name) and `environment` (nil: the
    /// daemon's), its descriptors 0-2 set by `files`. `around` runs the start itself, for a
    /// caller that records the child under a lock of its own as it starts (so that a kill
    /// of its cannot come between).
    package static func spawn(_ program: String, arguments: [String], environment: [String]? = nil,
                              files: (inout posix_spawn_file_actions_t) -> Void,
                              around: (() -> Result<ChildProcess, SpawnFailure>) -> Result<ChildProcess, SpawnFailure> = { $0() })
        -> Result<ChildProcess, SpawnFailure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        _ = addCloseFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for p in argv { free(p) }
            for p in envp ?? [] { free(p) }
        }
        return around {
            var pid: pid_t = 0
            let rc = envp.map { posix_spawn(&pid, program, &actions, &attributes, argv, $0) }
                ?? posix_spawn(&pid, program, &actions, &attributes, argv, environ)
            return rc == 0 ? .success(ChildProcess(pid)) : .failure(SpawnFailure(code: rc))
        }
    }

    /// Blocks until the program has ended, leaving it unreaped.
    private func waitForEnd() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
    }

    /// Waits until the program has ended (true) or `deadline` of `clock` has passed (false),
    /// leaving it unreaped either way. Its end is watched by a thread of its own, blocked in
    /// `waitid`, that signals this wait: no poll, and on a test's clock the wait ends when
    /// the test moves the clock past the deadline.
    package func wait(until deadline: ContinuousClock.Instant, on clock: any IOClock) -> Bool {
        let start = watched.withLock { started in
            defer { started = true }
            return !started
        }
        if start {
            PosixThread.start(name: "somniq-child") { [self] in
                waitForEnd()
                ending.lock()
                ended.withLock { $0 = true }
                ending.broadcast()
                ending.unlock()
            }
        }
        ending.lock()
        defer { ending.unlock() }
        while !ended.withLock({ $0 }) {
            if !clock.wait(ending, until: deadline) { return ended.withLock { $0 } }
        }
        return true
    }

    /// Blocks until the program has ended, then reaps it; its wait status. The wait holds no
    /// lock (SIGKILL takes effect only when a program in uninterruptible sleep, on a hung
    /// disk, wakes), so a `kill` never waits on it. Reaped once: a second call returns the
    /// same status.
    @discardableResult
    package func reap() -> Int32 {
        if let status = reaped.withLock({ $0 }) { return status }
        waitForEnd()
        return reaped.withLock { done in
            if let done { return done }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            done = status
            return status
        }
    }

    /// Sends `signal` to the program's process group, unless the program was reaped (its
    /// pid may be another's then); whether it was sent.
    @discardableResult
    package func kill(_ signal: Int32) -> Bool {
        reaped.withLock { done in done == nil && Glibc.kill(-pid, signal) == 0 }
    }
}
