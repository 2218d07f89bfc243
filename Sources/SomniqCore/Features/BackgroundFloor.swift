/// The background floor per band, tracked by minimum statistics (Martin 2001,
/// "Noise power spectral density estimation based on optimal smoothing and minimum
/// statistics"): each window offers a low percentile of its frames' band powers;
/// the floor falls to it at once and rises towards it by at most `riseDbPerSecond`.
///
/// Fans, rain and HVAC are therefore floor, not events; a sound must stand out from
/// the floor to count, so every threshold is relative and a different microphone gain
/// changes nothing.
public struct BackgroundFloor: Sendable {
    public let riseDbPerSecond: Float
    public private(set) var bandsDb = BandVector(repeating: Decibels.silence)
    public private(set) var initialised = false

    public init(riseDbPerSecond: Float = 0.4) {
        self.riseDbPerSecond = riseDbPerSecond
    }

    /// The floor's total level in dBFS.
    public var totalDb: Float {
        var p: Float = 0
        for i in 0..<Bands.count { p += Decibels.toPower(bandsDb[i]) }
        return Decibels.power(p)
    }

    /// Offers the window's low-percentile band levels (dB), once per window.
    public mutating func update(candidateDb: BandVector) {
        guard initialised else { bandsDb = candidateDb; initialised = true; return }
        let rise = riseDbPerSecond * Float(StreamClock.frameSeconds)
        for i in 0..<Bands.count {
            let c = candidateDb[i]
            bandsDb[i] = c < bandsDb[i] ? c : min(c, bandsDb[i] + rise)
        }
    }
}
