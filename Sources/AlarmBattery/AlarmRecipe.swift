/// Everything drawn for one alarm case, before a sample is made: `Battery.render` turns it
/// into the recording. Drawing is cheap, so cases can be chosen by their parameters.
public struct AlarmRecipe: Sendable {
    public var index: Int
    public var seed: UInt64
    /// `t3`, `t4`, `t3-520`, `continuous`, `steady-beep`.
    public var family: String
    /// The background kind dealt to the case.
    public var background: String
    public var pattern: AlarmPattern
    public var tone: Tone
    /// The alarm's peak, dBFS (+3..+12 when clipped).
    public var peakDbfs: Double
    public var clipped: Bool
    /// In-band SNR, dB.
    public var snrDb: Double
    public var belowSpec: Bool
    /// The room and microphone, or nil for a dry recording.
    public var room: Room?
    /// Samples of background before and after the alarm.
    public var pre: Int, post: Int
    /// The generator as drawing left it: the background's draws continue from here.
    var rng: SplitMix64
}
