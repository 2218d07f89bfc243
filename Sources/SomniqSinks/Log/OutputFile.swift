import FoundationEssentials
import Glibc

/// An output file that replaces an earlier one only when it is complete: it is written
/// to a new temporary file beside the target and renamed over it by `commit()`. Until
/// then, and if the work fails, the earlier file is untouched; a temporary file that was
/// not committed is removed. A symbolic link is followed (the link stays). A directory
/// or anything but a regular file is refused before any input is read.
public final class ReplacedFile {
    /// The path as the user gave it.
    public let path: String
    public let writer: EventLogWriter
    private let target: String
    private let temporary: String
    private var committed = false

    public init(path: String) throws(LogWriteError) {
        self.path = path
        var target = path
        try OutputPath.check(path)
        if let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        self.target = target
        var template = Array((target + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw LogWriteError(path: path, errno: errno, what: "the output") }
        temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fchmod(fd, 0o644)  // mkstemp makes it 0600; an output file is for reading
        close(fd)
        do { writer = try EventLogWriter(path: temporary, name: path, what: "the output") } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Puts the finished file in place of the earlier one.
    public func commit() throws(LogWriteError) {
        guard !committed else { return }
        guard rename(temporary, target) == 0 else { throw LogWriteError(path: path, errno: errno, what: "the output") }
        committed = true
    }

    deinit { if !committed { unlink(temporary) } }
}

/// Checks on a path somniq is told to write to.
public enum OutputPath {
    /// Refuses a directory and anything that is not a regular file (a device, a FIFO, a
    /// socket), which an output must not replace or block on; a path that does not exist
    /// yet is fine.
    public static func check(_ path: String) throws(LogWriteError) {
        var st = stat()
        guard stat(path, &st) == 0 else { return }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw LogWriteError(path: path, errno: EISDIR, problem: "is a directory; give a file name")
        default: throw LogWriteError(path: path, errno: EINVAL,
                                     problem: "is not a regular file (a device, a FIFO or a socket); give a file name, or leave out --output for standard output")
        }
    }
}
