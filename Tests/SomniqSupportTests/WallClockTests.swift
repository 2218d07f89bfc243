import Foundation
@testable import SomniqSupport
import Testing

@Test func wallClockIsISO8601UTCWithMilliseconds() {
    #expect(WallClock.iso8601(Date(timeIntervalSince1970: 1_795_217_425.787)) == "2026-11-20T23:30:25.787Z")
    #expect(WallClock.iso8601(Date(timeIntervalSince1970: 0.9996)) == "1970-01-01T00:00:01.000Z")
}
