import FoundationEssentials
import Glibc
import SomniqAudio
import SomniqCore
import SomniqSupport

/// Where a capture thread reads its periods: a device (`AlsaCapture`), or a recording
/// played at real time (`PlayReader`). Reads block until a period, or less, is there.
public protocol PeriodReader: AnyObject {
    /// The most samples one read gives.
    var periodFrames: Int { get }
    /// Reads up to `out.count` (at most `periodFrames`) 16 kHz samples into `out`: how many
    /// it read, and how many frames were lost before them. Nil once the source has ended
    /// (a recording played to its end; a device never ends).
    func readPeriod(into out: UnsafeMutableBufferPointer<Float>) throws(CaptureError) -> AlsaCapture.Read?
    func close()
}

/// Runs blocking reads (ALSA's, or a played recording's) on a dedicated thread and hands
/// period blocks to an async consumer (`CaptureSource`) through a bounded queue. A read
/// shorter than a period is handed on as it is, never filled up from an earlier one. When the queue is full the reader
/// waits, so a stalled consumer shows up as an ALSA overrun (counted and logged), never
/// as memory growth. Blocks live in buffers allocated at init and used in turn: nothing
/// is allocated per period. The consumer waits suspended, never blocking a thread.
// @unchecked: Synchronization has no condition variable; the state is guarded by `condition`.
public final class CaptureThread: @unchecked Sendable {
    public enum Item: Sendable {
        /// `count` samples in buffer `slot` (read them with `samples(slot:count:)`), after an
        /// overrun that lost `overrunFrames`, their read returned at `read`.
        case samples(slot: Int, count: Int, overrunFrames: Int, read: ContinuousClock.Instant)
        case failed(CaptureError)
        /// The source has ended (a played recording): nothing follows.
        case ended
    }

    private let capture: any PeriodReader
    private let capacity: Int
    /// The clock blocks are stamped on.
    private let clock: any IOClock
    private let condition = PosixCondition()
    private var queue: [Item] = []
    // capacity queued + one being consumed + one being filled: a slot is never reused
    // while the consumer can still read it. Raw storage, so that the reader writing one
    // slot and the consumer reading another never touch the same Swift value.
    private let slots: Int
    private let storage: UnsafeMutablePointer<Float>
    private var nextSlot = 0                 // touched by the reader thread only
    private var stopped = false
    /// The consumer, suspended in `next` until the reader queues an item or stops.
    private var waiter: UnsafeContinuation<Item?, Never>?
    private var started = false
    private var exited = false

    /// `clock`: the one blocks are stamped with (the daemon's: it measures a block's wait
    /// in the queue on it).
    public init(capture: any PeriodReader, capacity: Int = 50, clock: any IOClock = SystemClock()) {
        self.capture = capture
        self.capacity = capacity
        self.clock = clock
        slots = capacity + 2
        storage = .allocate(capacity: slots * capture.periodFrames)
        storage.initialize(repeating: 0, count: slots * capture.periodFrames)
        queue.reserveCapacity(capacity)
    }

    deinit { storage.deallocate() }

    private func slot(_ k: Int) -> UnsafeMutableBufferPointer<Float> {
        UnsafeMutableBufferPointer(start: storage + k * capture.periodFrames, count: capture.periodFrames)
    }

    /// The samples of an item returned by `next`, valid until the following `next`.
    public func samples(slot k: Int, count: Int) -> UnsafeBufferPointer<Float> {
        UnsafeBufferPointer(rebasing: slot(k)[0..<count])
    }

    public func start() {
        started = true
        PosixThread.start(name: "somniq-capture") { [self] in loop() }
    }

    /// Asks the reader to stop after its current read; a consumer waiting in `next` gets
    /// nil at once. Does not wait (`waitForExit`).
    public func requestStop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        let waiting = waiter
        waiter = nil
        condition.unlock()
        waiting?.resume(returning: nil)
    }

    /// Waits up to `timeout` for the reader to exit after `requestStop`. True when
    /// it has and the device may be closed; false when it is still blocked in a read (a
    /// stalled source), and closing under it would be a use-after-free. The wait is the
    /// machine's, whatever `clock` is: a read blocked in a device, or a played recording's
    /// pace on a test's clock that stands still, lets go in real time or never.
    public func waitForExit(within timeout: Duration = .seconds(1)) -> Bool {
        guard started else { return true }
        let machine = SystemClock()
        let deadline = machine.now + timeout
        condition.lock()
        defer { condition.unlock() }
        while !exited, machine.wait(condition, until: deadline) {}
        return exited
    }

    /// The next item, suspending until the reader has one; nil once stopped (by
    /// `requestStop` or the task's cancellation).
    public func next() async -> Item? {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (c: UnsafeContinuation<Item?, Never>) in
                condition.lock()
                if stopped {
                    condition.unlock()
                    c.resume(returning: nil)
                } else if let item = takeLocked() {
                    condition.unlock()
                    c.resume(returning: item)
                } else {
                    waiter = c
                    condition.unlock()
                }
            }
        } onCancel: {
            requestStop()
        }
    }

    /// The oldest queued item, if any; the reader may fill its slot's successor. Called
    /// with the lock held.
    private func takeLocked() -> Item? {
        guard !queue.isEmpty else { return nil }
        let item = queue.removeFirst()
        condition.broadcast()
        return item
    }

    private func loop() {
        defer {
            condition.lock()
            exited = true
            condition.broadcast()
            condition.unlock()
        }
        while true {
            condition.lock()
            while queue.count >= capacity && !stopped { condition.wait() }
            let done = stopped
            condition.unlock()
            if done { return }
            let k = nextSlot
            nextSlot = (nextSlot + 1) % slots
            let item: Item
            do throws(CaptureError) {
                if let r = try capture.readPeriod(into: slot(k)) {
                    item = .samples(slot: k, count: r.frames, overrunFrames: r.overrunFrames, read: clock.now)
                } else {
                    item = .ended
                }
            } catch {
                item = .failed(error)
            }
            condition.lock()
            queue.append(item)
            condition.broadcast()
            let waiting = waiter
            waiter = nil
            let handed = waiting == nil ? nil : takeLocked()
            condition.unlock()
            waiting?.resume(returning: handed)
            switch item {
            case .failed, .ended: return
            case .samples: continue
            }
        }
    }
}
