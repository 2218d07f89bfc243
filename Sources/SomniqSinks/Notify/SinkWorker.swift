import FoundationEssentials
import Logging
import SomniqSupport
import Synchronization

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
    /// `--timeout`), whichever comes first. Both are on the endpoint's clock: the one the
    /// hub or the test that made it was given.
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

/// One sink's bounded queue and the thread that drains it (a `Worker` whose bound counts
/// the message under way), so that a slow or dead endpoint never blocks listening:
/// `offer` never waits; when the queue is full the oldest message gives way and is
/// counted, the one under way too. A failed delivery is retried, the same message first,
/// after 1, 2, 4 … 60 s.
///
/// Its state is in a `Mutex`, taken only in the closures the worker runs with its own lock
/// held, so the two change together.
final class SinkWorker: Sendable {
    private struct State {
        var counts = SinkCounts()
        /// Set by `drain`: the next retry goes at once, and the backoff starts again at 1 s.
        var retryNow = false
        var woken = false
        /// `waitStopped` gave up waiting: nothing more is delivered.
        var finished = false
        /// A delivery is under way (not a wait to retry).
        var inFlight = false
        /// The message under way was given up on and counted as dropped already (it was
        /// waiting to retry, or still being delivered when the wait for it ended).
        var abandonedCounted = false
        /// The last delivery failed, and the wait before the next retry (the worker
        /// thread's own).
        var failing = false
        var backoff = Duration.seconds(1)
    }

    let name: String
    private let endpoint: SinkEndpoint
    private let logger: Logger
    private let clock: any IOClock
    private let worker: Worker<SinkMessage>
    private let state = Mutex(State())

    /// `clock`: the back-off's and the deadlines' (the hub's).
    init(name: String, endpoint: SinkEndpoint, capacity: Int, logger: Logger, clock: any IOClock) {
        self.name = name
        self.endpoint = endpoint
        self.logger = logger
        self.clock = clock
        worker = Worker(name: "somniq-sink-\(name)", capacity: capacity, whenFull: .dropOldest, bound: .withUnderWay, clock: clock)
    }

    func start() {
        worker.start(first: { [self] in endpoint.start(wake: { [weak self] in self?.wake() }) },
                     last: { [endpoint] in endpoint.stop() }) { [self] message in deliver(message) }
    }

    func takes(_ kind: SinkMessage.Kind) -> Bool { endpoint.takes(kind) }

    /// Queues a message without waiting; a full queue drops its oldest, counted.
    func offer(_ message: SinkMessage) {
        worker.offer(message) { offered, status in
            state.withLock { s in
                s.counts.offered += 1
                switch offered {
                case .queued: break
                case .queuedDropping, .refused: s.counts.dropped += 1
                // The message under way is lost now if it waits to retry; if it is being
                // delivered, it counts when its delivery ends.
                case .queuedGivingUpUnderWay: Self.countAbandonedUnlessInFlight(&s, status)
                }
            }
        }
    }

    func countRateLimited() {
        worker.locked { _ in state.withLock { $0.counts.rateLimited += 1 } }
    }

    var snapshot: SinkCounts {
        worker.locked { status in
            var c = state.withLock { $0.counts }
            c.queued = status.held
            return c
        }
    }

    /// Asks the thread to stop once the queue is empty, or at once while deliveries fail.
    func requestStop() { worker.stop(.run) }

    /// Waits until `deadline` for the thread to stop, then gives up on what is left
    /// (counted as dropped) and cuts a delivery under way short. Call after `requestStop`.
    func waitStopped(until deadline: ContinuousClock.Instant) {
        guard !worker.waitStopped(until: deadline) else { return }
        // Still inside a delivery or a retry wait: what is queued is lost with the process.
        worker.giveUp { takenOut, status in
            state.withLock { s in
                s.counts.dropped += takenOut
                Self.countAbandonedUnlessInFlight(&s, status)
                s.finished = true
            }
        }
        // The process is ending: no time to wait for the delivery cut short.
        abortDelivery(waiting: .zero)
    }

    /// Starts a drain: a failed message is retried at once, and then with the usual
    /// backoff starting again at 1 s (so 1, 2, 4, 8 s).
    func startDrain() {
        worker.nudge { state.withLock { $0.retryNow = true } }
    }

