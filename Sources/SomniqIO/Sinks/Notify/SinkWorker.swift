import FoundationEssentials
import Glibc
import Logging

/// Why a sink could not deliver, in words for the log (already free of control characters).
public struct SinkFailure: Error, CustomStringConvertible {
    public var description: String
    /// Nothing reached the far end (no connection could be made to it), so that sending
    /// again cannot deliver twice. A test (`SinkHub.sendTest`) tries again only then; the
    /// daemon's queue retries every failure, with backoff.
    public var unsent: Bool
    public init(_ description: String, unsent: Bool = false) {
        self.description = LogText.escape(description)
        self.unsent = unsent
    }
}

/// An endpoint: it delivers one message at a time, on its worker's thread, and may block
/// (up to its own timeout) doing so.
protocol SinkEndpoint: AnyObject, Sendable {
    /// Called once before the first delivery; `wake` cuts a retry wait short (MQTT calls
    /// it on reconnecting).
    func start(wake: @escaping @Sendable () -> Void)
    /// Delivers `message`, given up at the sink's own timeout or at `deadline` (a test's
    /// `--timeout`), whichever comes first.
    func deliver(_ message: SinkMessage, until deadline: ContinuousClock.Instant?) throws(SinkFailure)
    /// Called once after the last delivery.
    func stop()
    /// Whether this endpoint takes messages of `kind` at all (only MQTT takes levels).
    func takes(_ kind: SinkMessage.Kind) -> Bool
    /// Called from another thread when the worker gives up on a delivery under way (the
    /// daemon or a replay is ending): cut it short if it can be (exec kills its program).
    func abort()
    /// After a delivery, waits until `deadline` for the endpoint to confirm it reached its
    /// far end; why not, if it did not (MQTT: the broker's acknowledgement). A delivery
    /// that returned has reached it for exec and webhook.
    func confirm(until deadline: ContinuousClock.Instant) -> String?
}

extension SinkEndpoint {
    func deliver(_ message: SinkMessage) throws(SinkFailure) { try deliver(message, until: nil) }
    func abort() {}
    func confirm(until deadline: ContinuousClock.Instant) -> String? { nil }
}

/// Counts a sink keeps, for the metrics file and the log.
public struct SinkCounts: Sendable, Equatable {
    public var delivered = 0
    /// Pushed out of a full queue, or still queued at shutdown.
    public var dropped = 0
    /// Delivery attempts that failed (each retry counts).
    public var failures = 0
    /// Event starts held back by the rate limit.
    public var rateLimited = 0
    public var queued = 0
    /// Messages handed to the sink's queue.
    public var offered = 0
    /// Why the last failed attempt failed.
    public var lastError: String?
}

/// One sink's bounded queue and the thread that drains it, so that a slow or dead
/// endpoint never blocks listening: `offer` never waits; when the queue is full the
/// oldest message gives way and is counted. A failed delivery is retried, the same
/// message first, after 1, 2, 4 … 60 s.
// @unchecked: Synchronization has no condition variable; the state is guarded by `condition`.
final class SinkWorker: @unchecked Sendable {
    private struct Queued {
        var message: SinkMessage
        var serial: Int
    }

    let name: String
    private let endpoint: SinkEndpoint
    private let capacity: Int
    private let logger: Logger
    private let clock: any IOClock
    private let condition = PosixCondition()
    private var queue: [Queued] = []
    private var head = 0
    private var serial = 0
    /// Set by `drain`: the next retry goes at once, and the backoff starts again at 1 s.
    private var retryNow = false
    private var counts = SinkCounts()
    private var stopping = false
    private var woken = false
    private var finished = false
    /// The serial of the message being delivered, if one is.
    private var inFlight: Int?
    /// The message being delivered was given up on (a full queue, a drain or a stop); and
    /// whether it was counted as dropped already (it was still under way when the wait
    /// for it ended).
    private var abandoned = false, abandonedCounted = false

    /// `clock`: the back-off's and the deadlines' (the hub's).
    init(name: String, endpoint: SinkEndpoint, capacity: Int, logger: Logger, clock: any IOClock) {
        self.name = name
        self.clock = clock
        self.endpoint = endpoint
        self.capacity = capacity
        self.logger = logger
        queue.reserveCapacity(capacity)
    }

    func start() {
        PosixThread.start(name: "somniq-sink-\(name)") { [self] in run() }
    }

    func takes(_ kind: SinkMessage.Kind) -> Bool { endpoint.takes(kind) }

    /// Queues a message without waiting; a full queue drops its oldest, counted.
    func offer(_ message: SinkMessage) {
        condition.lock()
        defer { condition.broadcast(); condition.unlock() }
        if queue.count - head >= capacity {
            // The message under way is not lost yet: it counts when its delivery ends.
            if queue[head].serial == inFlight { abandoned = true } else { counts.dropped += 1 }
            head += 1
        }
        serial += 1
        counts.offered += 1
        queue.append(Queued(message: message, serial: serial))
    }

