import FoundationEssentials
import Glibc

/// Audio a RIFF WAVE file holds past the end its data chunk declares. A recorder that
/// stops without finishing its file (a crash, a pulled plug, a full card) leaves the
/// data size it last wrote, often long before the end: libsndfile reads that much and
/// stops. When the data chunk is the last chunk and the bytes after its declared end are
/// not another chunk, they are the rest of the recording.
struct WAVTail {
    /// Where the undeclared audio starts, and how many bytes of it there are.
    let offset: Int64
    let bytes: Int64

    /// Chunks looked at before giving up: a WAV has a handful (fmt, fact, LIST, data).
    private static let maxChunks = 64

    /// Reads the chunk headers of `fd` (by offset; its position is not moved).
    static func find(_ fd: Int32) -> WAVTail? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return nil }
        let size = Int64(st.st_size)
        func read(_ offset: Int64, _ count: Int) -> [UInt8]? {
            var b = [UInt8](repeating: 0, count: count)
            let n = b.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return n == count ? b : nil
        }
        func u32(_ b: [UInt8], _ i: Int) -> Int64 {
            Int64(b[i]) | Int64(b[i + 1]) << 8 | Int64(b[i + 2]) << 16 | Int64(b[i + 3]) << 24
        }
        guard let riff = read(0, 12), riff[0..<4].elementsEqual("RIFF".utf8), riff[8..<12].elementsEqual("WAVE".utf8) else { return nil }
        var position: Int64 = 12
        for _ in 0..<maxChunks {
            guard let header = read(position, 8) else { return nil }
            let length = u32(header, 4)
            guard header[0..<4].elementsEqual("data".utf8) else {
                position += 8 + length + (length & 1)
                continue
            }
            // 0 and 0xFFFFFFFF mark a stream whose length was never known: libsndfile
            // already reads those to the end of the file.
            guard length > 0, length < 0xFFFF_FFFF - 0x24 else { return nil }
            let end = position + 8 + length
            guard end < size else { return nil }
            if let next = read(end + (length & 1), 8), next[0..<4].allSatisfy({ (0x20...0x7E).contains($0) }),
               u32(next, 4) + 8 <= size - end - (length & 1) {
                return nil                                   // another chunk follows: the data chunk is whole
            }
            return WAVTail(offset: end, bytes: size - end)
        }
        return nil
    }
}
