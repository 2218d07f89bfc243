import FoundationEssentials
import Glibc
import Logging
import SomniqCore
import Synchronization

extension SinkHub {
    /// `sendTest` for a caller that must not wait on a network in its own thread (the web
    /// page's button): every sink on a thread of its own, all at once, so that the whole
    /// takes about `timeout` however many sinks there are. A sink still busy `grace`
    /// past its timeout (an exec program that ignores it, a library call that
    /// blocks) is answered for as not delivered, and its thread left to finish alone.
    public static func sendTestAtOnce(_ configs: [SinkConfig], room: String, profile: Profile, version: String, time: String,
                                      timeout: Duration, grace: Duration = .seconds(2), logger: Logger) async -> [TestResult] {
        guard !configs.isEmpty else { return [] }
        return await withCheckedContinuation { (c: CheckedContinuation<[TestResult], Never>) in
            let pending = configs.map {
                TestResult(sink: $0.name, type: $0.typeName, failure: String(cFormat: "no answer within %.0f s", (timeout + grace).inSeconds),
                           seconds: (timeout + grace).inSeconds)
            }
            let gather = Gather(pending, c)
            for (i, config) in configs.enumerated() {
                PosixThread.start(name: "somniq-test") {
                    let result = sendTest([config], room: room, profile: profile, version: version, time: time,
                                          timeout: timeout, logger: logger)
                    gather.set(i, result[0])
                }
            }
            PosixThread.start(name: "somniq-test") {
                usleep(useconds_t((timeout + grace).inSeconds * 1e6))
                gather.finish()
            }
        }
    }

    /// The results as they come, given back once: when the last is in, or at the deadline.
    private final class Gather: Sendable {
        private struct State {
            var results: [TestResult]
            var missing: Int
            var continuation: CheckedContinuation<[TestResult], Never>?
        }
        private let state: Mutex<State>

        init(_ pending: [TestResult], _ c: CheckedContinuation<[TestResult], Never>) {
            state = Mutex(State(results: pending, missing: pending.count, continuation: c))
        }

        func set(_ i: Int, _ r: TestResult) {
            let done = state.withLock { s in
                guard s.continuation != nil else { return false }
                s.results[i] = r
                s.missing -= 1
                return s.missing == 0
            }
            if done { finish() }
        }

        func finish() {
            let (c, r) = state.withLock { s in
                defer { s.continuation = nil }
                return (s.continuation, s.results)
            }
            c?.resume(returning: r)
        }
    }
}
