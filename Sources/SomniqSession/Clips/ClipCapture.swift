import FoundationEssentials
import SomniqConfig
import SomniqCore
import SomniqSupport
import Synchronization

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
                goFirst: @escaping @Sendable () -> Set<String> = { [] }, clock: any IOClock = SystemClock()) {
        store = ClipStore(directory: directory)
        recorder = ClipRecorder(policy: policy, delaySeconds: ClipRecorder.delaySeconds(policy: policy, profile: profile))
        writer = ClipWriter(store: store, maxBytes: policy.maxBytes, maxAgeDays: policy.maxAgeDays, goFirst: goFirst, clock: clock)
    }

    /// Before the session's first record: the directory is made ready, or the session
    /// cannot start (`ClipStore.prepare`).
    public func prepare() throws(StoreFailure) { try store.prepare() }

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

/// Writes clips on a thread of its own (a `Worker` that refuses when full): a clip that
/// finds `queueLimit` waiting is skipped, and said to be, rather than held in memory or
/// holding up the caller.
public final class ClipWriter: Sendable {
    /// A clip not kept: the event's id, the file, why (`reason`: `no_space`, `queue_full`
    /// or `failed`; `problem`: in words).
    public struct Skipped: Sendable, Equatable {
        public var id: String, path: String, reason: String, problem: String
    }

    public static let queueLimit = 4
    private let store: ClipStore
    private let maxBytes: Int64, maxAgeDays: Double
    private let goFirst: @Sendable () -> Set<String>
    private let clock: any IOClock
    private let worker: Worker<ClipRecorder.Clip>
    private let skipped = Mutex<[Skipped]>([])

    init(store: ClipStore, maxBytes: Int64, maxAgeDays: Double, goFirst: @escaping @Sendable () -> Set<String>,
         clock: any IOClock) {
        self.store = store
        self.maxBytes = maxBytes
        self.maxAgeDays = maxAgeDays
        self.goFirst = goFirst
        self.clock = clock
        worker = Worker(name: "somniq-clips", capacity: Self.queueLimit, whenFull: .refuse, clock: clock)
        worker.start { [self] clip in write(clip) }
    }

    func submit(_ clips: [ClipRecorder.Clip]) {
        for clip in clips {
            guard case .refused = worker.offer(clip) else { continue }
            skipped.withLock {
                $0.append(Skipped(id: clip.eventID, path: store.path(clip.name), reason: "queue_full",
                                  problem: "\(Self.queueLimit) clips were already waiting to be written; the disk is too slow"))
            }
        }
    }

    /// Waits up to `timeout` for the queue to empty, then lets the thread end once it has
    /// written what is left.
    func drain(within timeout: Duration) {
        worker.drain(until: clock.now + timeout)
        worker.stop(.run)
    }

    func takeSkipped() -> [Skipped] {
        skipped.withLock { s in
            defer { s.removeAll() }
            return s
        }
    }

    private func write(_ clip: ClipRecorder.Clip) {
        do throws(StoreFailure) {
            try store.write(clip.samples, name: clip.name)
            store.enforce(maxBytes: maxBytes, maxAgeDays: maxAgeDays, now: clock.unix, first: goFirst)
        } catch {
            skipped.withLock {
                $0.append(Skipped(id: clip.eventID, path: error.path, reason: error.reason,
                                  problem: error.problem))
            }
        }
    }
}
