// Built only where Swift Testing is, like TestClock.
#if canImport(Testing)
import SomniqSupport
import Synchronization

/// A task executor with a thread of its own, for a test whose code under test is async (the
/// daemon's `SessionService`, an actor) and must not wait for the cooperative pool: on two
/// cores, beside the suites that replay audio and keep the pool's threads busy, a task on
/// the pool may not run for minutes (359 s in one CI run). A task started with this executor
/// as its preference (`Task(executorPreference:)`, `withTaskExecutorPreference`) runs its
/// own code, its child tasks' and that of default actors it calls (SE-0417) on this thread.
/// The thread lives as long as the test process; it idles on a condition when it has no work.
package final class ThreadExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let wake = PosixCondition()

    /// The daemon tests' thread.
    package static let daemon = ThreadExecutor(name: "somniq-test-ex")

    package init(name: String) {
        PosixThread.start(name: name) { [self] in run() }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        wake.lock()
        jobs.withLock { $0.append(job) }
        wake.signal()
        wake.unlock()
    }

    private func run() {
        while true {
            wake.lock()
            var next = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            while next == nil {
                wake.wait()
                next = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            }
            wake.unlock()
            next!.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
#endif
