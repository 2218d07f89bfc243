/// What the pipeline reports as it hears a stream. Events come when the classifier
/// has decided their windows (up to ~10 s after the sound for the trains); input
/// conditions and levels as soon as a window's features are made.
public enum PipelineOutput: Sendable {
    /// An event confirmed (debounce passed), and its end.
    case start(EventStart)
    case end(EventEnd)
    /// The input cannot be heard through: silence, a stuck value, sustained clipping.
    case input(InputWatch.Condition)
    /// A minute of stream time has passed: its levels.
    case level(MinuteLevels.Minute)
    /// A decided window, its features and scores (only when the pipeline was asked for them).
    case window(WindowFeatures, ClassScores)
    /// The learned rules' inputs of a window as it was decided (`LearnedInputs.names`; only
    /// when the pipeline was asked for them, to fit the rules).
    case inputs(window: Int, [Float])

    init(_ output: AlertOutput) {
        switch output {
        case let .start(e): self = .start(e)
        case let .end(e): self = .end(e)
        }
    }
}

/// The stages of turning audio into outputs, for timing. Decoding and resampling happen
/// in the I/O layer before the pipeline; the rest inside it.
public enum Stage: String, Sendable, CaseIterable {
    case decode, resample, features, network, classify, alerts
}
