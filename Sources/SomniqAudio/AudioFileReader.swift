import CSndFile
import FoundationEssentials
import Glibc
import SomniqCore
import SomniqSupport

/// Why an audio file could not be read. Exit code 65 (bad input data).
public struct AudioFileError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var problem: String
    public var description: String { "\(LogText.escape(path)): \(problem)" }
}

/// Reads any file libsndfile understands (WAV, FLAC, OGG/Vorbis, Opus, MP3, AIFF, …) in
/// blocks, downmixed to mono Float32. The file is never held whole in memory.
public final class AudioFileReader {
    public let path: String
    public let sampleRate: Int
    public let channels: Int
    /// Frames libsndfile expects the file to have (a WAV's cut-off data chunk already
    /// taken off; an estimate for MPEG).
    public let frames: Int64
    /// A WAV or similar whose data chunk claims more bytes than the file holds: the bytes
    /// claimed and those present.
    private let declaredDataBytes: (declared: UInt64, present: UInt64)?
    /// MPEG (MP3) gives no exact length: libsndfile estimates it from the stream.
    private let lengthIsEstimate: Bool
    /// A FLAC file whose writer stopped before writing its length into its header (a crash,
    /// or a night audio part still being written): libsndfile says SF_COUNT_MAX frames.
    public let lengthUnknown: Bool
    public let formatName: String
    public private(set) var framesRead: Int64 = 0

