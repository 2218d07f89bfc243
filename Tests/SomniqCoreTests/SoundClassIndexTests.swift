import Testing
@testable import SomniqCore

@Test func classIndexIsThePositionInAllCases() {
    for (i, c) in SoundClass.allCases.enumerated() { #expect(c.index == i) }
}
