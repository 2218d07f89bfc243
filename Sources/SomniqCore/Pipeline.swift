/// The whole pure pipeline: samples → windows → features → classifier → alert
/// processor. Live capture and file replay both push their 16 kHz mono samples
/// here, so the same samples give the same events.
public final class Pipeline {
    private var windower: Windower
    private let extractor: FeatureExtractor
    private var classifier = Classifier()
    private var alerts: AlertProcessor
    private var scores = ClassScores()
    /// Samples pushed so far: the stream's clock.
    public private(set) var streamFrames: Int64 = 0

    /// Called for every window with its features and raw scores (for diagnostics), once
    /// all of them are settled.
    public var onWindow: ((WindowFeatures, ClassScores) -> Void)?

    /// `idPrefix`: see `AlertProcessor.init`.
    public init(transform: SpectrumTransform, profile: Profile, idPrefix: String = "e") throws(FeatureExtractor.ParameterError) {
        windower = try! Windower()
        extractor = try FeatureExtractor(transform: transform)
        alerts = AlertProcessor(profile: profile, idPrefix: idPrefix)
    }

    public var profile: Profile { alerts.profile }

    /// Puts a new profile in force from the next frame on; events of classes it disables
    /// are closed now.
    public func reload(_ profile: Profile, emit: (AlertOutput) -> Void) { alerts.reload(profile, emit: emit) }

    /// Pushes 16 kHz mono samples; `emit` receives every event start and end.
    public func push(_ samples: UnsafeBufferPointer<Float>, emit: (AlertOutput) -> Void) {
        streamFrames += Int64(samples.count)
        windower.push(samples) { window in handle(window, emit: emit) }
    }

    /// Ends the stream: the last partial window is analysed (padded with silence), the
    /// windows the classifier still holds are decided, and every open event is closed,
    /// marked truncated.
    public func finish(emit: (AlertOutput) -> Void) {
        windower.flush { window in handle(window, emit: emit) }
        classifier.finish()
        decide(emit: emit)
        alerts.finish(emit: emit)
    }

    /// The stages `measure` wraps.
    public enum Stage: Sendable { case features, classify, alerts }

    /// Runs each stage of every window; the I/O layer may time them here (the
    /// benchmark does). The core itself knows no clock.
    public var measure: (Stage, () -> Void) -> Void = { $1() }

    private func measure<T>(_ stage: Stage, _ body: () -> T) -> T {
        var result: T?
        measure(stage) { result = body() }
        return result!
    }

    private func handle(_ window: AudioWindow, emit: (AlertOutput) -> Void) {
        let features = measure(.features) { extractor.process(window) }
        classifier.push(features)
        decide(emit: emit)
    }

    /// Hands every decision the classifier can make to the alert processor.
    private func decide(emit: (AlertOutput) -> Void) {
        while let (decision, features) = measure(.classify, { classifier.next(into: &scores) }) {
            if decision == .final { onWindow?(features, scores) }
            measure(.alerts) {
                alerts.step(scores, frame: features.index,
                            classes: decision == .prompt ? Classifier.promptClasses : Classifier.trainClasses,
                            levels: .init(levelDbfs: Double(features.levelDbfs), floorDbfs: Double(features.floorDbfs)),
                            emit: emit)
            }
        }
    }
}
