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

    /// The lines from the last `session_start` to the end of the file, read backwards in
    /// blocks; nil if there is none.
    static func lastSession(_ path: String) -> [String]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        var end = Int(st.st_size)
        var tail: [UInt8] = []
        let marker = Array(#""kind":"session_start""#.utf8)
        let block = 1 << 16
        while end > 0 {
            let start = max(0, end - block)
            var chunk = [UInt8](repeating: 0, count: end - start)
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(start)) }
            guard n == end - start else { return nil }
            tail = chunk + tail
            end = start
            // The last line holding the marker that is a whole line (its start is in `tail`).
            if let found = lastLine(containing: marker, in: tail, whole: start == 0) {
                return String(decoding: tail[found...], as: UTF8.self).split(separator: "\n").map(String.init)
            }
        }
        return nil
    }

    /// The start of the last line in `bytes` that contains `marker`, when that line's
    /// start is known (a newline before it, or the start of the file).
    private static func lastLine(containing marker: [UInt8], in bytes: [UInt8], whole: Bool) -> Int? {
        var i = bytes.count - marker.count
        while i >= 0 {
            if bytes[i] == marker[0], Array(bytes[i..<i + marker.count]) == marker {
                var lineStart = i
                while lineStart > 0, bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
                if lineStart > 0 || whole { return lineStart }
                return nil  // the line starts before this block: read more
            }
            i -= 1
        }
        return nil
    }
}
