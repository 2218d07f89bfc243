import FoundationEssentials
import Glibc
import SomniqSupport

/// A clip's bytes over HTTP, whole or one range of them (RFC 9110 §14): what lets a
/// browser's audio element seek. One range is served; a request for several gets the
/// whole file, as the RFC allows.
enum ClipFile {
    static func reply(_ path: String, range: String?) -> WebSite.Reply {
        guard let file = ReadingFile(path: path), let size = file.size() else {
            return .text(404, "the clip is gone: \(String(cString: strerror(errno)))")
        }
        var headers = [("Accept-Ranges", "bytes")]
        var status = 200
        var first = 0, last = size - 1
        if let range, let wanted = parse(range, size: size) {
            guard let wanted = wanted else {
                var refused = WebSite.Reply.text(416, "the clip has \(size) bytes")
                refused.headers = headers + [("Content-Range", "bytes */\(size)")]
                return refused
            }
            (first, last) = wanted
            status = 206
            headers.append(("Content-Range", "bytes \(first)-\(last)/\(size)"))
        }
        guard let bytes = file.bytes(at: first, count: last - first + 1) else {
            return .text(500, "cannot read the clip: \(String(cString: strerror(errno)))")
        }
        return WebSite.Reply(status: status, contentType: "audio/flac", body: bytes, headers: headers)
    }

    /// `bytes=A-B`, `bytes=A-` or `bytes=-N`: nil for a header to ignore (another unit,
    /// several ranges, not a range), `.some(nil)` for a range outside the file (416), else
    /// the first and last byte.
    static func parse(_ header: String, size: Int) -> (Int, Int)?? {
        // The unit is case-insensitive (RFC 9110 §14.1).
        guard header.lowercased().hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).trimmingPrefix(while: { $0 == " " })
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }) else { return nil }
        if parts[0].isEmpty {
            // The last N bytes; the last 0 bytes (or any of an empty file) cannot be served.
            guard let n = Int(parts[1]), n >= 0 else { return nil }
            return n == 0 || size == 0 ? .some(nil) : (max(0, size - n), size - 1)
        }
        guard let a = Int(parts[0]), a >= 0 else { return nil }
        let b = parts[1].isEmpty ? Int.max : Int(parts[1])
        guard let b, b >= a else { return nil }
        guard a < size else { return .some(nil) }
        return (a, min(b, size - 1))
    }
}
