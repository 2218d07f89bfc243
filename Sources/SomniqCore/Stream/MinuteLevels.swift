/// The room's level minute by minute of stream time, from each window's level as its
/// features are made: the figures of environmental noise measurement (ISO 1996-1) in
/// dBFS — Leq (the energy mean), L10 and L90 (the levels reached or exceeded 10 % and
/// 90 % of the time: the loud moments and the background), Lmax — and the tracked floor.
public struct MinuteLevels: Sendable {
    public struct Minute: Sendable, Equatable {
        /// Stream time of the minute's first window, and the seconds it covers (60; the
        /// last minute of a stream ends with the stream).
        public var startSeconds: Double
        public var seconds: Double
        public var leqDbfs: Double
        public var l10Dbfs: Double
        public var l90Dbfs: Double
        public var maxDbfs: Double
        public var floorDbfs: Double
        /// Seconds of the minute each class's events covered, by `SoundClass.index`
        /// (filled in by the pipeline once every class has been decided past the minute).
        public var activeSeconds = [Double](repeating: 0, count: SoundClass.allCases.count)

        public var endSeconds: Double { startSeconds + seconds }
        public func activeSeconds(_ c: SoundClass) -> Double { activeSeconds[c.index] }
    }

    /// Windows (one per hop) in a minute.
    static let windowsPerMinute = Int((60 / StreamClock.frameSeconds).rounded())
    private var levels = [Float](repeating: 0, count: windowsPerMinute)
    private var count = 0
    private var power = 0.0
    private var start = 0.0
    private var floor: Float = Decibels.silence

    public init() {}

    /// Adds a window; returns the minute it completes.
    public mutating func add(_ f: WindowFeatures) -> Minute? {
        if count == 0 { start = f.startSeconds }
        levels[count] = f.levelDbfs
        power += Double(Decibels.toPower(f.levelDbfs))
        floor = f.floorDbfs
        count += 1
        return count == Self.windowsPerMinute ? close() : nil
    }

    /// The last, partial minute of a stream that ends at `streamSeconds`, if it has any window.
    public mutating func finish(streamSeconds: Double) -> Minute? {
        guard count > 0 else { return nil }
        var minute = close()
        minute.seconds = min(60, streamSeconds - minute.startSeconds)
        return minute
    }

    private mutating func close() -> Minute {
        let n = count
        levels.withUnsafeMutableBufferPointer { $0[0..<n].sort() }
        // The highest level that at least `share` of the minute's windows reach.
        func exceeded(_ share: Double) -> Double { Double(levels[max(0, n - Int((Double(n) * share).rounded(.up)))]) }
        let minute = Minute(startSeconds: start, seconds: Double(n) * StreamClock.frameSeconds,
                            leqDbfs: Double(Decibels.power(Float(power / Double(n)))), l10Dbfs: exceeded(0.10),
                            l90Dbfs: exceeded(0.90), maxDbfs: Double(levels[n - 1]), floorDbfs: Double(floor))
        count = 0
        power = 0
        return minute
    }
}
