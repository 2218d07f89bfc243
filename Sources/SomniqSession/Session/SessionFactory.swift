import SomniqAudio
import SomniqConfig
import SomniqCore
import SomniqSinks

/// Assembles a session for every front end — the daemon (`SessionService`), `replay`,
/// `eval`, `bench`, `features` and `compare` (through `Replayer`): the FFT, planned once
/// per factory; the pipeline; the session with its sinks, wall times and clips. A front
/// end says what it wants here; the assembly is written once. A value: a front end sets
/// its fields before asking for a session, and a copy of a factory shares its FFT plans.
public struct SessionFactory {
    public var profile: Profile
    /// The input watch's limits (silence, clipping).
    public var watch: InputWatch.Limits
    /// The learned rules and which classes they decide (`Classifier.init`): the built-in
    /// ones unless set. Read only when asked for, so that a command given other rules (or
    /// none) never reads the built-in ones: the trainer runs somniq with rules fitted on
    /// new inputs before the built-in file is re-fitted on them.
    public var learned: LearnedRules? {
        get { chosenLearned ?? LearnedRules.builtin }
        set { chosenLearned = .some(newValue) }
    }
    private var chosenLearned: LearnedRules??
    /// Also report every decided window (`somniq features`).
    public var reportsWindows = false
    /// Also report every window's learned inputs (`somniq features --inputs`).
    public var reportsInputs = false
    /// Profiles to judge the same scores beside `profile` (`somniq compare`): the
    /// session's `pipeline.comparison` tallies them.
    public var compared: [Profile] = []
    /// Times each stage (the benchmark does); nil runs them untimed.
    public var measure: ((Stage, () -> Void) -> Void)?
    /// Keep clips of the alerted events in this directory, within the policy's quota.
    public var clips: (policy: ClipPolicy, directory: String)?
    /// The clips the quota deletes first when over `max_mb` (`RememberedClips.names`: the
    /// daemon's); asked only then. None unless set.
    public var clipsGoFirst: @Sendable () -> Set<String> = { [] }
    /// Keep the audio heard, night by night, in this directory (the daemon).
    public var nightAudio: (config: NightAudioConfig, directory: String)?
    /// This home's memory (`--home-rules`, `somniq learn --home`); nil: none.
    public var home: HomeMemory?
    /// This home's fit (`home-fit.txt` beside the memory, `somniq learn --home`); nil: none.
    public var fit: HomeFit?
    private let transform = FFTWTransform(size: 1024)

    public init(profile: Profile, watch: InputWatch.Limits = .init()) {
        self.profile = profile
        self.watch = watch
    }

    /// A new session over a fresh pipeline. `idPrefix` names the session in its event
    /// ids (`AlertProcessor.init`); `times` gives its records wall-clock times.
    public func session(sinks: [RecordSink], idPrefix: String, times: Session.WallTimes?) -> Session {
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline(transform: transform, profile: profile, idPrefix: idPrefix, watch: watch,
                                    reportsWindows: reportsWindows, learned: learned, reportsInputs: reportsInputs,
                                    home: home, fit: fit)
        } catch {
            // The transform is made here, at the length the pipeline reads.
            fatalError("the factory's FFT length is the pipeline's: \(error)")
        }
        if !compared.isEmpty { pipeline.comparison = ProfileComparison(profiles: compared) }
        if let measure { pipeline.measure = measure }
        let session = Session(pipeline: pipeline, sinks: sinks, version: Release.version)
        session.times = times
        if let clips { session.clips = ClipCapture(policy: clips.policy, directory: clips.directory, profile: profile,
                                                       goFirst: clipsGoFirst) }
        if let nightAudio { session.nightAudio = NightAudio(config: nightAudio.config, directory: nightAudio.directory) }
        return session
    }
}
