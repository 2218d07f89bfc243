/// How raw scores are smoothed before hysteresis (docs/behaviour.md#alert-semantics, step 2).
public enum Smoothing: Equatable, Sendable {
    /// No smoothing: the filtered raw score is used as is.
    case none
    /// Exponential moving average with time constant `tau` seconds.
    case ema(tau: Double)
    /// Mean of the last `window` seconds; a candidate starts when it reaches `threshold`.
    case windowMean(window: Double, threshold: Double)
}

/// The effective rule the alert processor applies to one class (docs/behaviour.md#sensitivity-profiles).
public struct AlertRule: Equatable, Sendable {
    public var tier: Tier
    /// A candidate starts when the smoothed score reaches `on` …
    public var on: Double
    /// … and ends when it falls below `off`.
    public var off: Double
    /// Seconds a candidate must last before it becomes an event.
    public var debounce: Double
    /// Seconds after an alerted event during which new events are logged but not alerted.
    public var cooldown: Double
    public var smoothing: Smoothing
    /// Raw scores below this count as 0 (the uncertainty threshold).
    public var minConfidence: Double
    public var enabled: Bool
    /// False: the class's events are logged (and reported), never alerted: no notification,
    /// suppressed `"profile"`, and no cooldown started.
    public var alert: Bool

    public init(tier: Tier = .high, on: Double, off: Double, debounce: Double, cooldown: Double,
                smoothing: Smoothing = .none, minConfidence: Double = 0, enabled: Bool = true, alert: Bool = true) {
        self.tier = tier
        self.on = on
        self.off = off
        self.debounce = debounce
        self.cooldown = cooldown
        self.smoothing = smoothing
        self.minConfidence = minConfidence
        self.enabled = enabled
        self.alert = alert
    }

    /// The level at which a candidate starts: `on`, or the window-mean threshold.
    public var startLevel: Double {
        if case let .windowMean(_, threshold) = smoothing { return threshold }
        return on
    }
}

extension Smoothing {
    public var json: JSONValue {
        switch self {
        case .none: .object([("method", .string("none"))])
        case let .ema(tau): .object([("method", .string("ema")), ("tau_s", .number(tau))])
        case let .windowMean(w, t):
            .object([("method", .string("window_mean")), ("window_s", .number(w)), ("threshold", .number(t))])
        }
    }

    /// Short form for tables: `ema 1.0s`, `mean 2.0s≥0.6`, `none`.
    public var summary: String {
        switch self {
        case .none: "none"
        case let .ema(tau): "ema \(tau)s"
        case let .windowMean(w, t): "mean \(w)s>=\(t)"
        }
    }
}

extension AlertRule {
    public var json: JSONValue {
        .object([
            ("tier", .string(tier.rawValue)),
            ("on", .number(on)),
            ("off", .number(off)),
            ("debounce_s", .number(debounce)),
            ("cooldown_s", .number(cooldown)),
            ("smoothing", smoothing.json),
            ("min_confidence", .number(minConfidence)),
            ("enabled", .bool(enabled)),
        ] + (alert ? [] : [("alert", .bool(false))]))
    }
}
