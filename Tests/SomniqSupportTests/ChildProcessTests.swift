import Foundation
@testable import SomniqSupport
import SomniqTestSupport
import Testing

/// `ChildProcess` through real programs (/bin/sh, sleep): its end is seen without reaping
/// it, a kill reaches it until it is reaped and nothing after, and a wait for it ends at a
/// deadline of the clock it is given (a test's here, moved by hand: no sleep).
struct ChildProcessTests {
    func start(_ script: String) throws -> ChildProcess {
        try ChildProcess.spawn("/bin/sh", arguments: ["sh", "-c", script], files: { _ in }).get()
    }

    /// Whether `pid` is a process that has not ended (a zombie has).
    func alive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    @Test func aKillAfterTheEndReachesItsZombieUntilReapedAndNothingAfter() throws {
        let clock = TestClock()
        let child = try start("exit 3")
        // It ends on its own: the wait is signalled, the clock never moved.
        #expect(child.wait(until: clock.now + .seconds(3600), on: clock))
        // Unreaped, its pid still names it (a zombie) and its group: the kill reaches only that.
        #expect(kill(child.pid, 0) == 0, "reaped by its wait")
        #expect(child.kill(SIGKILL))
        let status = child.reap()
        #expect(status & 0x7f == 0 && (status >> 8) & 0xff == 3, "wait status \(status)")
        // Reaped, its pid may be another's: no kill is sent, and it is reaped once.
        #expect(!child.kill(SIGKILL))
        #expect(kill(child.pid, 0) != 0)
        #expect(child.reap() == status)
    }

    @Test func aWaitEndsAtItsDeadlineOnTheClockAndAKillThenStopsIt() throws {
        let clock = TestClock()
        let child = try start("exec sleep 300")
        let deadline = clock.now + .seconds(10)
        let waited = OnItsOwnThread { child.wait(until: deadline, on: clock) }
        try #require(clock.waitForWaiters(1), "the wait is not on the clock")
        clock.advance(.seconds(10) - .milliseconds(1))
        // 1 ms short of its deadline the wait goes on, and the program runs.
        #expect(clock.waiters == 1 && !waited.finished)
        #expect(alive(child.pid))
        clock.advance(.milliseconds(1))
        #expect(waited.value == false)
        #expect(alive(child.pid), "a wait that times out stops nothing")
        #expect(child.kill(SIGTERM))
        // Its end wakes a second wait at once, its deadline far off and the clock still.
        #expect(child.wait(until: clock.now + .seconds(3600), on: clock))
        let status = child.reap()
        #expect(status & 0x7f == SIGTERM, "wait status \(status)")
    }

    /// The kill is the group's: what the program started goes with it.
    @Test func aKillReachesWhatTheProgramStarted() throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pids = dir + "/pids"
        let child = try start("trap '' TERM; sleep 300 & echo $! > \(pids); wait")
        try waitUntil(timeout: 60) { ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").hasSuffix("\n") }
        let started = try #require(pid_t(try String(contentsOfFile: pids, encoding: .utf8).dropLast()))
        #expect(child.kill(SIGKILL))
        #expect(child.reap() & 0x7f == SIGKILL)
        try waitUntil(timeout: 60) { !alive(started) }
    }

    @Test func aProgramThatIsNotThereIsNamedByItsError() {
        let started = ChildProcess.spawn("/nonexistent/program", arguments: ["program"], files: { _ in })
        guard case let .failure(failure) = started else { Issue.record("started"); return }
        #expect(failure.code == ENOENT && failure.description == "No such file or directory")
    }
}
