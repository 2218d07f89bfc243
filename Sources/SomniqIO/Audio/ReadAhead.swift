import Glibc
import SomniqCore

/// A file read on a thread of its own (`replay --threads 2`): the reader decodes and
/// resamples (`FileSource`) into a bounded ring of blocks while the analysis takes them in
/// turn. When the ring is full the reader does not wait idle: it computes the frame spectra
/// (`FrameSpectra`) of windows the analysis has not reached, newest first, and the analysis
/// uses those it finds ready and computes the others itself. So the two cores share the work
/// however costly the decoding is (a 16 kHz WAV, a 48 kHz FLAC), and the outputs are those of
/// one thread: the same samples through the same computations, in the same order.
///
/// The blocks and windows live in memory allocated once; a block larger than any before grows
/// its slot. The analysis calls `next`, `spectra(for:)` and `release`, the reader the rest.
// @unchecked: every field the two threads share is read and written with `condition` held.
public final class ReadAhead: SpectraAhead, @unchecked Sendable {
    /// A block of 16 kHz samples, valid until the next call of `next`, and how far into
    /// the file it reaches.
    public struct Block {
        public let samples: UnsafeBufferPointer<Float>
        public let framesRead: Int64
        public let fraction: Double
    }

    private final class BlockSlot {
        var samples: UnsafeMutablePointer<Float>
        var capacity: Int
        var count = 0
        var framesRead: Int64 = 0
        var fraction = 0.0
        init(capacity: Int) {
            self.capacity = capacity
            samples = .allocate(capacity: capacity)
        }
        deinit { samples.deallocate() }
        func fill(_ block: UnsafeBufferPointer<Float>) {
            if block.count > capacity {
                samples.deallocate()
                capacity = block.count
                samples = .allocate(capacity: capacity)
            }
            if let from = block.baseAddress { samples.update(from: from, count: block.count) }
            count = block.count
        }
    }

    private enum State { case free, filling, waiting, computing, ready, taken }

    private final class WindowSlot {
        var state = State.free
        var index = -1
        var first = 0
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: StreamClock.windowLength)
        let spectra: FrameSpectra
        init(transform: SpectrumTransform) { spectra = FrameSpectra(transform: transform) }
        deinit { samples.deallocate() }
    }

    /// Blocks in the ring, and windows whose spectra may be computed ahead.
    public static let blocks = 4, windows = 4

    private let file: FileSource
    private let condition = PosixCondition()
    private let blockSlots: [BlockSlot]
    private var blockHead = 0, blockCount = 0
    /// The analysis holds the head block until its next call of `next`.
    private var holding = false
    private let windowSlots: [WindowSlot]
    private var windowHead = 0, windowCount = 0
    private var finished = false
    private var failure: (any Error)?
    private var stopped = false
    /// The reader's own windows of the stream, cut as the analysis will cut them.
    private var windower = try! Windower()
    /// Times the reader's stages (the benchmark does): decoding, resampling (`FileSource`)
    /// and the spectra computed ahead (`.features`).
    private let measure: (Stage, () -> Void) -> Void

    /// `transform`: the reader's own, for the spectra it computes ahead (an FFT plan runs
    /// on one thread at a time). `measure`: called on the reader's thread.
    public init(file: FileSource, transform: SpectrumTransform,
                measure: @escaping (Stage, () -> Void) -> Void = { $1() }) {
        self.file = file
        self.measure = measure
        file.measure = measure
        let capacity = Int(8192 * Double(StreamClock.sampleRate) / Double(file.sampleRate)) + 1024
        blockSlots = (0..<Self.blocks).map { _ in BlockSlot(capacity: capacity) }
        windowSlots = (0..<Self.windows).map { _ in WindowSlot(transform: transform) }
    }

    /// Starts the reader's thread.
    public func start() {
        PosixThread.start(name: "somniq-read") { [self] in read() }
    }

    /// Stops the reader (the analysis ended early); the file is not read further.
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

    public func spectra(for index: Int) -> FrameSpectra? {
        condition.lock()
        defer { condition.unlock() }
        while windowCount > 0 {
            let head = windowSlots[windowHead]
            if head.state == .computing || head.state == .filling {
                condition.wait()
            } else if head.index < index {
                freeHead()          // a window the analysis passed by (none in a stream read whole)
            } else {
                break
            }
        }
        guard windowCount > 0, windowSlots[windowHead].index == index else { return nil }
        let slot = windowSlots[windowHead]
        let ready = slot.state == .ready
        slot.state = .taken
        return ready ? slot.spectra : nil
    }

    public func release(_ index: Int) {
        condition.lock()
        defer { condition.unlock() }
        if windowCount > 0, windowSlots[windowHead].index == index, windowSlots[windowHead].state == .taken { freeHead() }
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

    private func end(failure: (any Error)?) {
        condition.lock()
        self.failure = failure
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Keeps `window` for its spectra to be computed ahead, if a slot is free; if none is,
    /// the analysis computes them.
    private func offer(_ window: AudioWindow) {
        condition.lock()
        guard windowCount < Self.windows, !stopped else { condition.unlock(); return }
        let slot = windowSlots[(windowHead + windowCount) % Self.windows]
        windowCount += 1
        slot.state = .filling
        slot.index = window.index
        // What the extractor analyses anew: every frame of a stream's first window, the
        // unshared ones of each after it.
        slot.first = window.index == 0 ? 0 : SubFrame.shared
        condition.unlock()
        slot.samples.update(from: window.samples.baseAddress!, count: StreamClock.windowLength)
        condition.lock()
        slot.state = .waiting
        condition.broadcast()
        condition.unlock()
    }

    /// Puts a block in the ring, computing spectra ahead while it is full; false once stopped.
    private func publish(_ samples: UnsafeBufferPointer<Float>) -> Bool {
        condition.lock()
        while blockCount == Self.blocks && !stopped {
            if let slot = newestWaiting() {
                slot.state = .computing
                condition.unlock()
                measure(.features) { slot.spectra.compute(window: slot.index, samples: UnsafeBufferPointer(start: slot.samples, count: StreamClock.windowLength),
                                                        from: slot.first) }
                condition.lock()
                slot.state = .ready
                condition.broadcast()
            } else {
                condition.wait()
            }
        }
        guard !stopped else { condition.unlock(); return false }
        let slot = blockSlots[(blockHead + blockCount) % Self.blocks]
        condition.unlock()
        slot.fill(samples)
        slot.framesRead = file.framesRead
        slot.fraction = file.fraction
        condition.lock()
        blockCount += 1
        condition.broadcast()
        condition.unlock()
        return true
    }

    private func newestWaiting() -> WindowSlot? {
        for k in stride(from: windowCount - 1, through: 0, by: -1) {
            let slot = windowSlots[(windowHead + k) % Self.windows]
            if slot.state == .waiting { return slot }
        }
        return nil
    }
}
