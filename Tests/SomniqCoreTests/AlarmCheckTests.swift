import Testing
@testable import SomniqCore

private func e(_ on: Double, _ off: Double, _ c: String = "smoke_alarm") -> LabeledEvent { LabeledEvent(onset: on, offset: off, label: c) }

@Test func anAlarmIsFoundWhenADetectionStartsWithinFourSecondsOfItsOnsetAndEveryOverlappingPieceIsCounted() {
    var a = AlarmCheck()
    a.add(file: "t/one.flac", reference: [e(10, 20), e(40, 52), e(80, 90)],
          estimated: [e(9.5, 20.5), e(39.5, 44), e(47, 52), e(85, 90), e(100, 101), e(60, 62, "door")])
    #expect(a.alarms.map(\.latency) == [-0.5, -0.5, nil])
    #expect(a.alarms.map(\.events) == [1, 2, 1])
    #expect(a.missed == 1 && a.split == 1)
    #expect(a.falseAlarms == 1)         // the one at 100 s; a door is no alarm
}
