import SomniqCore
import SomniqLog

/// An audio file as a source of 16 kHz mono samples: decoded by libsndfile, downmixed,
/// resampled by libsoxr. Read in blocks; never held whole.
public final class FileSource: AudioSource, AsyncIteratorProtocol {
    public let path: String
    private let reader: AudioFileReader
    private let resampler: Resampler
    private var block = [Float](repeating: 0, count: 8192)
    /// The block's 16 kHz samples (the resampler may hand them over in pieces), kept
    /// until the next block is read.
    private var resampled = SampleStore()
    private var done = false
    /// Samples that were not numbers (NaN, ±infinity), analysed as silence, and the
    /// file time of the first.
    public private(set) var nonFinite: Int64 = 0
    public private(set) var firstNonFinite: Double?
    /// Times decoding and resampling (the benchmark does); by default just runs them.
    public var measure: (Stage, () -> Void) -> Void = { $1() }

    public init(path: String) throws(AudioFileError) {
        self.path = path
        reader = try AudioFileReader(path: path)
        do { resampler = try Resampler(inputRate: reader.sampleRate, maxBlock: block.count) } catch {
            throw AudioFileError(path: path, problem: error.description)
        }
        resampled.reserve(Int(Double(block.count) * Double(StreamClock.sampleRate) / Double(reader.sampleRate)) + 1024)
    }

    public func makeAsyncIterator() -> FileSource { self }

    /// The next block of 16 kHz samples; nil once the file is read and the filter drained.
    public func next() async throws -> AudioEvent? {
        try nextBlock().map { .samples($0) }
    }

    public var source: LogRecord.SessionStart.Source {
        .file(path: path, sampleRate: reader.sampleRate, channels: reader.channels, format: reader.formatName)
    }

    /// The share of the file read so far (0 … 1; a header may understate the length).
    public var fraction: Double { reader.lengthUnknown ? 0 : Swift.min(1, Double(reader.framesRead) / Double(Swift.max(1, reader.frames))) }
    /// What the header said and what the file held, once it has been read to its end.
    public var headerSeconds: Double { reader.headerSeconds }
    public var lengthUnknown: Bool { reader.lengthUnknown }
    public var audioSeconds: Double { Double(reader.framesRead) / Double(reader.sampleRate) }
    /// Set once the file is read, when its length was not what its header said.
    public var lengthProblem: String? { reader.lengthProblem }
    public var framesRead: Int64 { reader.framesRead }
    public var sampleRate: Int { reader.sampleRate }

    /// Reads blocks until one gives 16 kHz samples (none come while the resampler's
    /// filter fills); nil once the file is done and the filter drained. The block is
    /// valid until the next call.
    public func nextBlock() throws -> AudioBlock? {
        while !done {
            var n = 0
            var failure: (any Error)?
            measure(.decode) {
                do { n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) } } catch { failure = error }
            }
            if let failure { throw failure }
            done = n == 0
            sanitize(n)
            resampled.removeAll()
            var problem: (any Error)?
            measure(.resample) {
                do {
                    try block.withUnsafeBufferPointer { b in
                        try resampler.process(UnsafeBufferPointer(rebasing: b[0..<n]), last: done) { resampled.append($0) }
                    }
                } catch { problem = error }
            }
            if let problem { throw AudioFileError(path: path, problem: "\(problem)") }
            if resampled.count > 0 { return AudioBlock(resampled.samples) }
        }
        return nil
    }

    /// A sample that is not a number becomes 0 (counted); one beyond full scale is clipped
    /// to ±1, as a converter would: a single wild value must not split an event or
    /// poison the filters downstream.
    private func sanitize(_ n: Int) {
        let start = reader.framesRead - Int64(n)
        block.withUnsafeMutableBufferPointer { b in
            // Nearly every block has nothing to fix: find that out eight samples at a time,
            // with no branch per sample (−1 ≤ x ≤ 1 is false for NaN too).
            var wild = SIMDMask<SIMD8<Int32>>(repeating: false)
            var i = 0
            while i + 8 <= n {
                let x = UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: SIMD8<Float>.self)
                wild .|= .!((x .>= -1) .& (x .<= 1))
                i += 8
            }
            for j in i..<n where !(abs(b[j]) <= 1) { wild[0] = true }
            guard any(wild) else { return }
            for i in 0..<n {
                let x = b[i]
                if x.isFinite {
                    if x > 1 { b[i] = 1 } else if x < -1 { b[i] = -1 }
                } else {
                    b[i] = 0
                    if nonFinite == 0 { firstNonFinite = Double(start + Int64(i)) / Double(reader.sampleRate) }
                    nonFinite += 1
                }
            }
        }
    }
}

/// Samples in memory of their own, which stays put until the next `removeAll`: a block
/// handed out by `FileSource` is read in place. Grows (rarely) to the largest block.
private struct SampleStore: ~Copyable {
    private var base = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var capacity = 1
    private(set) var count = 0

    deinit { base.deallocate() }

    var samples: UnsafeBufferPointer<Float> { UnsafeBufferPointer(start: base, count: count) }

    mutating func reserve(_ n: Int) {
        guard n > capacity else { return }
        let grown = UnsafeMutablePointer<Float>.allocate(capacity: n)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = n
    }

    mutating func removeAll() { count = 0 }

    mutating func append(_ more: UnsafeBufferPointer<Float>) {
        guard let from = more.baseAddress, !more.isEmpty else { return }
        if count + more.count > capacity { reserve(max(2 * capacity, count + more.count)) }
        (base + count).update(from: from, count: more.count)
        count += more.count
    }
}
