import SomniqCore

/// An audio file as a source of 16 kHz mono samples: decoded by libsndfile, downmixed,
/// resampled by libsoxr. Read in blocks; never held whole.
public final class FileSource {
    public let path: String
    private let reader: AudioFileReader
    private let resampler: Resampler
    private var block = [Float](repeating: 0, count: 8192)
    /// The block's 16 kHz samples (the resampler may hand them over in pieces).
    private var resampled: [Float] = []
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
        resampled.reserveCapacity(Int(Double(block.count) * Double(StreamClock.sampleRate) / Double(reader.sampleRate)) + 1024)
    }

    public var source: Records.Source {
        .file(path: path, sampleRate: reader.sampleRate, channels: reader.channels, format: reader.formatName)
    }

    /// The share of the file read so far (0 … 1; a header may understate the length).
    public var fraction: Double { min(1, Double(reader.framesRead) / Double(max(1, reader.frames))) }
    /// What the header said and what the file held, once it has been read to its end.
    public var headerSeconds: Double { reader.headerSeconds }
    public var audioSeconds: Double { Double(reader.framesRead) / Double(reader.sampleRate) }
    /// Set once the file is read, when its length was not what its header said.
    public var lengthProblem: String? { reader.lengthProblem }
    public var framesRead: Int64 { reader.framesRead }
    public var sampleRate: Int { reader.sampleRate }

    /// Reads the next block and hands its 16 kHz samples to `body` (none while the
    /// resampler's filter fills). False once the file is done and the filter drained.
    public func next(_ body: (UnsafeBufferPointer<Float>) throws -> Void) throws -> Bool {
        guard !done else { return false }
        var n = 0
        var failure: (any Error)?
        measure(.decode) {
            do { n = try block.withUnsafeMutableBufferPointer { try reader.read(into: $0) } } catch { failure = error }
        }
        if let failure { throw failure }
        done = n == 0
        sanitize(n)
        resampled.removeAll(keepingCapacity: true)
        var problem: (any Error)?
        measure(.resample) {
            do {
                try block.withUnsafeBufferPointer { b in
                    try resampler.process(UnsafeBufferPointer(rebasing: b[0..<n]), last: done) { resampled.append(contentsOf: $0) }
                }
            } catch { problem = error }
        }
        if let problem { throw AudioFileError(path: path, problem: "\(problem)") }
        if !resampled.isEmpty { try resampled.withUnsafeBufferPointer { try body($0) } }
        return true
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
