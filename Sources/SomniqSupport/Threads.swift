import FoundationEssentials
import Glibc
import CSupport

// NSCondition and Thread, which live in full Foundation, over pthreads. A lock alone is
// Synchronization's `Mutex`.

/// A mutex and a condition variable, as NSCondition: `wait` and `wait(until:)` with the
/// lock held; `wait(until:)` returns false when the deadline (a monotonic instant) passed.
/// The condition waits on CLOCK_MONOTONIC, so a wall clock set back does not stretch a wait.
// @unchecked: the pthread mutex and condition it allocates are what makes it safe to share.
public final class PosixCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(cond)
        pthread_mutex_destroy(mutex)
        cond.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    public func wait() { pthread_cond_wait(cond, mutex) }
    public func signal() { pthread_cond_signal(cond) }
    public func broadcast() { pthread_cond_broadcast(cond) }

    /// Waits for a signal until `deadline`; false once it has passed.
    @discardableResult
    public func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return false }
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        // A day at most per wait: the callers wait in loops that look at the time again.
        let (seconds, attoseconds) = left.components
        let nanoseconds = spec.tv_nsec + Int(attoseconds / 1_000_000_000)
        spec.tv_sec += time_t(min(seconds, 86_400)) + time_t(nanoseconds / 1_000_000_000)
        spec.tv_nsec = nanoseconds % 1_000_000_000
        return pthread_cond_timedwait(cond, mutex, &spec) == 0
    }
}

/// A thread of its own running `body` (Foundation's `Thread` with a name, started at once).
package enum PosixThread {
    private final class Box {
        let name: String
        let body: () -> Void
        init(_ name: String, _ body: @escaping () -> Void) { self.name = name; self.body = body }
    }

    /// Starts `body` on a new detached thread named `name` (the kernel keeps 15 bytes of it).
    package static func start(name: String, _ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Box(name, body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            _ = somniq_set_thread_name(box.name)
            box.body()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        precondition(result == 0, "cannot start a thread: \(String(cString: strerror(result)))")
    }
}
