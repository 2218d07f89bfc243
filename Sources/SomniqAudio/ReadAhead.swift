import Glibc
import SomniqCore
import SomniqSupport

/// A file read on a thread of its own (`replay --threads 2`): the reader decodes and
/// resamples (`FileSource`) into a bounded ring of blocks while the analysis takes them in
/// turn. Each window it keeps, it transforms too: the frames' power spectra, which hold no
/// state (`FeatureExtractor.spectra`, by a transform of its own), so whichever thread
/// analyses the window does only the part that must run in order, and a 16 kHz WAV's cheap
/// decoding leaves the reader a share of the work that needs no turn taking. When the rings
/// are full the reader does not wait idle: it analyses the windows the
/// analysis has not reached, in stream order, up to the alarm detector
/// (`FeatureExtractor.analyse`, on the pipeline's own extractor), while the analysis follows
/// and classifies the windows before them. Whichever thread comes first to a window analyses
/// it and the ones after it that are cut, up to `batch` in a row, so the two cores share the
/// work however costly the decoding is (a 16 kHz WAV, a 48 kHz FLAC), and the outputs are
/// those of one thread: the same computations on the same state in the same order.
///
/// The extractor's state and buffers move from one core's cache to the other's only when
/// the other thread takes the next batch, not at every window: taken window by window, a
/// 16 kHz WAV's two threads did 64 % more work than one, and ran slower. In batches of 16
/// in a ring of 24 windows, against 4 in 8, they hand the extractor over a quarter as often
/// and the session's thread waits for the reader 0.10 s where it waited 0.27 s (a 30 min
/// 16 kHz WAV's replay 8–12 % faster where the machine's load made two threads' work dear,
/// the same where it did not: docs/benchmarks.md).
///
/// The windows live in memory allocated once, the blocks in memory allocated as the ring
/// first fills; a block larger than any before grows its slot. The analysis calls `next`,
/// `analysed(_:by:)` and `release`, the reader the rest.
// @unchecked: every field the two threads share is read and written with `condition` held,
// and the extractor analyses on one thread at a time (`nextToAnalyse`); the reader also calls
// its `spectra` while the other thread analyses, which is safe only because `spectra` reads
// nothing but the extractor's constants (`FeatureExtractor.spectrum(of:by:into:)` says so).
public final class ReadAhead: AnalysisAhead, @unchecked Sendable {
    /// A block of 16 kHz samples, valid until the next call of `next`, and how far into
    /// the file it reaches.
    public struct Block {
        public let samples: UnsafeBufferPointer<Float>
        public let framesRead: Int64
        public let fraction: Double
    }

    private final class BlockSlot {
        var samples: UnsafeMutablePointer<Float>?
        var capacity = 0
        var count = 0
        var framesRead: Int64 = 0
        var fraction = 0.0
        deinit { samples?.deallocate() }
        func fill(_ block: UnsafeBufferPointer<Float>) {
            if block.count > capacity {
                samples?.deallocate()
                capacity = block.count
                samples = .allocate(capacity: capacity)
            }
            if let from = block.baseAddress { samples!.update(from: from, count: block.count) }
            count = block.count
        }
    }

    private enum State { case free, filling, waiting, analysing, ready, taken }

