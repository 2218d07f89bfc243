/// The whole pure pipeline: samples → windows → features → (input watch, minute
/// levels) → classifier → alert processor. Live capture and file replay both push their
/// 16 kHz mono samples here, so the same samples give the same outputs.
public final class Pipeline {
    private var windower: Windower
    /// Analyses each window up to the alarm detector (a replay's reader may, ahead: `ahead`).
    public let extractor: FeatureExtractor
    /// The alarm detector's side of the analysis, and the window analysed here.
    private var follower: AlarmFollower
    private let analysed: AnalysedWindow
    private var classifier: Classifier
    /// The spectrogram network, when the learned rules have one and their inputs are needed.
    private var network: SpectrogramNet.Runner?
    private var alerts: AlertProcessor
    /// This home's memory (`somniq learn --home`) and the windows it judges events by (`HomeStage`).
    private var home: HomeStage?
    /// This home's fit (`somniq learn --home`): the shift of each class's score it decides.
    public var homeFit: HomeFit?
    private var watch: InputWatch
    private var minutes = MinuteLevels()
    /// Minutes whose levels are known but whose class activity is not settled yet.
    private var pendingMinutes: [MinuteLevels.Minute] = []
    private var activity = ClassActivity()
    /// Frames decided so far for the prompt classes and for the trains.
    private var decidedPrompt = 0, decidedTrain = 0
    /// How far past a minute every class must be decided before its activity is final:
    /// the longest debounce (an event's onset is its candidate's start) and 2 s to spare,
    /// or an alarm's confirmation (its event opens at its first beep), if longer.
    private var settleSeconds = 0.0
    private var scores = ClassScores()
    private let reportsWindows: Bool
    private let reportsInputs: Bool
    /// The learned rules the classifier uses (nil: the hand rules alone).
    public let learned: LearnedRules?
    /// What the current push or finish produced; reused, so a push allocates nothing.
    private var outputs: [PipelineOutput] = []
    /// Other profiles judging the same scores (`somniq compare`); nil in a session.
    public var comparison: ProfileComparison?
    /// Samples pushed so far: the stream's clock.
    public private(set) var streamFrames: Int64 = 0
    /// The last window's level and the background floor under it, dBFS: the level now.
    public private(set) var levelDbfs: Float = -120, floorDbfs: Float = -120

    /// `idPrefix`: see `AlertProcessor.init`. `reportsWindows`: also report every decided
    /// window with its features and scores (for diagnostics; off in production).
    /// `learned`: the learned rules and which classes they decide (`Classifier.init`);
    /// `reportsInputs`: also report every window's learned inputs (to fit the rules).
    /// `home`: this home's memory, which judges each event about to alert (`HomeStage`);
    /// `fit`: this home's fit, which shifts the scores of the classes it decides (`HomeFit`).
    public init(transform: SpectrumTransform, profile: Profile, idPrefix: String = "e",
                watch limits: InputWatch.Limits = .init(), reportsWindows: Bool = false,
                learned: LearnedRules? = LearnedRules.builtin, reportsInputs: Bool = false,
                home: HomeMemory? = nil, fit: HomeFit? = nil) throws(FeatureExtractor.ParameterError) {
        windower = try! Windower()
        classifier = Classifier(learned: learned, fillsInputs: reportsInputs || home != nil)
        self.home = home.map(HomeStage.init)
        homeFit = fit
        network = classifier.needsNetwork ? learned?.network.map { SpectrogramNet.Runner($0) } : nil
        self.learned = learned
        self.reportsInputs = reportsInputs
        extractor = try FeatureExtractor(transform: transform)
        follower = AlarmFollower(for: extractor)
        analysed = AnalysedWindow(bins: extractor.bins)
        alerts = AlertProcessor(profile: profile, idPrefix: idPrefix)
        watch = InputWatch(limits: limits)
        self.reportsWindows = reportsWindows
        outputs.reserveCapacity(64)
        settleSeconds = Self.settleSeconds(profile)
    }

    private static func settleSeconds(_ profile: Profile) -> Double {
        max(SoundClass.allCases.map { profile.rule(for: $0).debounce }.max()! + 2, AlarmDetector.longestConfirmation)
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
        alerted(alerts.reload(profile))
        settleSeconds = Self.settleSeconds(profile)
        return outputs
    }

    /// This home's memory in force; nil: none.
    public var homeMemory: HomeMemory? { home?.memory }

