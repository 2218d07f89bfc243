import FoundationEssentials

/// One thread of its own that runs jobs one at a time, in order, with at most `capacity`
/// waiting (a `Worker` that refuses when full). The web page reads and renders the log
/// here: however many clients ask, and however slow the disk, the pages take this one
/// thread and never Swift's cooperative threads, which the listening session runs on.
/// What the jobs touch is theirs alone.
public final class SerialWorker: Sendable {
    public struct Busy: Error {}

    private let worker: Worker<@Sendable () -> Void>

    public init(name: String, capacity: Int) {
        worker = Worker(name: name, capacity: capacity, whenFull: .refuse)
        worker.start { job in job() }
    }

    /// Runs `body` on the worker's thread and returns its result; throws `Busy` at once
    /// when `capacity` jobs are already waiting.
    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
            if case .refused = worker.offer({ c.resume(returning: body()) }) { c.resume(throwing: Busy()) }
        }
    }
}
