/// The whole pure pipeline: samples → windows → features → (input watch, minute
/// levels) → classifier → alert processor. Live capture and file replay both push their
/// 16 kHz mono samples here, so the same samples give the same outputs.
public final class Pipeline {
    private var windower: Windower
    private let extractor: FeatureExtractor
    private var classifier = Classifier()
    private var alerts: AlertProcessor
    private var watch: InputWatch
    private var minutes = MinuteLevels()
    private var scores = ClassScores()
    private let reportsWindows: Bool
    /// What the current push or finish produced; reused, so a push allocates nothing.
    private var outputs: [PipelineOutput] = []
    /// Samples pushed so far: the stream's clock.
    public private(set) var streamFrames: Int64 = 0

    /// `idPrefix`: see `AlertProcessor.init`. `reportsWindows`: also report every decided
    /// window with its features and scores (for diagnostics; off in production).
    public init(transform: SpectrumTransform, profile: Profile, idPrefix: String = "e",
                watch limits: InputWatch.Limits = .init(), reportsWindows: Bool = false) throws(FeatureExtractor.ParameterError) {
        windower = try! Windower()
        extractor = try FeatureExtractor(transform: transform)
        alerts = AlertProcessor(profile: profile, idPrefix: idPrefix)
        watch = InputWatch(limits: limits)
        self.reportsWindows = reportsWindows
        outputs.reserveCapacity(64)
    }

    public var profile: Profile { alerts.profile }

    /// The input watch's limits, changeable between pushes (a reloaded configuration).
    public var watchLimits: InputWatch.Limits {
        get { watch.limits }
        set { watch.limits = newValue }
    }

    /// Puts a new profile in force from the next frame on; events of classes it disables
    /// are closed now, and returned.
    public func reload(_ profile: Profile) -> [PipelineOutput] {
        outputs.removeAll(keepingCapacity: true)
        alerts.reload(profile) { outputs.append(PipelineOutput($0)) }
        return outputs
    }

    /// Pushes 16 kHz mono samples; returns what they completed, in the order it happened.
    public func push(_ samples: UnsafeBufferPointer<Float>) -> [PipelineOutput] {
        outputs.removeAll(keepingCapacity: true)
        streamFrames += Int64(samples.count)
        windower.push(samples) { window in handle(window) }
        return outputs
    }

    /// Ends the stream: the last partial window is analysed (padded with silence), the
    /// windows the classifier still holds are decided, every open event is closed
    /// (marked truncated), and the last partial minute's levels are reported.
    public func finish() -> [PipelineOutput] {
        outputs.removeAll(keepingCapacity: true)
        windower.flush { window in handle(window) }
        classifier.finish()
        decide()
        alerts.finish { outputs.append(PipelineOutput($0)) }
        if let minute = minutes.finish(streamSeconds: StreamClock.seconds(streamFrames)) { outputs.append(.level(minute)) }
        return outputs
    }

    /// Runs each stage of every window; the I/O layer may time them here (the
    /// benchmark does). The core itself knows no clock.
    public var measure: (Stage, () -> Void) -> Void = { $1() }

    private func measure<T>(_ stage: Stage, _ body: () -> T) -> T {
        var result: T?
        measure(stage) { result = body() }
        return result!
    }

    private func handle(_ window: AudioWindow) {
        let features = measure(.features) { extractor.process(window) }
        watch.add(features) { outputs.append(.input($0)) }
        if let minute = minutes.add(features) { outputs.append(.level(minute)) }
        classifier.push(features)
        decide()
    }

    /// Hands every decision the classifier can make to the alert processor.
    private func decide() {
        while let (decision, features) = measure(.classify, { classifier.next(into: &scores) }) {
            if reportsWindows, decision == .final { outputs.append(.window(features, scores)) }
            measure(.alerts) {
                alerts.step(scores, frame: features.index,
                            classes: decision == .prompt ? Classifier.promptClasses : Classifier.trainClasses,
                            levels: .init(levelDbfs: Double(features.levelDbfs), floorDbfs: Double(features.floorDbfs)),
                            emit: { outputs.append(PipelineOutput($0)) })
            }
        }
    }
}