    func countRateLimited() {
        condition.lock()
        counts.rateLimited += 1
        condition.unlock()
    }

    var snapshot: SinkCounts {
        condition.lock()
        defer { condition.unlock() }
        var c = counts
        c.queued = queue.count - head
        return c
    }

    /// Asks the thread to stop once the queue is empty, or at once while deliveries fail.
    func requestStop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `deadline` for the thread to stop, then gives up on what is left
    /// (counted as dropped) and cuts a delivery under way short. Call after `requestStop`.
    func waitStopped(until deadline: ContinuousClock.Instant) {
        condition.lock()
        while !finished, clock.wait(condition, until: deadline) {}
        let late = !finished
        if late {
            // Still inside a delivery or a retry wait: what is queued is lost with the process.
            giveUp()
            finished = true
        }
        condition.unlock()
        // The process is ending: no time to wait for the delivery cut short.
        if late { abortDelivery(waiting: .zero) }
    }

    /// Starts a drain: a failed message is retried at once, and then with the usual
    /// backoff starting again at 1 s (so 1, 2, 4, 8 s).
    func startDrain() {
        condition.lock()
        retryNow = true
        condition.broadcast()
        condition.unlock()
    }

    /// Gives what is queued until `deadline` to be delivered (after `startDrain`); what
    /// is still queued then is given up, counted as dropped, and a delivery under way is
    /// cut short. The thread goes on taking messages afterwards.
    func waitDrained(until deadline: ContinuousClock.Instant) {
        condition.lock()
        while head < queue.count, clock.wait(condition, until: deadline) {}
        let late = head < queue.count
        if late { giveUp() }
        retryNow = false
        condition.unlock()
        if late { abortDelivery(waiting: .seconds(1)) }
    }

    /// Drops every queued message, counted; the one under way counts when its delivery
    /// ends. Call with the lock held.
    private func giveUp() {
        var n = queue.count - head
        if n > 0, queue[head].serial == inFlight { abandoned = true; n -= 1 }
        counts.dropped += n
        queue.removeAll()
        head = 0
    }

    /// Cuts the delivery under way short, and waits up to `wait` for it to end, so that
    /// the counts said next are whole; one still under way then (a request curl cannot
    /// cut) is counted as dropped now, and as delivered instead if it does get through.
    private func abortDelivery(waiting wait: Duration) {
        endpoint.abort()
        condition.lock()
        let until = clock.now + wait
        while inFlight != nil, abandoned, clock.wait(condition, until: until) {}
        if inFlight != nil, abandoned, !abandonedCounted {
            counts.dropped += 1
            abandonedCounted = true
        }
        condition.unlock()
    }

    /// Ends the delivery under way in the counts. Call with the lock held.
    private func settle(delivered: Bool) {
        if delivered {
            counts.delivered += 1
            if abandonedCounted { counts.dropped -= 1 }
        } else if abandoned, !abandonedCounted {
            counts.dropped += 1
        }
        inFlight = nil
        abandoned = false
        abandonedCounted = false
    }

    private func wake() {
        condition.lock()
        woken = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        endpoint.start(wake: { [weak self] in self?.wake() })
        var backoff = Duration.seconds(1)
        var failing = false
        while true {
            condition.lock()
            while head == queue.count && !stopping { condition.wait() }
            if head == queue.count || (stopping && failing) || finished {
                if !finished { counts.dropped += queue.count - head }
                finished = true
                condition.broadcast()
                condition.unlock()
                endpoint.stop()
                return
            }
            let (message, taken) = (queue[head].message, queue[head].serial)
            inFlight = taken
            condition.unlock()

            do {
                try endpoint.deliver(message)
                condition.lock()
                // A full queue, `drain` or `stop` may have given up on the message while
                // this delivery ran: then it is no longer the head.
                if head < queue.count, queue[head].serial == taken {
                    head += 1
                    if head > 64 && head * 2 > queue.count { queue.removeFirst(head); head = 0 }
                }
                settle(delivered: true)
                condition.broadcast()
                condition.unlock()
                if failing {
                    failing = false
                    backoff = .seconds(1)
                    logger.notice("sink \(name): delivering again")
                }
            } catch {
                condition.lock()
                // A delivery given up on while it ran (and perhaps cut short by `abort`) is
                // a dropped message, not one more failure: its error would hide the cause.
                let given = abandoned
                if !given {
                    counts.failures += 1
                    counts.lastError = error.description
                }
                settle(delivered: false)
                condition.broadcast()
                condition.unlock()
                if given { continue }
                if !failing { logger.error("sink \(name): \(error); retrying with backoff") }
                failing = true
                condition.lock()
                woken = false
                let until = clock.now + backoff
                while !woken && !stopping && !retryNow, clock.wait(condition, until: until) {}
                if retryNow {
                    retryNow = false
                    backoff = .seconds(1)
                } else {
                    backoff = min(.seconds(60), backoff * 2)
                }
                condition.unlock()
            }
        }
    }
}
