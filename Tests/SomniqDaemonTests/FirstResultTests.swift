@testable import SomniqDaemon
import Testing

// `FirstResult`, which lets a stopping daemon stop waiting for a reload still being read
// (`SessionService.prepareUnlessStopped`): the first of the results set is the one awaited,
// whether it is set before or after the wait begins.

@Test func aResultSetBeforeTheWaitIsTheOneAwaited() async {
    let first = FirstResult<Int>()
    first.set(7)
    first.set(8)
    #expect(await first.value() == 7)
}

@Test func aResultSetWhileWaitingEndsTheWait() async {
    let first = FirstResult<Int>()
    async let awaited = first.value()
    Task.detached {
        while !first.awaited { await Task.yield() }   // set once the wait has begun
        first.set(3)
    }
    #expect(await awaited == 3)
}

/// A stop (nil) that comes first wins over the reload read after it, which is dropped.
@Test func aStopBeforeTheReadIsDoneWins() async {
    let first = FirstResult<Int>()
    first.set(nil)
    first.set(5)
    #expect(await first.value() == nil)
}
