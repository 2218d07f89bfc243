import RealModule

/// The alert logic of one class (docs/behaviour.md#alert-semantics), as a pure state machine over frames.
///
/// Each call to `step` takes the raw score of one frame (every 0.5 s of stream time)
/// and returns what should happen:
///
/// 1. a raw score below `minConfidence` counts as 0;
/// 2. it is smoothed (EMA or window mean);
/// 3. a candidate starts when the smoothed value reaches `on` (window mean: `threshold`)
///    and ends when it falls below `off`;
/// 4. a candidate that lasts `debounce` seconds becomes an event whose onset is the
///    candidate's start;
/// 5. an event that starts within `cooldown` seconds of the end of the last *alerted*
///    event is still opened, marked suppressed (an event whose alert was held back by this
///    home's memory, `holdBack`, is not alerted).
public struct AlertStateMachine: Sendable {
    public enum Action: Equatable, Sendable {
        case open(onset: Double, suppressed: Bool = false)
        case close(offset: Double, truncated: Bool = false)
    }

    public private(set) var rule: AlertRule
    /// The last smoothed value.
    public private(set) var smoothed = 0.0
    /// Peaks since the current candidate started (valid while a candidate or event is open).
    public private(set) var peakSmoothed = 0.0
    public private(set) var peakRaw = 0.0

    private enum State: Equatable, Sendable { case idle, candidate(start: Int), active(start: Int, alerted: Bool) }
    private var state = State.idle
    private var lastAlertedEnd: Double?
    private var history: [Double]       // ring buffer for the window mean
    private var historyNext = 0
    private var historyCount = 0
    private var historySum = 0.0

    public init(rule: AlertRule) {
        self.rule = rule
        self.history = [Double](repeating: 0, count: AlertStateMachine.historyLength(rule.smoothing))
    }

    /// Replaces the rule (a profile reload). An open event stays open under the new rule.
    public mutating func update(rule: AlertRule) {
        let length = AlertStateMachine.historyLength(rule.smoothing)
        if length != history.count {
            history = [Double](repeating: 0, count: length)
            historyNext = 0; historyCount = 0; historySum = 0
        }
        self.rule = rule
    }

    private static func historyLength(_ s: Smoothing) -> Int {
        if case let .windowMean(window, _) = s { return max(1, Int((window / StreamClock.frameSeconds).rounded())) }
        return 1
    }

    private static func seconds(_ frame: Int) -> Double { Double(frame) * StreamClock.frameSeconds }

    /// Feeds the raw score of frame `frame` (time `frame × 0.5 s`).
    public mutating func step(_ raw: Double, frame: Int) -> Action? {
        guard rule.enabled else { return nil }
        let x = raw >= rule.minConfidence ? raw : 0
        switch rule.smoothing {
        case .none:
            smoothed = x
        case let .ema(tau):
            let alpha = 1 - Double.exp(-StreamClock.frameSeconds / tau)
            smoothed += alpha * (x - smoothed)
        case .windowMean:
            if historyCount == history.count { historySum -= history[historyNext] } else { historyCount += 1 }
            history[historyNext] = x
            historySum += x
            historyNext = (historyNext + 1) % history.count
            smoothed = historySum / Double(history.count)
        }

        switch state {
        case .idle:
            guard smoothed >= rule.startLevel else { return nil }
            peakSmoothed = smoothed
            peakRaw = raw
            state = .candidate(start: frame)
            return confirmIfDue(start: frame, now: frame)
        case let .candidate(start):
            guard smoothed >= rule.off else { state = .idle; return nil }
            track(raw)
            return confirmIfDue(start: start, now: frame)
        case let .active(_, alerted):
            guard smoothed >= rule.off else {
                state = .idle
                let offset = Self.seconds(frame)
                if alerted { lastAlertedEnd = offset }
                return .close(offset: offset)
            }
            track(raw)
            return nil
        }
    }

    /// The open event's alert was held back after all (this home's memory, `HomeMemory`):
    /// its end starts no cooldown.
    public mutating func holdBack() {
        if case let .active(start, _) = state { state = .active(start: start, alerted: false) }
    }

    /// Whether an event of this class opening at `onset` falls in the cooldown of its last
    /// alerted one: for an event this home's memory logs as this class (`AlertProcessor`).
    public func coolingDown(at onset: Double) -> Bool {
        lastAlertedEnd.map { onset - $0 < rule.cooldown } ?? false
    }

    /// An event logged as this class by this home's memory alerted, and ended at `offset`:
    /// the cooldown runs from there, as from an event of its own.
    public mutating func alerted(until offset: Double) {
        lastAlertedEnd = max(lastAlertedEnd ?? offset, offset)
    }

    /// Closes an open event at the end of the stream or at shutdown.
    public mutating func finish(frame: Int) -> Action? {
        defer { state = .idle }
        guard case let .active(_, alerted) = state else { return nil }
        if alerted { lastAlertedEnd = Self.seconds(frame) }
        return .close(offset: Self.seconds(frame), truncated: true)
    }

    private mutating func track(_ raw: Double) {
        peakSmoothed = max(peakSmoothed, smoothed)
        peakRaw = max(peakRaw, raw)
    }

    private mutating func confirmIfDue(start: Int, now: Int) -> Action? {
        guard Self.seconds(now - start) >= rule.debounce - 1e-9 else { return nil }
        let onset = Self.seconds(start)
        let suppressed = coolingDown(at: onset)
        state = .active(start: start, alerted: !suppressed && rule.alert)
        return .open(onset: onset, suppressed: suppressed)
    }
}