    private final class WindowSlot {
        var state = State.free
        var index = -1
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: StreamClock.windowLength)
        /// Its frames' power spectra, made by the reader as it keeps the window
        /// (`FeatureExtractor.spectra`): a stream's first window's all, the others' new frames.
        let spectra: UnsafeMutablePointer<Float>
        let analysed: AnalysedWindow
        init(bins: Int) {
            analysed = AnalysedWindow(bins: bins)
            spectra = .allocate(capacity: SubFrame.perWindow * bins)
        }
        deinit {
            samples.deallocate()
            spectra.deallocate()
        }
        /// The first frame whose spectrum the reader made.
        var firstSpectrum: Int { index == 0 ? 0 : SubFrame.shared }
        var window: AudioWindow {
            AudioWindow(index: index, startFrame: Int64(index) * Int64(StreamClock.hop),
                        samples: UnsafeBufferPointer(start: samples, count: StreamClock.windowLength))
        }
    }

    /// RUSAGE_THREAD (Linux), which Glibc's Swift module leaves out: the calling thread's usage.
    private static let rusageThread: Int32 = 1

    /// Blocks in the ring (at most: the reader also waits while the windows are full, and a
    /// 48 kHz file's blocks are a third of a 16 kHz file's), windows that may be analysed
    /// ahead (each 192 kB: its samples, spectra and log spectra), and the most one thread
    /// analyses in a row before the other may take the next.
    public static let blocks = 32, windows = 24, batch = 16

    private let file: FileSource
    private let extractor: FeatureExtractor
    /// The reader's own transform, for the frames' spectra it makes ahead (the extractor's
    /// is the extractor's, used on whichever thread analyses).
    private let transform: FFTWTransform
    private let condition = PosixCondition()
    private let blockSlots: [BlockSlot]
    private var blockHead = 0, blockCount = 0
    /// The analysis holds the head block until its next call of `next`.
    private var holding = false
    private let windowSlots: [WindowSlot]
    private var windowHead = 0, windowCount = 0
    /// The window the extractor analyses next: every one before it is analysed, and no
    /// thread analyses another.
    private var nextToAnalyse = 0
    private var finished = false
    private var failure: (any Error)?
    /// The samples of the blocks in the ring, the one the analysis holds included.
    private var queued = 0
    /// The most windows one block completes (a block is 8,192 frames at the file's rate,
    /// resampled, and a little more as the resampler drains: `FileSource`); the reader decodes
    /// the next block only while that many window slots are free (all of them, at a rate so
    /// low that a block completes more windows than there are slots).
    private let windowsPerBlock: Int
    private var cpu = 0.0
    private var stopped = false
    /// The reader's own windows of the stream, cut as the analysis will cut them.
    private var windower = try! Windower()
    /// Times the reader's stages (the benchmark does): decoding, resampling (`FileSource`)
    /// and the windows it analyses ahead (`.features`).
    private let measure: (Stage, () -> Void) -> Void

    /// `extractor`: the pipeline's, which the reader uses for the windows it analyses ahead
    /// (`Pipeline.extractor`). `measure`: called on the reader's thread.
    public init(file: FileSource, extractor: FeatureExtractor,
                measure: @escaping (Stage, () -> Void) -> Void = { $1() }) {
        self.file = file
        self.extractor = extractor
        self.measure = measure
        transform = FFTWTransform(size: 2 * (extractor.bins - 1))
        file.measure = measure
        blockSlots = (0..<Self.blocks).map { _ in BlockSlot() }
        let most = Int(8192 * Double(StreamClock.sampleRate) / Double(file.sampleRate)) + 1024
        windowsPerBlock = min(Self.windows, most / StreamClock.hop + 1)
        windowSlots = (0..<Self.windows).map { _ in WindowSlot(bins: extractor.bins) }
    }

    /// Starts the reader's thread.
    public func start() {
        PosixThread.start(name: "somniq-read") { [self] in read() }
    }

    /// Stops the reader: the file is not read further, nor any window analysed.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next block; nil at the end of the file. Throws what the reader met (the file
    /// broke off), after the blocks read before it.
    public func next() throws -> Block? {
        condition.lock()
        defer { condition.unlock() }
        if holding {
            holding = false
            queued -= blockSlots[blockHead].count
            blockHead = (blockHead + 1) % Self.blocks
            blockCount -= 1
            condition.broadcast()
        }
        while blockCount == 0 && !finished { condition.wait() }
        guard blockCount > 0 else {
            if let failure { throw failure }
            return nil
        }
        holding = true
        let slot = blockSlots[blockHead]
        return Block(samples: UnsafeBufferPointer(start: slot.samples, count: slot.count),
                     framesRead: slot.framesRead, fraction: slot.fraction)
    }

    public func analysed(_ window: AudioWindow, by extractor: FeatureExtractor) -> AnalysedWindow? {
        precondition(extractor === self.extractor, "the reader analyses with the pipeline's extractor")
        condition.lock()
        defer { condition.unlock() }
        while windowCount > 0 {
            let head = windowSlots[windowHead]
            if head.state == .analysing || head.state == .filling {
                condition.wait()
            } else if head.index < window.index {
                freeHead()          // a window the analysis passed by (none in a stream read whole)
            } else {
                break
            }
        }
        // Not kept (the ring was full when it was cut): the caller analyses it (`release`).
        guard windowCount > 0, windowSlots[windowHead].index == window.index else { return nil }
        let slot = windowSlots[windowHead]
        if slot.state == .waiting {
            precondition(nextToAnalyse == window.index)
            analyseBatch(from: 0, reader: false)
        }
        slot.state = .taken
        return slot.analysed
    }

    public func release(_ index: Int) {
        condition.lock()
        defer { condition.unlock() }
        nextToAnalyse = max(nextToAnalyse, index + 1)
        if windowCount > 0, windowSlots[windowHead].index == index, windowSlots[windowHead].state == .taken { freeHead() }
        condition.broadcast()
    }

    private func freeHead() {
        windowSlots[windowHead].state = .free
        windowHead = (windowHead + 1) % Self.windows
        windowCount -= 1
        condition.broadcast()
    }

    // MARK: - The reader's thread

    private func read() {
        while true {
            let block: AudioBlock?
            do { block = try file.nextBlock() } catch {
                end(failure: error)
                return
            }
            guard let block else {
                windower.flush { offer($0) }
                end(failure: nil)
                return
            }
            windower.push(block.samples) { offer($0) }
            guard publish(block.samples) else { return }
        }
    }

    /// The CPU time the reader's thread took (user and system, seconds), once the file is
    /// read to its end or its break.
    public var readerCPUSeconds: Double {
        condition.lock()
        defer { condition.unlock() }
        return cpu
    }

    private func end(failure: (any Error)?) {
        var usage = rusage()
        getrusage(Self.rusageThread, &usage)
        condition.lock()
        cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
        self.failure = failure
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Keeps `window` to be analysed ahead, if a slot is free and the analysis has a window's
    /// samples or more in the ring before it; if not, the analysis analyses it when it comes
    /// to it. Where decoding is dear (a 48 kHz FLAC) the analysis keeps up with the reader, and
    /// a window it would analyse itself is not copied here (64 kB) for nothing.
    private func offer(_ window: AudioWindow) {
        condition.lock()
        guard windowCount < Self.windows, queued >= StreamClock.windowLength, !stopped else { condition.unlock(); return }
        let slot = windowSlots[(windowHead + windowCount) % Self.windows]
        windowCount += 1
        slot.state = .filling
        slot.index = window.index
        condition.unlock()
        slot.samples.update(from: window.samples.baseAddress!, count: StreamClock.windowLength)
        // The frames' spectra hold no state: made here, ahead, they leave the analysis (on
        // whichever thread) the part that must run in order.
        measure(.features) { extractor.spectra(of: slot.window, from: slot.firstSpectrum, transform: transform, into: slot.spectra) }
        condition.lock()
        slot.state = .waiting
        condition.broadcast()
        condition.unlock()
    }

    /// Puts a block in the ring, first analysing windows ahead while the ring or the windows
    /// are full; false once stopped.
    private func publish(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        condition.lock()
        while blockCount == Self.blocks && !stopped {
            waitOrAnalyse()
        }
        guard !stopped else { condition.unlock(); return false }
        let slot = blockSlots[(blockHead + blockCount) % Self.blocks]
        condition.unlock()
        slot.fill(samples)
        slot.framesRead = file.framesRead
        slot.fraction = file.fraction
        condition.lock()
        blockCount += 1
        queued += slot.count
        condition.broadcast()
        // The next block's windows must find slots free.
        while windowCount > Self.windows - windowsPerBlock && !stopped {
            waitOrAnalyse()
        }
        condition.unlock()
        return true
    }

    /// With `condition` held: analyses the next windows, if they are kept here and no thread
    /// analyses them, else waits.
    private func waitOrAnalyse() {
        for k in 0..<windowCount where windowSlots[(windowHead + k) % Self.windows].index == nextToAnalyse {
            if windowSlots[(windowHead + k) % Self.windows].state == .waiting {
                analyseBatch(from: k, reader: true)
                return
            }
            break
        }
        condition.wait()
    }

    /// With `condition` held: analyses the window in slot `k` from the head, which is
    /// `nextToAnalyse` and waiting, and those after it that are waiting, up to `batch` in a
    /// row; `condition` is let go meanwhile. `reader`: on the reader's thread (`measure`).
    private func analyseBatch(from k: Int, reader: Bool) {
        let first = (windowHead + k) % Self.windows
        var count = 0
        while count < Self.batch, k + count < windowCount {
            let slot = windowSlots[(first + count) % Self.windows]
            guard slot.index == nextToAnalyse + count, slot.state == .waiting else { break }
            slot.state = .analysing
            count += 1
        }
        condition.unlock()
        let analyse = { [self] in
            for i in 0..<count {
                let slot = windowSlots[(first + i) % Self.windows]
                extractor.analyse(slot.window, spectra: (slot.firstSpectrum, slot.spectra), into: slot.analysed)
            }
        }
        if reader { measure(.features, analyse) } else { analyse() }
        condition.lock()
        for i in 0..<count { windowSlots[(first + i) % Self.windows].state = .ready }
        nextToAnalyse += count
        condition.broadcast()
    }
}
