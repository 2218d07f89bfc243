/// One recording of the battery and what it holds: 16 kHz mono samples, and where the
/// alarm sounds (nothing for a look-alike, which must raise no smoke_alarm).
public struct BatteryCase: Sendable {
    /// Which case of which run: `alarmCase(index, seed:)` or `lookalikeCase(index, seed:)`.
    public var index: Int
    public var seed: UInt64
    /// Short and readable: `t3 3150Hz piezo warble2% room rain snr8 peak-42`.
    public var name: String
    public var isAlarm: Bool
    /// `t3`, `t4`, `t3-520`, `continuous`, `steady-beep`, or the look-alike's kind.
    public var family: String
    public var samples: [Float]
    /// The alarm's span, seconds: first pulse's start to last pulse's end (no room tail).
    public var labels: [(onset: Double, offset: Double)]
    /// Sample ranges where the sound itself (alarm pulses, a look-alike's notes) is on.
    public var sounding: [Range<Int>]
    /// The alarm's fundamental, Hz, at the start of each beep (nil for a look-alike).
    public var fundamental: Double?
    /// The alarm's RMS while sounding (its pulses, reverberation included, before the
    /// microphone's band) over the background's RMS in the 1/3-octave band on its
    /// fundamental, over the whole background segment (for a look-alike: its RMS while
    /// active over the background's, full band).
    public var inBandSnrDb: Double
    /// The alarm's (look-alike's) own peak in the recording, dBFS, before any clipping.
    public var peakDbfs: Double
    /// Gain pushed the sound past full scale and the recording is hard-clipped at ±1.
    public var clipped: Bool
    /// An in-band SNR of 3-6 dB: below what the battery requires; reported, not required.
    public var belowSpec: Bool
    /// T4: from the first group's start to the second's (the latency allowed is this plus 0.5 s).
    public var groupPeriod: Double?
    /// Timing draws that sit at an end of their accept-range.
    public var edgeDraws: Int
    /// The background kind under the sound.
    public var background: String
    /// Every drawn parameter, for a person.
    public var parameters: String

    /// An alarm the detector must find: an alarm at an in-band SNR of 6 dB or more.
    public var isRequired: Bool { isAlarm && !belowSpec }
    public var seconds: Double { Double(samples.count) / Battery.sampleRate }
}
