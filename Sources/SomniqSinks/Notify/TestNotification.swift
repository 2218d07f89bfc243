import FoundationEssentials
import Glibc
import Logging
import SomniqConfig
import SomniqCore
import SomniqSupport
import Synchronization

/// A test notification through the configured sinks: what `somniq test-alert` and the web
/// page's button do.
///
/// Every sink is tried at once, each on a thread of its own, so that the whole takes about
/// `timeout` however many sinks there are; each is bounded by `timeout` whatever its own
/// `timeout_s` (a webhook's request is cut at it, an exec program killed at it, as at its
/// own timeout). A sink is sent the test once. It is sent it again (at most
/// `testAttempts` times in all, `testPause` and then twice that apart, within `timeout`)
/// only when nothing reached the far end (`SinkFailure.unsent`: no connection could be
/// made): a request that reached a service, even one answered with an error (a push
/// service that took it, then answered 500), may have been delivered, and a person woken
/// by one test must not be by ten. What cannot heal within seconds (a program that is not
/// there or may not be run, a URL that is not http or https, a host name that does not
/// resolve) fails at once.
///
/// Every deadline, pause and time taken is on one clock, `clock` (the front end's: the
/// machine's; a test's), the one the sinks measure their own timeouts on.
extension SinkHub {
    /// Sends to a sink, at most, for one test.
    static let testAttempts = 3
    /// The wait before the second attempt; the third waits twice as long.
    static let testPause = Duration.milliseconds(500)

    /// Sends one test notification through each of `configs`, all at once, and waits for
    /// the answers: each sink is given `timeout`, and one still busy `grace` past it (a
    /// library call that blocks) is answered for as not delivered, its thread left to
    /// finish alone. Results in the order of `configs`.
    public static func sendTest(_ configs: [SinkConfig], room: String, profile: Profile, version: String, time: String,
                                timeout: Duration, grace: Duration = .seconds(2), logger: Logger,
                                clock: any IOClock = SystemClock()) -> [TestResult] {
        guard !configs.isEmpty else { return [] }
        let answer = Answer()
        let gather = startTests(configs, room: room, profile: profile, version: version, time: time, timeout: timeout, grace: grace,
                                logger: logger, clock: clock) { answer.set($0) }
        answer.wait(until: clock.now + timeout + grace, on: clock)
        gather.finish()
        return answer.results ?? []
    }

    /// `sendTest` for a caller that must not wait in its own thread (the web page's button).
    public static func sendTestAtOnce(_ configs: [SinkConfig], room: String, profile: Profile, version: String, time: String,
                                      timeout: Duration, grace: Duration = .seconds(2), logger: Logger,
                                      clock: any IOClock = SystemClock()) async -> [TestResult] {
        guard !configs.isEmpty else { return [] }
        return await withCheckedContinuation { (c: CheckedContinuation<[TestResult], Never>) in
            let answer = Answer()
            let gather = startTests(configs, room: room, profile: profile, version: version, time: time, timeout: timeout, grace: grace,
                                    logger: logger, clock: clock) { results in
                answer.set(results)
                c.resume(returning: results)
            }
            // Answers for the sinks still busy `grace` past `timeout`; ends with the last answer.
            PosixThread.start(name: "somniq-test") {
                answer.wait(until: clock.now + timeout + grace, on: clock)
                gather.finish()
            }
        }
    }

    /// Starts each sink's test on a thread of its own; `then` is called once, with every
    /// result when the last is in, or with those in so far when `finish` is called.
    private static func startTests(_ configs: [SinkConfig], room: String, profile: Profile, version: String, time: String,
                                   timeout: Duration, grace: Duration, logger: Logger, clock: any IOClock,
                                   then: @escaping @Sendable ([TestResult]) -> Void) -> Gather {
        let deadline = clock.now + timeout
        let pending = configs.map {
            TestResult(sink: $0.name, type: $0.typeName, failure: String(cFormat: "no answer within %.0f s", (timeout + grace).inSeconds),
                       seconds: (timeout + grace).inSeconds)
        }
        let gather = Gather(pending, then)
        for (i, config) in configs.enumerated() {
            PosixThread.start(name: "somniq-test") {
                gather.set(i, test(config, room: room, profile: profile, version: version, time: time, deadline: deadline, logger: logger,
                                   clock: clock))
            }
        }
        return gather
    }

    /// One sink's test, by `deadline` on `clock`, the sink's own clock too.
    private static func test(_ config: SinkConfig, room: String, profile: Profile, version: String, time: String,
                             deadline: ContinuousClock.Instant, logger: Logger, clock: any IOClock) -> TestResult {
        let started = clock.now
        func result(_ failure: String?) -> TestResult {
            TestResult(sink: config.name, type: config.typeName, failure: failure, seconds: started.duration(to: clock.now).inSeconds)
        }
        if let (problem, package) = libraryProblem(config.kind) { return result("\(problem); install \(package)") }
        let endpoint = Self.endpoint(config, room: room, profile: profile, version: version, logger: logger, test: true, clock: clock)
        endpoint.start(wake: {})
        defer { endpoint.stop() }
        var pause = testPause
        var attempt = 1
        let paused = PosixCondition()   // nothing signals it: its deadline ends a pause
        while true {
            do throws(SinkFailure) {
                try endpoint.deliver(.test(room: room, time: time), until: deadline)
                return result(endpoint.confirm(until: deadline))
            } catch {
                guard error.unsent, attempt < testAttempts, clock.now + pause < deadline else { return result(error.description) }
                let until = clock.now + pause
                paused.lock()
                while clock.wait(paused, until: until) {}
                paused.unlock()
                pause *= 2
                attempt += 1
            }
        }
    }

    /// The results as they come, given back once: when the last is in, or at `finish`.
    private final class Gather: Sendable {
        private struct State {
            var results: [TestResult]
            var missing: Int
            var then: (@Sendable ([TestResult]) -> Void)?
        }
        private let state: Mutex<State>

        init(_ pending: [TestResult], _ then: @escaping @Sendable ([TestResult]) -> Void) {
            state = Mutex(State(results: pending, missing: pending.count, then: then))
        }

        func set(_ i: Int, _ r: TestResult) {
            let done = state.withLock { s in
                guard s.then != nil else { return false }
                s.results[i] = r
                s.missing -= 1
                return s.missing == 0
            }
            if done { finish() }
        }

        func finish() {
            let (then, r) = state.withLock { s in
                defer { s.then = nil }
                return (s.then, s.results)
            }
            then?(r)
        }
    }

    /// The results, for a caller waiting in its own thread: set under `condition`'s lock
    /// (so that a waiter cannot miss the signal), held in a `Mutex`.
    private final class Answer: Sendable {
        private let condition = PosixCondition()
        private let given = Mutex<[TestResult]?>(nil)

        func set(_ results: [TestResult]) {
            condition.lock()
            given.withLock { $0 = results }
            condition.broadcast()
            condition.unlock()
        }

        /// Until the results are given, or `deadline` on `clock` has passed.
        func wait(until deadline: ContinuousClock.Instant, on clock: any IOClock) {
            condition.lock()
            while results == nil, clock.wait(condition, until: deadline) {}
            condition.unlock()
        }

        var results: [TestResult]? { given.withLock { $0 } }
    }
}
