import Foundation
@testable import SomniqSupport
import SomniqTestSupport
import Testing

/// The tests' clock fails a test that waited in vain rather than hanging it: once an
/// arrival the test waited for has not come within its bound, every sleep and wait on the
/// clock ends at once, those under way and those to come.
struct TestClockTests {
    @Test func aSleepEndsOnceTheTestHasGivenUpWaitingForASecond() async throws {
        let clock = TestClock()
        let stepper = OnItsOwnThread { () -> Bool in
            // One task sleeps on the clock; the test waits for a second that never comes.
            guard clock.waitForSleepers(1) else { return false }
            return clock.waitForSleepers(2, bound: .milliseconds(50))
        }
        await #expect(throws: CancellationError.self) { try await clock.sleep(until: clock.now + .seconds(1)) }
        #expect(stepper.value == false)
        await #expect(throws: CancellationError.self) { try await clock.sleep(until: clock.now + .seconds(1)) }
        #expect(!clock.wait(PosixCondition(), until: clock.now + .seconds(1)), "a wait after giving up ends as if its deadline had passed")
    }
}
