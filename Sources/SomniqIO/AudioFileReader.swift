import CSndFile
import Foundation
import SomniqCore

/// Why an audio file could not be read. Exit code 65 (bad input data).
public struct AudioFileError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var problem: String
    public var description: String { "\(LogText.escape(path)): \(problem)" }
}

/// Reads any file libsndfile understands (WAV, FLAC, OGG/Vorbis, Opus, AIFF, …) in
/// blocks, downmixed to mono Float32. The file is never held whole in memory.
public final class AudioFileReader {
    public let path: String
    public let sampleRate: Int
    public let channels: Int
    /// Frames the file says it has.
    public let frames: Int64
    public let formatName: String
    public private(set) var framesRead: Int64 = 0

    private let file: OpaquePointer
    private var interleaved: [Float]
    private let blockFrames: Int

    public init(path: String, blockFrames: Int = 8192) throws(AudioFileError) {
        self.path = path
        self.blockFrames = blockFrames
        let fd: Int32
        switch InputFile.open(path, what: "an audio file") {
        case let .success(d): fd = d
        case let .failure(e): throw AudioFileError(path: path, problem: e.problem)
        }
        var info = SF_INFO()
        // libsndfile closes the descriptor with the file, or at once if it cannot open it.
        guard let f = sf_open_fd(fd, Int32(SFM_READ), &info, 1) else {
            let reason = String(cString: sf_strerror(nil))
            throw AudioFileError(path: path, problem: Self.explain(openError: reason))
        }
        // Checked before the reader is whole: a throw after that would run deinit, which
        // closes the file a second time.
        if let problem = Self.truncation(of: f) {
            sf_close(f)
            throw AudioFileError(path: path, problem: problem)
        }
        file = f
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(f)
            throw AudioFileError(path: path, problem: "no audio channels or sample rate in the header; the file is damaged")
        }
        guard info.frames > 0 else {
            sf_close(f)
            throw AudioFileError(path: path, problem: "contains no audio (0 frames); record or choose a file with sound in it")
        }
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        frames = info.frames
        var format = SF_FORMAT_INFO()
        format.format = info.format & Int32(SF_FORMAT_TYPEMASK)
        if sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &format, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
           let name = format.name {
            formatName = String(cString: name)
        } else {
            formatName = "audio"
        }
        interleaved = [Float](repeating: 0, count: blockFrames * channels)
    }

    deinit { sf_close(file) }

    public var durationSeconds: Double { Double(frames) / Double(sampleRate) }

    /// Reads up to `mono.count` frames, downmixed to mono, into `mono`. Returns the
    /// number of frames read: 0 at the end of the file. Throws if the file turns out
    /// to be damaged or shorter than its header says.
    public func read(into mono: UnsafeMutableBufferPointer<Float>) throws(AudioFileError) -> Int {
        let want = min(mono.count, blockFrames)
        let got = interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(want)) }
        let n = Int(got)
        if n < want {
            let err = sf_error(file)
            if err != 0 {
                throw AudioFileError(path: path, problem: "cannot decode audio after \(timeText(framesRead)): \(String(cString: sf_strerror(file))); the file is damaged")
            }
            if framesRead + Int64(n) < frames {
                throw AudioFileError(path: path, problem: "ends early: the header promises \(timeText(frames)) but audio stops at \(timeText(framesRead + Int64(n))); the file is truncated or damaged")
            }
        }
        if channels == 1 {
            for i in 0..<n { mono[i] = interleaved[i] }
        } else {
            let scale = 1 / Float(channels)
            for i in 0..<n {
                var s: Float = 0
                for c in 0..<channels { s += interleaved[i * channels + c] }
                mono[i] = s * scale
            }
        }
        framesRead += Int64(n)
        return n
    }

    private func timeText(_ f: Int64) -> String {
        String(format: "%.3f s", Double(f) / Double(sampleRate))
    }

    private static func explain(openError reason: String) -> String {
        let lower = reason.lowercased()
        if lower.contains("no such file") { return "no such file; check the path" }
        if lower.contains("permission") { return "permission denied; check the file's permissions" }
        if lower.contains("format") || lower.contains("unknown") || lower.contains("recognised") || lower.contains("recognized") {
            return "not an audio file libsndfile can read (\(reason)); use WAV, FLAC, OGG or another format libsndfile supports"
        }
        return "cannot open as audio: \(reason)"
    }

    /// libsndfile quietly shortens a file whose data chunk is larger than the file
    /// (its log says `data : 320000 (should be 159956)`). Such a file was cut off, and
    /// somniq says so instead of replaying part of a night as if it were whole. A size
    /// of 0 or 0xFFFFFFFF is a streamed WAV whose writer could not seek back: not cut.
    private static func truncation(of file: OpaquePointer) -> String? {
        var log = [CChar](repeating: 0, count: 4096)
        _ = sf_command(file, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("data") && line.contains("(should be ") {
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { UInt64($0) }
            guard numbers.count >= 2 else { continue }
            let declared = numbers[0], actual = numbers[numbers.count - 1]
            if declared > actual, declared != 0xFFFF_FFFF, declared != 0xFFFF_FFFF - 0x24 {
                return "the header promises more audio than the file holds (\(declared) bytes of data, \(actual) present); the file is truncated"
            }
        }
        return nil
    }
}
