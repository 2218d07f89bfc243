import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog

/// What the last session of an event log left behind. A session that ends cleanly
/// writes `session_end`; one that was killed (SIGKILL, a power cut) leaves its open
/// events without an `event_end`. The next session reads the log's last session (from
/// the end of the file backwards, so a log of months costs what its last night does)
/// and closes them.
public enum UncleanEnd {
    public struct OpenEvent: Equatable, Sendable {
        public var id: String
        public var soundClass: SoundClass
    }

    /// The result for the log at `path`: nil when its last session ended cleanly, or
    /// there is no log yet; else the events it left open (possibly none).
    public static func scan(_ path: String) -> [OpenEvent]? {
        guard let lines = lastSession(path) else { return nil }
        var open: [OpenEvent] = []
        for line in lines {
            guard case let .success(r)? = LogRecord.parse(line) else { continue }
            switch r {
            case .sessionEnd: return nil
            case let .eventStart(e): open.append(OpenEvent(id: e.id, soundClass: e.soundClass))
            case let .eventEnd(e): open.removeAll { $0.id == e.id }
            default: break
            }
        }
        return open
    }

    /// The lines from the last `session_start` to the end of the file, found reading
    /// backwards in blocks; nil if there is none. Each byte is read and searched once, so a
    /// log with no `session_start` for many megabytes (copied and truncated by a rotation,
    /// damaged, crafted) costs its size, not its size squared, before the daemon listens.
    static func lastSession(_ path: String) -> [String]? {
        var work = Work()
        return lastSession(path, work: &work)
    }

    /// The bytes `lastSession` read from the file and searched for the marker: the tests
    /// hold them to the file's size, so a loaded machine cannot fail them as it could a time.
    struct Work {
        var read = 0, searched = 0
    }

    static func lastSession(_ path: String, work: inout Work) -> [String]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(st.st_size)
        var end = size
        // The bytes just after the block being searched, so a marker across two blocks is found.
        var after: [UInt8] = []
        while end > 0 {
            let start = max(0, end - block)
            guard let chunk = read(fd, from: start, count: end - start, counting: &work.read) else { return nil }
            let searched = chunk + after
            work.searched += searched.count
            if let at = lastIndex(of: marker, in: searched) {
                guard let from = lineStart(fd, before: start + at, counting: &work.read),
                      let rest = read(fd, from: from, count: size - from, counting: &work.read) else { return nil }
                return String(decoding: rest, as: UTF8.self).split(separator: "\n").map(String.init)
            }
            after = Array(chunk.prefix(marker.count - 1))
            end = start
        }
        return nil
    }

    static let block = 1 << 16, marker = Array(#""kind":"session_start""#.utf8)

    private static func read(_ fd: Int32, from offset: Int, count: Int, counting bytesRead: inout Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { count == 0 ? 0 : pread(fd, $0.baseAddress!, count, off_t(offset)) }
        bytesRead += max(n, 0)
        return n == count ? bytes : nil
    }

    /// Where the last `marker` in `bytes` begins.
    private static func lastIndex(of marker: [UInt8], in bytes: [UInt8]) -> Int? {
        var i = bytes.count - marker.count
        while i >= 0 {
            if bytes[i] == marker[0], bytes[i..<i + marker.count].elementsEqual(marker) { return i }
            i -= 1
        }
        return nil
    }

    /// The start of the line holding byte `offset`: after the newline before it, or 0.
    private static func lineStart(_ fd: Int32, before offset: Int, counting bytesRead: inout Int) -> Int? {
        var end = offset
        while end > 0 {
            let start = max(0, end - block)
            guard let chunk = read(fd, from: start, count: end - start, counting: &bytesRead) else { return nil }
            if let newline = chunk.lastIndex(of: 0x0A) { return start + newline + 1 }
            end = start
        }
        return 0
    }
}
