import Testing
@testable import SomniqCore

@Test func eventRecordsHaveVersionKindAndTrace() {
    let rule = Profile.balanced.rule(for: .cough)
    let start = EventStart(id: "e1", soundClass: .cough, tier: .high, onset: 12.5, confidence: 0.8123, alert: false, suppressed: "cooldown",
                           trace: DecisionTrace(rule: rule, peakSmoothed: 0.8123, peakRaw: 0.9, levelDbfs: -31.26,
                                                floorDbfs: -52.04, profileName: "balanced", profileSHA256: "ab"))
    let text = Records.eventStart(start).compactText
    #expect(text.hasPrefix(#"{"v":1,"kind":"event_start","id":"e1","class":"cough","tier":"high","onset_s":12.5,"confidence":0.812,"alert":false,"suppressed":"cooldown","trace":{"rule":{"tier":"high","on":0.7"#))
    #expect(text.hasSuffix(#""peak_smoothed":0.812,"peak_raw":0.9,"level_dbfs":-31.3,"floor_dbfs":-52,"profile":"balanced","profile_sha256":"ab"}}"#))
    let end = EventEnd(id: "e1", soundClass: .cough, onset: 12.5, offset: 13, peakDbfs: -20, confidence: 0.7, truncated: true)
    #expect(Records.eventEnd(end, time: { _ in "2026-11-22T23:00:13Z" }).compactText
            == #"{"v":1,"kind":"event_end","id":"e1","class":"cough","onset_s":12.5,"offset_s":13,"offset_time":"2026-11-22T23:00:13Z","peak_dbfs":-20,"confidence":0.7,"truncated":true}"#)
}

@Test func classIndexIsThePositionInAllCases() {
    for (i, c) in SoundClass.allCases.enumerated() { #expect(c.index == i) }
}
