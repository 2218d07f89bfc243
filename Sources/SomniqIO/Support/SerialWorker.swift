import FoundationEssentials
import Glibc

/// One thread of its own that runs jobs one at a time, in order, with at most `capacity`
/// waiting. The web page reads and renders the log here: however many clients ask, and
/// however slow the disk, the pages take this one thread and never Swift's cooperative
/// threads, which the listening session runs on. What the jobs touch is theirs alone.
// @unchecked: Synchronization has no condition variable; the state is guarded by `condition`.
public final class SerialWorker: @unchecked Sendable {
    public struct Busy: Error {}

    private let condition = PosixCondition()
    private var jobs: [() -> Void] = []
    private let capacity: Int

    public init(name: String, capacity: Int) {
        self.capacity = capacity
        PosixThread.start(name: name) { [self] in
            while true {
                condition.lock()
                while jobs.isEmpty { condition.wait() }
                let job = jobs.removeFirst()
                condition.unlock()
                job()
            }
        }
    }

    /// Runs `body` on the worker's thread and returns its result; throws `Busy` at once
    /// when `capacity` jobs are already waiting.
    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
            condition.lock()
            guard jobs.count < capacity else {
                condition.unlock()
                c.resume(throwing: Busy())
                return
            }
            jobs.append { c.resume(returning: body()) }
            condition.signal()
            condition.unlock()
        }
    }
}
