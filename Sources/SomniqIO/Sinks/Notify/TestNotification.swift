import FoundationEssentials
import Glibc
import Logging
import SomniqCore

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
    private final class Gather: @unchecked Sendable {
        private let lock = PosixLock()
        private var results: [TestResult]
        private var missing: Int
        private var continuation: CheckedContinuation<[TestResult], Never>?

        init(_ pending: [TestResult], _ c: CheckedContinuation<[TestResult], Never>) {
            results = pending
            missing = pending.count
            continuation = c
        }

        func set(_ i: Int, _ r: TestResult) {
            lock.lock()
            guard continuation != nil else { lock.unlock(); return }
            results[i] = r
            missing -= 1
            let done = missing == 0
            lock.unlock()
            if done { finish() }
        }

        func finish() {
            lock.lock()
            let c = continuation
            continuation = nil
            let r = results
            lock.unlock()
            c?.resume(returning: r)
        }
    }
}
