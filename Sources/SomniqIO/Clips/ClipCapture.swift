import FoundationEssentials
import Glibc
import SomniqCore

/// Clips as the session takes them (`Session.clips`): the recorder cuts them from the
/// stream on the audio path; a thread of their own writes them (`ClipWriter`), so a slow
/// or full disk never holds up listening or the log.
public final class ClipCapture {
    private let store: ClipStore
    private let recorder: ClipRecorder
    private let writer: ClipWriter

    /// The policy's quota (`maxMB`, `maxAgeDays`) is applied after each clip written, by
    /// the daemon and a replay alike; past `maxMB`, the clips `goFirst` names are deleted
    /// before the others (`ClipStore.enforce`). It is asked on the writer's thread.
    public init(policy: ClipPolicy, directory: String, profile: Profile,
                goFirst: @escaping @Sendable () -> Set<String> = { [] }) {
        store = ClipStore(directory: directory)
        recorder = ClipRecorder(policy: policy, delaySeconds: ClipRecorder.delaySeconds(policy: policy, profile: profile))
        writer = ClipWriter(store: store, maxBytes: policy.maxBytes, maxAgeDays: policy.maxAgeDays, goFirst: goFirst)
    }

    /// Before the session's first record: the directory is made ready, or the session
    /// cannot start (`ClipStore.prepare`).
    public func prepare() throws(ClipStore.Failure) { try store.prepare() }

    /// The next samples of the stream.
    public func append(_ samples: UnsafeBufferPointer<Float>) {
        writer.submit(recorder.append(samples))
    }

    /// An event started; `unix`: its onset's wall-clock time, when known.
    public func started(_ e: EventStart, unix: Double?) {
        recorder.started(e, name: ClipStore.fileName(unix: unix, onset: e.onset, soundClass: e.soundClass, id: e.id))
    }

    /// An event ended: the path its clip will have, or nil when it keeps none.
    public func ended(_ e: EventEnd) -> String? { recorder.ended(e).map(store.path) }

    /// The stream ended: the open clips are cut short and written; waits up to `timeout`
    /// for the writer.
    public func finish(within timeout: Duration) {
        writer.submit(recorder.finish())
        writer.drain(within: timeout)
    }

    /// The clips skipped since the last call.
    public func takeSkipped() -> [ClipWriter.Skipped] { writer.takeSkipped() }
}

/// Writes clips on a thread of its own, from a bounded queue: a clip that finds the queue
/// full is skipped, and said to be, rather than held in memory or holding up the caller.
/// Its state is guarded by `condition`.
// @unchecked: Synchronization has no condition variable; the state is guarded by `condition`.
public final class ClipWriter: @unchecked Sendable {
    /// A clip not kept: the event's id, the file, why (`reason`: `no_space`, `queue_full`
    /// or `failed`; `problem`: in words).
    public struct Skipped: Sendable, Equatable {
        public var id: String, path: String, reason: String, problem: String
    }

    public static let queueLimit = 4
    private let store: ClipStore
    private let maxBytes: Int64, maxAgeDays: Double
    private let goFirst: @Sendable () -> Set<String>
    private let condition = PosixCondition()
    private var queue: [ClipRecorder.Clip] = []
    private var busy = false
    private var skipped: [Skipped] = []
    private var stopping = false

    init(store: ClipStore, maxBytes: Int64, maxAgeDays: Double, goFirst: @escaping @Sendable () -> Set<String>) {
        self.store = store
        self.maxBytes = maxBytes
        self.maxAgeDays = maxAgeDays
        self.goFirst = goFirst
        PosixThread.start(name: "somniq-clips") { [self] in run() }
    }

    func submit(_ clips: [ClipRecorder.Clip]) {
        guard !clips.isEmpty else { return }
        condition.lock()
        for clip in clips {
            if queue.count < Self.queueLimit {
                queue.append(clip)
            } else {
                skipped.append(Skipped(id: clip.eventID, path: store.path(clip.name), reason: "queue_full",
                                       problem: "\(Self.queueLimit) clips were already waiting to be written; the disk is too slow"))
            }
        }
        condition.signal()
        condition.unlock()
    }

    /// Waits up to `timeout` for the queue to empty, then lets the thread end.
    func drain(within timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        condition.lock()
        while (!queue.isEmpty || busy) && condition.wait(until: deadline) {}
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    func takeSkipped() -> [Skipped] {
        condition.lock()
        defer { skipped.removeAll(); condition.unlock() }
        return skipped
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty { condition.unlock(); return }
            let clip = queue.removeFirst()
            busy = true
            condition.unlock()
            var problem: ClipStore.Failure?
            do throws(ClipStore.Failure) { try store.write(clip.samples, name: clip.name) } catch { problem = error }
            if problem == nil {
                store.enforce(maxBytes: maxBytes, maxAgeDays: maxAgeDays, now: Date().timeIntervalSince1970, first: goFirst)
            }
            condition.lock()
            if let problem {
                skipped.append(Skipped(id: clip.eventID, path: problem.path, reason: problem.noSpace ? "no_space" : "failed",
                                       problem: problem.problem))
            }
            busy = false
            condition.broadcast()
            condition.unlock()
        }
    }
}
