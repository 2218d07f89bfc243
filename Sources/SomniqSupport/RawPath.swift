import FoundationEssentials
import Glibc

/// File names as the kernel has them. Swift decodes the command line as UTF-8 and
/// replaces bytes that are not (with U+FFFD), so a file whose name is in another
/// encoding would be named by a path that finds nothing. For a path that came from the
/// command line that way, `bytes(of:)` gives the bytes that were typed.
public enum RawPath {
    public static func bytes(of path: String) -> [CChar] {
        guard path.unicodeScalars.contains("\u{FFFD}") else { return Array(path.utf8CString) }
        for i in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[i] else { continue }
            let raw = Array(UnsafeBufferPointer(start: argument, count: strlen(argument)))
            let decoded = String(decoding: raw.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if decoded == path { return raw + [0] }
            // --option=PATH
            if decoded.hasSuffix("=" + path), let equals = raw.firstIndex(of: CChar(UInt8(ascii: "="))) {
                return Array(raw[(equals + 1)...]) + [0]
            }
        }
        return Array(path.utf8CString)
    }
}

/// Opening a file that somniq reads: by its bytes, without blocking (a FIFO with no
/// writer would hang open(2) forever), and only if it is a regular file.
package enum InputFile {
    /// A descriptor of `path`, or what is wrong with it, worded for the user.
    /// `followingLinks: false` refuses a symbolic link at `path` itself (`O_NOFOLLOW`): for a
    /// file served to others, whose name someone else may have made a link to any file.
    package static func open(_ path: String, what: String, followingLinks: Bool = true) -> Result<Int32, InputFileError> {
        ReadingFile.descriptor(of: path, followingLinks: followingLinks).mapError { refusal in
            let problem = switch refusal {
            case .failed(ENOENT): "no such file; check the path"
            case .failed(EACCES): "permission denied; check the file's permissions"
            case .failed(ELOOP) where !followingLinks: "is a symbolic link, which is not followed; give \(what) itself"
            case let .failed(e): "cannot open: \(String(cString: strerror(e)))"
            case .directory, .notRegular: refusal.problem(what, failing: "")
            }
            return InputFileError(problem: problem, missing: refusal == .failed(ENOENT))
        }
    }
}

public struct InputFileError: Error {
    public var problem: String
    /// There is no file at the path (as against one that cannot be read or is refused).
    public var missing = false
}

/// A small text file somniq is given (a profile, a configuration, a label file): read
/// whole, up to a size cap, refusing what is not a regular file.
public enum TextFile {
    /// 1 MiB: a profile or a configuration is a few KB; a night's labels a few hundred lines.
    public static let limit = 1 << 20

    /// The bytes of `path`, with a leading UTF-8 byte order mark removed, or what is wrong;
    /// with `followingLinks: false`, a symbolic link at `path` is refused.
    public static func read(_ path: String, what: String, limit: Int = limit, followingLinks: Bool = true) -> Result<[UInt8], InputFileError> {
        let fd: Int32
        switch InputFile.open(path, what: what, followingLinks: followingLinks) {
        case let .success(d): fd = d
        case let .failure(e): return .failure(e)
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return .failure(InputFileError(problem: "cannot read: \(String(cString: strerror(errno)))")) }
            if n == 0 { break }
            bytes += chunk[0..<n]
            guard bytes.count <= limit else {
                return .failure(InputFileError(problem: "is larger than \(limit >> 20) MiB; \(what) is a few KB"))
            }
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return .success(bytes)
    }
}
