@testable import SomniqDaemon
import SomniqSupport
import Synchronization
import Testing

// `FirstResult`, which lets a stopping daemon stop waiting for a reload still being read
// (`onAThreadOfItsOwn`): the first of the results set is the one awaited, whether it is set
// before or after the wait begins.

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

/// What a thread of its own returns is awaited; a task cancelled while it waits gets nil at
/// once, and the thread finishes alone (here, once the test lets it go).
@Test func aThreadOfItsOwnIsAwaitedUntilTheTaskIsCancelled() async {
    #expect(await onAThreadOfItsOwn("somniq-test") { 5 } == 5)
    let held = PosixCondition()
    let state = Mutex((started: false, released: false, finished: false))
    let waiting = Task {
        await onAThreadOfItsOwn("somniq-test") { () -> Int in
            held.lock()
            state.withLock { $0.started = true }
            held.broadcast()
            while !state.withLock({ $0.released }) { held.wait() }
            state.withLock { $0.finished = true }
            held.broadcast()
            held.unlock()
            return 6
        }
    }
    while !state.withLock({ $0.started }) { await Task.yield() }   // the thread under way
    waiting.cancel()
    #expect(await waiting.value == nil)
    #expect(!state.withLock { $0.finished }, "waited for the thread")
    held.lock()
    state.withLock { $0.released = true }
    held.broadcast()
    while !state.withLock({ $0.finished }) { held.wait() }
    held.unlock()
}
