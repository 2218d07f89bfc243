import Dispatch
import Foundation
import SomniqCore

/// Runs blocking ALSA reads on a dedicated thread and hands period blocks to the
/// pipeline through a bounded queue. When the queue is full the reader waits, so a
/// stalled consumer shows up as an ALSA overrun (counted and logged), never as
/// memory growth. Blocks live in buffers allocated at init and used in turn: nothing
/// is allocated per period.
public final class CaptureThread: @unchecked Sendable {
    public enum Item: Sendable {
        /// `count` samples in buffer `slot` (read them with `withSamples`), after an
        /// overrun that lost `overrunFrames`.
        case samples(slot: Int, count: Int, overrunFrames: Int)
        case failed(CaptureError)
    }

    private let capture: AlsaCapture
    private let capacity: Int
    private let condition = NSCondition()
    private var queue: [Item] = []
    // capacity queued + one being consumed + one being filled: a slot is never reused
    // while the consumer can still read it. Raw storage, so that the reader writing one
    // slot and the consumer reading another never touch the same Swift value.
    private let slots: Int
    private let storage: UnsafeMutablePointer<Float>
    private var nextSlot = 0                 // touched by the reader thread only
    private var stopped = false
    private var thread: Thread?
    private let exited = DispatchSemaphore(value: 0)

    public init(capture: AlsaCapture, capacity: Int = 50) {
        self.capture = capture
        self.capacity = capacity
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
    public func withSamples<R>(slot k: Int, count: Int, _ body: (UnsafeBufferPointer<Float>) -> R) -> R {
        body(UnsafeBufferPointer(rebasing: slot(k)[0..<count]))
    }

    public func start() {
        let t = Thread { [self] in loop() }
        t.name = "somniq-capture"
        thread = t
        t.start()
    }

    /// Asks the reader to stop after its current read and waits up to `timeout` seconds
    /// for it. True when the reader has exited and the device may be closed; false when
    /// it is still blocked in a read (a stalled source), and closing under it would be
    /// a use-after-free.
    @discardableResult
    public func stop(timeout: Double = 1.0) -> Bool {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
        guard thread != nil else { return true }
        return exited.wait(timeout: .now() + timeout) == .success
    }

    /// The next item, waiting up to `timeout` seconds; nil on timeout or after `stop`.
    public func next(timeout: Double) -> Item? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while queue.isEmpty && !stopped {
            if !condition.wait(until: deadline) { return nil }
        }
        guard !queue.isEmpty else { return nil }
        let item = queue.removeFirst()
        condition.broadcast()
        return item
    }

    private func loop() {
        defer { exited.signal() }
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
                let r = try capture.read(into: slot(k))
                item = .samples(slot: k, count: r.frames, overrunFrames: r.overrunFrames)
            } catch {
                item = .failed(error)
            }
            condition.lock()
            queue.append(item)
            condition.broadcast()
            condition.unlock()
            if case .failed = item { return }
        }
    }
}
