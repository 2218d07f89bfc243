import CSndFile
import FoundationEssentials
import Glibc
import SomniqCore
import SomniqReports
import SomniqSupport

/// Writes night audio on a thread of its own (a `Worker`). The session puts 16-bit samples into a ring
/// allocated once (`push`), and marks where each part begins (`mark`); the thread encodes
/// them as FLAC through libsndfile, part by part, and deletes old nights after each part
/// it opens. The ring full (a slow disk), `push` refuses the samples at once: the caller
/// counts them lost, and listening never waits. A disk that refuses writes ends the part
/// there; the thread then throws the audio away, counting it, and tries a new part every
/// `retrySeconds` of it and at each mark, until one is written.
///
/// What the thread has to say (a part started, a failure, audio lost, nights deleted) waits
/// in `takeNews`. The worker's one job is a wake-up: at most one waits (`wakeQueued`), and it
/// writes whatever the ring and the marks hold when it runs. The shared state is guarded by
/// `mutex`; the ring's samples between `read` and `written` are the thread's to read, the
/// rest the session's to fill.
// @unchecked: the ring is raw memory, and the part under way is the worker thread's alone.
final class NightAudioWriter: @unchecked Sendable {
    /// Where a part begins: the stream frame of its first sample and that sample's
    /// wall-clock time (Unix).
    struct Start: Sendable {
        var frame: Int64
        var unix: Double
    }

    enum News: Sendable, Equatable {
        /// A part's file was created: it holds the stream from `frame` on, heard at `unix`.
        case started(path: String, night: String, frame: Int64, unix: Double)
        /// The disk refused a part (said once, until a part is written again).
        case failed(path: String, reason: String, problem: String)
        /// Audio that was not kept since `frame` (and `unix`), now that a part is written
        /// again or the session ended: `path` is the part it is missing from.
        case lost(path: String, reason: String, problem: String, frame: Int64, unix: Double, frames: Int64)
        case deleted(NightStore.Deleted)
    }

    static let retrySeconds = 30
    /// Marks waiting at most: parts the thread has not begun yet.
    static let markLimit = 8
    /// Audio written between two syncs to the disk: what a power cut may cost.
    static let syncFrames = Int64(60 * StreamClock.sampleRate)

    let store: NightStore
    private let maxBytes: Int64, keepNights: Int
    let capacity: Int
    private let clock: any IOClock
    private let ring: UnsafeMutablePointer<Int16>
    private let mutex = PosixCondition()   // as a lock: the worker does the waiting
    private let worker: Worker<Void>
    private var written: Int64 = 0, read: Int64 = 0
    private var marks: [(at: Int64, start: Start?)] = []
    /// A wake-up is queued for the worker.
    private var wakeQueued = false
    private var news: [News] = []

    // The thread's own.
    private struct Part {
        var path: String, night: String
        var file: OpaquePointer
        /// A descriptor of the file that holds its lock until the part is closed.
        var lock: Int32
        var start: Start
        var frames: Int64 = 0
        var synced: Int64 = 0
        /// Opened while audio was being lost: said once some of its audio is on the disk,
        /// past the header libsndfile writes with the first samples.
        var confirmed: Bool
        var headerBytes: Int64?
        /// The file's size after the last write that succeeded: whole FLAC frames.
        var goodBytes: Int64 = 0
    }
    private var part: Part?
    /// The stream where the ring's samples are: the frame and time of ring position `at`.
    private var base: (at: Int64, start: Start)?
    /// Since the disk refused: what is lost, from where, why.
    private var failure: (path: String, reason: String, problem: String, frame: Int64, unix: Double, frames: Int64)?
    private var sinceRetry: Int64 = 0

    init(store: NightStore, maxBytes: Int64, keepNights: Int, queueSeconds: Double, clock: any IOClock) {
        self.store = store
        self.clock = clock
        self.maxBytes = maxBytes
        self.keepNights = keepNights
        capacity = max(1, Int(queueSeconds * Double(StreamClock.sampleRate)))
        ring = .allocate(capacity: capacity)
        ring.initialize(repeating: 0, count: capacity)
        marks.reserveCapacity(Self.markLimit + 1)
        worker = Worker(name: "somniq-nights", capacity: 1, whenFull: .refuse, clock: clock)
        worker.start { [self] in writeWhatIsThere() }
    }

