/// The runs of bands the rules read, named by what lies there (`Bands`: edges at 150, 300,
/// 600 Hz, 1.2, 2.4, 4 and 6 kHz). Vowel formant ranges as Peterson & Barney (1952)
/// measured them.
extension Band {
    /// 0–150 Hz: mains hum, HVAC and traffic rumble, and a man's lowest voice fundamentals
    /// (85–150 Hz).
    static let hum = Band(.hz0, .hz150)
    /// 0–300 Hz: snoring's and thunder's energy.
    static let low = Band(.hz0, .hz300)
    /// 0–1.2 kHz: all below the cry and scream harmonics; a thunderclap's body.
    static let belowHarmonics = Band(.hz0, .hz1200)
    /// 150 Hz–1.2 kHz: voice fundamentals and first formants.
    static let voice = Band(.hz150, .hz1200)
    /// 150 Hz–4 kHz: the vocal tract's formants F1–F3, where a cough's turbulence lies.
    static let tract = Band(.hz150, .hz4000)
    /// 300–600 Hz: a low-frequency sounder's 520 Hz square wave (NFPA 72's signal for
    /// sleeping rooms).
    static let lowSounder = Band(.hz300, .hz600)
    /// 300 Hz–1.2 kHz: first formants (F1 0.3–1 kHz).
    static let formants = Band(.hz300, .hz1200)
    /// 300 Hz–2.4 kHz: an infant cry's fundamental (about 300–600 Hz) and its strongest
    /// harmonics.
    static let cry = Band(.hz300, .hz2400)
    /// 600 Hz–1.2 kHz: the first formant of open vowels.
    static let openVowels = Band(.hz600, .hz1200)
    /// 600 Hz–2.4 kHz: a laugh's voiced harmonics and second formants.
    static let voiceHarmonics = Band(.hz600, .hz2400)
    /// 600 Hz–4 kHz: a shriek's harmonics and formants.
    static let shriek = Band(.hz600, .hz4000)
    /// 600 Hz–6 kHz: turbulent airflow in the mouth and nose (a breath).
    static let breath = Band(.hz600, .hz6000)
    /// 1.2–4 kHz: a knuckle's knock on wood.
    static let knock = Band(.hz1200, .hz4000)
    /// 2.4–4 kHz: a piezo sounder's tone (2.8–3.7 kHz) and the ear's most sensitive octave.
    static let piezo = Band(.hz2400, .hz4000)
    /// 0–2.4 kHz: all below the piezo band.
    static let belowPiezo = Band(.hz0, .hz2400)
    /// 2.4–8 kHz: bright sounds: shatter, a latch's click.
    static let bright = Band(.hz2400, .hz8000)
    /// 4–6 kHz: the lower half of `hiss`.
    static let lowerHiss = Band(.hz4000, .hz6000)
    /// 4–8 kHz: hiss and shatter; fricatives.
    static let hiss = Band(.hz4000, .hz8000)
    /// 6–8 kHz: the upper half of `hiss`, where a sibilant's hiss peaks.
    static let upperHiss = Band(.hz6000, .hz8000)

    /// Every named band, for the test that each runs upwards.
    static let named: [Band] = [.hum, .low, .belowHarmonics, .voice, .tract, .lowSounder, .formants, .cry, .openVowels,
                                .voiceHarmonics, .shriek, .breath, .knock, .piezo, .belowPiezo, .bright, .lowerHiss, .hiss, .upperHiss]
}