    /// Puts `memory` in force from the next window on (nil: none), keeping the windows
    /// already remembered, so that an event open now is judged by its opening windows all
    /// the same. False, and nothing changed, when this pipeline computes no learned inputs,
    /// which a memory judges windows by: one made with no learned rules and no memory.
    @discardableResult
    public func replaceHome(_ memory: HomeMemory?) -> Bool {
        guard let memory else { home = nil; return true }
        guard !classifier.inputs.isEmpty else { return false }
        if home == nil { home = HomeStage(memory) } else { home!.memory = memory }
        return true
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
    /// (marked truncated), and the minutes not yet reported (the last one partial) are.
    public func finish() -> [PipelineOutput] {
        outputs.removeAll(keepingCapacity: true)
        windower.flush { window in handle(window) }
        classifier.finish()
        decide()
        alerted(alerts.finish(alarm: classifier.alarm))
        comparison?.finish()
        if let minute = minutes.finish(streamSeconds: StreamClock.seconds(streamFrames)) { pendingMinutes.append(minute) }
        reportMinutes(decidedThrough: .infinity)
        return outputs
    }

    /// Windows analysed ahead (a replay's reader thread: `AnalysisAhead`); nil: none.
    public var ahead: (any AnalysisAhead)?

    /// Runs each stage of every window; the I/O layer may time them here (the
    /// benchmark does). The core itself knows no clock.
    public var measure: (Stage, () -> Void) -> Void = { $1() }

    private func measure<T>(_ stage: Stage, _ body: () -> T) -> T {
        var result: T?
        measure(stage) { result = body() }
        return result!
    }

    private func handle(_ window: AudioWindow) {
        var features = measure(.features) { () -> WindowFeatures in
            let a = ahead?.analysed(window, by: extractor) ?? {
                extractor.analyse(window, into: analysed)
                return analysed
            }()
            var f = a.features
            f.alarm = follower.follow(a)
            f.lowBattery = follower.lowBattery
            ahead?.release(window.index)
            return f
        }
        if network != nil { measure(.network) { network!.listen(&features) } }
        levelDbfs = features.levelDbfs
        floorDbfs = features.floorDbfs
        watch.add(features) { outputs.append(.input($0)) }
        if let minute = minutes.add(features) { pendingMinutes.append(minute) }
        classifier.push(features)
        decide()
    }

    /// Hands every decision the classifier can make to the alert processor.
    private func decide() {
        while let (decision, features) = measure(.classify, { classifier.next(into: &scores) }) {
            if reportsWindows, decision == .final { outputs.append(.window(features, scores)) }
            if reportsInputs, decision == .prompt { outputs.append(.inputs(window: features.index, classifier.inputs)) }
            if decision == .prompt {
                home?.remember(frame: features.index, inputs: classifier.inputs,
                               span: Int((settleSeconds / StreamClock.frameSeconds).rounded(.up)) + Classifier.trainDelay)
            }
            measure(.alerts) {
                let classes = decision == .prompt ? Classifier.promptClasses : Classifier.trainClasses
                let levels = AlertProcessor.Levels(levelDbfs: Double(features.levelDbfs), floorDbfs: Double(features.floorDbfs))
                let alarm = classifier.alarm
                let judge = home.map { stage in { (e: EventStart) in stage.judge(e) } }
                alerted(alerts.step(scores, frame: features.index, classes: classes, levels: levels, alarm: alarm,
                                    weights: { classifier.weights($0) }, home: judge, fit: homeFit))
                comparison?.step(scores, frame: features.index, classes: classes, levels: levels, alarm: alarm, home: judge)
            }
            if decision == .prompt { decidedPrompt = features.index + 1 } else { decidedTrain = features.index + 1 }
        }
        reportMinutes(decidedThrough: Double(min(decidedPrompt, decidedTrain)) * StreamClock.frameSeconds)
    }

    private func alerted(_ events: [AlertOutput]) {
        for output in events {
            activity.add(output)
            outputs.append(PipelineOutput(output))
        }
    }

    /// Reports each waiting minute that every class has been decided well past, with
    /// the seconds each class's events covered in it.
    private func reportMinutes(decidedThrough time: Double) {
        while let first = pendingMinutes.first, first.endSeconds + settleSeconds <= time {
            var minute = pendingMinutes.removeFirst()
            minute.activeSeconds = activity.seconds(from: minute.startSeconds, to: minute.endSeconds)
            activity.forget(before: minute.endSeconds)
            outputs.append(.level(minute))
        }
    }
}

/// Windows analysed ahead of the alarm detector and the classifier (`FeatureExtractor.analyse`),
/// on another thread, by the pipeline's own extractor; asked for window by window in stream order.
public protocol AnalysisAhead: AnyObject {
    /// Window `window` analysed by `extractor`: ahead, or now if no thread has begun it; nil
    /// where it is not kept here, and the caller analyses it. Valid until `release`.
    func analysed(_ window: AudioWindow, by extractor: FeatureExtractor) -> AnalysedWindow?
    /// The pipeline is done with window `index`: it is analysed, and the next may be.
    func release(_ index: Int)
}