    private let file: OpaquePointer
    /// The handle read from: `file`, then the audio past a WAV's declared end, if any.
    private var current: OpaquePointer
    /// Audio past a WAV's declared data size (`WAVTail`): where, a descriptor of the file
    /// to read it by, and its sample format; read as raw samples once `file` ends.
    private var tail: (place: WAVTail, descriptor: Int32, subtype: Int32)?
    private var tailFile: OpaquePointer?
    private var tailWindow: FileWindow?
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
        // Read before libsndfile takes the descriptor (by offset: its position is not moved).
        let tail = WAVTail.find(fd)
        var info = SF_INFO()
        // libsndfile closes the descriptor with the file, or at once if it cannot open it.
        guard let f = sf_open_fd(fd, Int32(SFM_READ), &info, 1) else {
            let reason = String(cString: sf_strerror(nil))
            throw AudioFileError(path: path, problem: Self.explain(openError: reason))
        }
        declaredDataBytes = Self.declaredDataBytes(of: f)
        file = f
        current = f
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(f)
            throw AudioFileError(path: path, problem: "no audio channels or sample rate in the header; the file is damaged")
        }
        guard info.frames > 0 else {
            sf_close(f)
            throw AudioFileError(path: path, problem: "contains no audio (0 frames); record or choose a file with sound in it")
        }
        // A descriptor of its own for the audio past the declared end, which libsndfile's
        // stays open beside (both read by offset).
        if let tail {
            let descriptor = dup(fd)
            if descriptor >= 0 { self.tail = (tail, descriptor, Int32(info.format & Int32(SF_FORMAT_SUBMASK))) }
        }
        lengthIsEstimate = info.format & Int32(SF_FORMAT_TYPEMASK) == Int32(SF_FORMAT_MPEG)
        lengthUnknown = info.frames == sf_count_t.max
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

    deinit {
        sf_close(file)
        if let tailFile { sf_close(tailFile) }
        if let tail { close(tail.descriptor) }
    }

    public var durationSeconds: Double { Double(frames) / Double(sampleRate) }

    /// Reads up to `mono.count` frames, downmixed to mono, into `mono`. Returns the
    /// number of frames read: 0 at the end of the file, however long the header said it
    /// was (see `lengthProblem`). Throws if the audio cannot be decoded.
    public func read(into mono: UnsafeMutableBufferPointer<Float>) throws(AudioFileError) -> Int {
        let want = min(mono.count, blockFrames)
        var n = Int(interleaved.withUnsafeMutableBufferPointer { sf_readf_float(current, $0.baseAddress, sf_count_t(want)) })
        if n < want, sf_error(current) != 0 {
            throw AudioFileError(path: path, problem: "cannot decode audio after \(timeText(framesRead)): \(String(cString: sf_strerror(current))); the file is damaged")
        }
        if n == 0, tailFile == nil, let tail, let raw = openTail(tail) {
            tailFile = raw
            current = raw
            n = Int(interleaved.withUnsafeMutableBufferPointer { sf_readf_float(current, $0.baseAddress, sf_count_t(want)) })
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

    /// The audio past the declared end, as raw samples of the WAV's own format, read
    /// through libsndfile's virtual I/O as a file of its own (raw files cannot be opened
    /// at an offset of a descriptor).
    private func openTail(_ tail: (place: WAVTail, descriptor: Int32, subtype: Int32)) -> OpaquePointer? {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = Int32(SF_FORMAT_RAW) | tail.subtype | Int32(SF_ENDIAN_LITTLE)
        guard sf_format_check(&info) != 0 else { return nil }
        let window = FileWindow(descriptor: tail.descriptor, base: tail.place.offset, length: tail.place.bytes)
        tailWindow = window
        var io = FileWindow.io                       // libsndfile keeps a copy
        return sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(window).toOpaque())
    }

    /// The length the header gave, in seconds: for a cut-off WAV, what its data chunk claimed.
    public var headerSeconds: Double {
        guard let d = declaredDataBytes, d.present > 0 else { return durationSeconds }
        return durationSeconds * Double(d.declared) / Double(d.present)
    }

    /// Once the file has been read to its end: how its length differed from its header's,
    /// in words, or nil. Differences under 0.1 s (a fifth of an analysis frame) are not
    /// reported, nor under 1 s for MP3, whose length libsndfile estimates from the stream:
    /// the estimate misses the encoder's delay and padding (0.4 s too long was seen for a
    /// LAME file at 44.1 kHz, whose MPEG frames are 26 ms each).
    public var lengthProblem: String? {
        let read = timeText(framesRead)
        if lengthUnknown {
            return "the header gives no length (its writer stopped before finishing it: a crash, or a part still being written); analysed the \(read) there are"
        }
        if let d = declaredDataBytes {
            return "the header promises \(d.declared) bytes of audio data but the file holds \(d.present); analysed the \(read) there are (the file was cut off)"
        }
        let tolerance = lengthIsEstimate ? 1.0 : 0.1
        guard abs(Double(framesRead - frames)) > tolerance * Double(sampleRate) else { return nil }
        if framesRead < frames {
            return "the header promises \(timeText(frames)) but the audio stops at \(read); analysed the \(read) there are (the file may have been cut off)"
        }
        return "the header says \(timeText(frames)) but the file holds \(read); analysed all of it"
    }

    private func timeText(_ f: Int64) -> String {
        String(cFormat: "%.3f s", Double(f) / Double(sampleRate))
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

    /// libsndfile quietly shortens a file whose data chunk is larger than the file (its
    /// log says `data : 320000 (should be 159956)`): such a file was cut off. A size of 0
    /// or 0xFFFFFFFF is a streamed WAV whose writer could not seek back: not cut.
    private static func declaredDataBytes(of file: OpaquePointer) -> (declared: UInt64, present: UInt64)? {
        var log = [CChar](repeating: 0, count: 4096)
        _ = sf_command(file, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("data") && line.contains("(should be ") {
            let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { UInt64($0) }
            guard numbers.count >= 2 else { continue }
            let declared = numbers[0], present = numbers[numbers.count - 1]
            if declared > present, declared != 0xFFFF_FFFF, declared != 0xFFFF_FFFF - 0x24 {
                return (declared, present)
            }
        }
        return nil
    }
}

/// A stretch of an open file, seen by libsndfile as a whole file (`sf_open_virtual`).
private final class FileWindow {
    let descriptor: Int32
    let base: Int64
    let length: Int64
    var position: Int64 = 0

    init(descriptor: Int32, base: Int64, length: Int64) {
        self.descriptor = descriptor
        self.base = base
        self.length = length
    }

    private static func of(_ p: UnsafeMutableRawPointer?) -> FileWindow { Unmanaged<FileWindow>.fromOpaque(p!).takeUnretainedValue() }

    static let io = SF_VIRTUAL_IO(
        get_filelen: { FileWindow.of($0).length },
        seek: { offset, whence, p in
            let w = FileWindow.of(p)
            let from: Int64 = switch whence {
            case SEEK_CUR: w.position
            case SEEK_END: w.length
            default: 0
            }
            w.position = max(0, min(w.length, from + offset))
            return w.position
        },
        read: { buffer, count, p in
            let w = FileWindow.of(p)
            let n = pread(w.descriptor, buffer, Int(min(count, w.length - w.position)), off_t(w.base + w.position))
            guard n > 0 else { return 0 }
            w.position += Int64(n)
            return sf_count_t(n)
        },
        write: { _, _, _ in 0 },
        tell: { FileWindow.of($0).position })
}