    deinit { ring.deallocate() }

    /// Room in the ring, in samples.
    func room() -> Int {
        mutex.lock()
        defer { mutex.unlock() }
        return capacity - Int(written - read)
    }

    /// Queues the samples (to 16 bits at libsndfile's scale, x · 32768, as clips are), or
    /// refuses them all when the ring has no room for them. Allocates nothing.
    func push(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        mutex.lock()
        guard capacity - Int(written - read) >= samples.count else { mutex.unlock(); return false }
        var at = Int(written % Int64(capacity))
        for x in samples {
            ring[at] = Int16((max(-32768, min(32767, x * 32768))).rounded())
            at = at + 1 == capacity ? 0 : at + 1
        }
        written += Int64(samples.count)
        wake()
        mutex.unlock()
        return true
    }

    /// The samples pushed next begin a part (`start`), or, with nil, the part ends there.
    /// False when too many marks wait already.
    func mark(_ start: Start?) -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
        guard marks.count < Self.markLimit || start == nil else { return false }
        marks.append((written, start))
        wake()
        return true
    }

    func takeNews() -> [News] {
        mutex.lock()
        defer { mutex.unlock() }
        guard !news.isEmpty else { return [] }
        defer { news.removeAll() }
        return news
    }

    /// Ends the part under way and waits up to `timeout` for the thread to write what it
    /// holds. Returns the samples it had not written by then.
    func finish(within timeout: Duration) -> Int64 {
        _ = mark(nil)
        worker.drain(until: clock.now + timeout)
        // What is left is written still, and then the thread ends.
        worker.stop(.run)
        mutex.lock()
        defer { mutex.unlock() }
        return written - read
    }

    /// Queues a wake-up for the worker unless one waits already. Call with `mutex` held.
    private func wake() {
        guard !wakeQueued else { return }
        wakeQueued = true
        worker.offer(())
    }

    private func say(_ n: News) {
        mutex.lock()
        news.append(n)
        mutex.unlock()
    }

    /// The worker's job: writes what the ring holds and begins the parts marked, in order,
    /// until there is nothing left. What comes meanwhile queues the next wake-up.
    private func writeWhatIsThere() {
        mutex.lock()
        wakeQueued = false
        mutex.unlock()
        while true {
            mutex.lock()
            if read == written && marks.first?.at != read { mutex.unlock(); return }
            if let m = marks.first, m.at == read {
                marks.removeFirst()
                mutex.unlock()
                begin(m.start)
            } else {
                let end = min(written, marks.first?.at ?? written)
                let from = Int(read % Int64(capacity))
                let count = min(Int(end - read), capacity - from)
                mutex.unlock()
                write(UnsafeBufferPointer(start: ring + from, count: count))
                mutex.lock()
                read += Int64(count)
                mutex.unlock()
            }
        }
    }

    /// The stream position of the next sample to read.
    private func here() -> Start? {
        guard let base else { return nil }
        let frame = base.start.frame + (read - base.at)
        return Start(frame: frame, unix: base.start.unix + StreamClock.seconds(frame - base.start.frame))
    }

    /// A mark: the part under way ends; another begins at `start` unless it is nil.
    private func begin(_ start: Start?) {
        close()
        guard let start else {
            // The session ended: a loss still going on ends with it.
            if let f = failure { say(.lost(path: f.path, reason: f.reason, problem: f.problem, frame: f.frame, unix: f.unix, frames: f.frames)) }
            failure = nil
            base = nil
            return
        }
        base = (read, start)
        open(at: start)
    }

    private func open(at start: Start) {
        sinceRetry = 0
        let (night, name) = NightStore.place(unix: start.unix)
        let created: (fd: Int32, path: String)
        do throws(StoreFailure) { created = try store.create(night: night, name: name) } catch {
            refused(path: error.path, error.problem)
            return
        }
        let lock = dup(created.fd)
        var info = SF_INFO()
        info.samplerate = Int32(StreamClock.sampleRate)
        info.channels = 1
        info.format = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        // libsndfile closes `fd` with the file; `lock` keeps the lock until the part is done.
        guard let file = sf_open_fd(created.fd, Int32(SFM_WRITE), &info, 1) else {
            let reason = String(cString: sf_strerror(nil))
            unlink(created.path)
            if lock >= 0 { Glibc.close(lock) }
            refused(path: created.path, "cannot write FLAC: \(reason)")
            return
        }
        part = Part(path: created.path, night: night, file: file, lock: lock, start: start, confirmed: failure == nil)
        if failure == nil { say(.started(path: created.path, night: night, frame: start.frame, unix: start.unix)) }
        for d in store.enforce(maxBytes: maxBytes, keepNights: keepNights, current: night) { say(.deleted(d)) }
    }

    private func write(_ samples: UnsafeBufferPointer<Int16>) {
        guard var p = part else {
            lose(samples.count)
            return
        }
        errno = 0
        let n = sf_writef_short(p.file, samples.baseAddress, sf_count_t(samples.count))
        let e = errno
        if n != sf_count_t(samples.count) || sf_error(p.file) != 0 {
            // The system's reason (ENOSPC, EFBIG) when there is one: libsndfile's FLAC
            // encoder reports a refused write only as a short count.
            let problem = e != 0 ? String(cString: strerror(e)) : sf_error(p.file) != 0 ? String(cString: sf_strerror(p.file)) : "short write"
            part = nil
            // A write refused part-way leaves a torn frame: cut back to the last whole one.
            finishFile(p, keepingBytes: p.goodBytes)
            if p.confirmed {
                // What it holds is kept (a FLAC whose header has no length); an empty one is not.
                if p.frames == 0 { unlink(p.path) }
                refused(path: p.path, "not written (\(problem)); the disk may be full", lost: Int64(samples.count))
            } else {
                // A retry the disk refused as well: nothing of it is kept.
                unlink(p.path)
                lose(Int(p.frames) + samples.count)
            }
            return
        }
        p.frames += Int64(samples.count)
        var st = stat()
        if fstat(p.lock, &st) == 0 {
            let size = Int64(st.st_size)
            if !p.confirmed {
                if let header = p.headerBytes, size > header { confirm(&p) }
                if p.headerBytes == nil { p.headerBytes = size }
            }
            p.goodBytes = size
        }
        if p.frames - p.synced >= Self.syncFrames {
            fdatasync(p.lock)
            p.synced = p.frames
        }
        part = p
    }

    /// A part opened while audio was lost holds some on the disk: the loss is over.
    private func confirm(_ p: inout Part) {
        p.confirmed = true
        if let f = failure { say(.lost(path: f.path, reason: f.reason, problem: f.problem, frame: f.frame, unix: f.unix, frames: f.frames)) }
        failure = nil
        say(.started(path: p.path, night: p.night, frame: p.start.frame, unix: p.start.unix))
    }

    /// The disk refused `path`: said, unless a loss is being counted already; from here
    /// the audio is lost until a part is written again.
    private func refused(path: String, _ problem: String, lost: Int64 = 0) {
        if failure == nil, let at = here() {
            let reason = StoreFailure(path: path, problem: problem).reason
            failure = (path, reason, problem, at.frame, at.unix, 0)
            say(.failed(path: path, reason: reason, problem: problem))
        }
        lose(Int(lost))
    }

    /// Samples thrown away: counted, and every `retrySeconds` of them a new part is tried.
    private func lose(_ count: Int) {
        guard count > 0 else { return }
        failure?.frames += Int64(count)
        sinceRetry += Int64(count)
        guard sinceRetry >= Int64(Self.retrySeconds * StreamClock.sampleRate), let base else { return }
        // The next sample read is where the new part starts (`read` moves past these after).
        let frame = base.start.frame + (read + Int64(count) - base.at)
        open(at: Start(frame: frame, unix: base.start.unix + StreamClock.seconds(frame - base.start.frame)))
    }

    /// Ends the part under way, if any, whole.
    private func close() {
        guard let p = part else { return }
        part = nil
        finishFile(p)
        if !p.confirmed {
            var st = stat()
            if let header = p.headerBytes, lstat(p.path, &st) == 0, Int64(st.st_size) > header {
                var q = p
                confirm(&q)
            } else {
                unlink(p.path)
            }
        }
    }

    private func finishFile(_ p: Part, keepingBytes whole: Int64? = nil) {
        sf_close(p.file)
        if let whole { ftruncate(p.lock, off_t(whole)) }
        fdatasync(p.lock)
        Glibc.close(p.lock)
    }
}