    /// Gives what is queued until `deadline` to be delivered (after `startDrain`); what
    /// is still queued then is given up, counted as dropped, and a delivery under way is
    /// cut short. The thread goes on taking messages afterwards.
    func waitDrained(until deadline: ContinuousClock.Instant) {
        let late = !worker.drain(until: deadline)
        if late {
            worker.giveUp { takenOut, status in
                state.withLock { s in
                    s.counts.dropped += takenOut
                    Self.countAbandonedUnlessInFlight(&s, status)
                }
            }
        }
        worker.locked { _ in state.withLock { $0.retryNow = false } }
        if late { abortDelivery(waiting: .seconds(1)) }
    }

    /// A message under way was given up on while it waited to retry: it is dropped now.
    /// Call with the worker's lock held.
    private static func countAbandonedUnlessInFlight(_ s: inout State, _ status: Worker<SinkMessage>.Status) {
        guard status.underWayGivenUp, !s.inFlight, !s.abandonedCounted else { return }
        s.counts.dropped += 1
        s.abandonedCounted = true
    }

    /// Cuts the delivery under way short, and waits up to `wait` for it to end, so that
    /// the counts said next are whole; one still under way then (a request curl cannot
    /// cut) is counted as dropped now, and as delivered instead if it does get through.
    private func abortDelivery(waiting wait: Duration) {
        endpoint.abort()
        worker.wait(until: clock.now + wait) { status in state.withLock { $0.inFlight } && status.underWayGivenUp }
        worker.locked { status in
            state.withLock { s in
                if s.inFlight, status.underWayGivenUp, !s.abandonedCounted {
                    s.counts.dropped += 1
                    s.abandonedCounted = true
                }
            }
        }
    }

    /// Ends the delivery under way in the counts. Call with the worker's lock held.
    private static func settle(_ s: inout State, delivered: Bool, _ status: Worker<SinkMessage>.Status) {
        if delivered {
            s.counts.delivered += 1
            if s.abandonedCounted { s.counts.dropped -= 1 }
            s.abandonedCounted = false
        } else if status.underWayGivenUp, !s.abandonedCounted {
            s.counts.dropped += 1
            s.abandonedCounted = true
        }
        s.inFlight = false
    }

    private func wake() {
        worker.nudge { state.withLock { $0.woken = true } }
    }

    /// The worker's job: delivers `message`, retrying with backoff until it is delivered,
    /// given up on (a full queue, a drain, a stop), or the sink stops while it fails.
    private func deliver(_ message: SinkMessage) {
        while true {
            let go = worker.locked { status in state.withLock { s in
                if status.underWayGivenUp || s.finished {
                    // Given up on before it was sent: counted when it was.
                    s.abandonedCounted = false
                    return false
                }
                // Stopping while deliveries fail: what is left is dropped.
                if s.failing && status.stopping {
                    s.counts.dropped += 1
                    return false
                }
                s.inFlight = true
                return true
            } }
            guard go else { return }

            do {
                try endpoint.deliver(message)
                let recovered = worker.locked { status in state.withLock { s in
                    Self.settle(&s, delivered: true, status)
                    defer { s.failing = false; s.backoff = .seconds(1) }
                    return s.failing
                } }
                if recovered { logger.notice("sink \(name): delivering again") }
                return
            } catch {
                // A delivery given up on while it ran (and perhaps cut short by `abort`) is
                // a dropped message, not one more failure: its error would hide the cause.
                let (given, wasFailing) = worker.locked { status in state.withLock { s in
                    let given = status.underWayGivenUp
                    if !given {
                        s.counts.failures += 1
                        s.counts.lastError = error.description
                    }
                    Self.settle(&s, delivered: false, status)
                    defer { s.failing = true; s.woken = false }
                    return (given, s.failing)
                } }
                if given {
                    worker.locked { _ in state.withLock { $0.abandonedCounted = false } }
                    return
                }
                if !wasFailing { logger.error("sink \(name): \(error); retrying with backoff") }
                let until = clock.now + worker.locked { _ in state.withLock { $0.backoff } }
                worker.pause(until: until) { _ in state.withLock { !$0.woken && !$0.retryNow } }
                worker.locked { _ in
                    state.withLock { s in
                        if s.retryNow {
                            s.retryNow = false
                            s.backoff = .seconds(1)
                        } else {
                            s.backoff = min(.seconds(60), s.backoff * 2)
                        }
                    }
                }
            }
        }
    }
}
