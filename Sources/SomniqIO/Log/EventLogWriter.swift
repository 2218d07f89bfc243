import FoundationEssentials
import Glibc
import SomniqCore

/// Why a log line could not be written.
public struct LogWriteError: Error, CustomStringConvertible {
    public var path: String
    public var errno: Int32
    /// What is wrong with the path itself, when it is not a failed write.
    public var problem: String?
    /// What was being written: "the event log", "the output".
    public var what: String

    public init(path: String, errno: Int32, problem: String? = nil, what: String = "the event log") {
        self.path = path
        self.errno = errno
        self.problem = problem
        self.what = what
    }

    public var description: String {
        if let problem { return "\(LogText.escape(path)): \(problem)" }
        let reason = String(cString: strerror(errno))
        let hint = errno == ENOSPC || errno == EDQUOT ? "; free some space"
            : errno == EACCES || errno == EPERM ? "; check the permissions of \(what == "the event log" ? "the log's" : "its") directory" : ""
        return "\(LogText.escape(path)): cannot write \(what): \(reason)\(hint)"
    }
}

/// The append-only JSON Lines event log: one record per line, each line written whole
/// with `write(2)` on an `O_APPEND` descriptor and `fsync`'d before `append` returns,
/// so a record that was reported written survives a power cut.
public final class EventLogWriter {
    public let path: String
    /// What it writes, for errors: "the event log" (JSON Lines), "the output" (TSV, a table).
    public let what: String
    private var fd: Int32

    /// Opens (creating with mode 0640) the log at `path`, named `name` in errors. If the
    /// last line was torn by a power cut, a newline is added first so the next record
    /// starts on its own line.
    public init(path: String, name: String? = nil, what: String = "the event log") throws(LogWriteError) {
        self.path = name ?? path
        self.what = what
        fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw LogWriteError(path: name ?? path, errno: errno, what: what) }
        if Self.endsWithoutNewline(path) { try writeAll(Array("\n".utf8)) }
    }

    /// A writer on an already open descriptor (standard output); not closed on deinit.
    public init(descriptor: Int32, name: String, what: String = "the event log") {
        path = name
        self.what = what
        fd = descriptor
        ownsDescriptor = false
    }

    private var ownsDescriptor = true

    deinit { if ownsDescriptor && fd >= 0 { close(fd) } }

    /// Appends one record as a line and makes it durable.
    public func append(_ record: JSONValue) throws(LogWriteError) {
        try appendLine(record.compactText)
    }

    /// After a failed write, makes sure the next record starts on a line of its own
    /// (a write cut short by a full disk leaves a torn line, which readers skip).
    public func repairTornLine() throws(LogWriteError) {
        guard ownsDescriptor else { return }
        let end = lseek(fd, 0, SEEK_END)
        guard end > 0 else { return }
        var last: UInt8 = 0
        guard pread(fd, &last, 1, end - 1) == 1 else { return }
        if last != 0x0A { try writeAll(Array("\n".utf8)) }
    }

    /// Appends a line of plain text (TSV and table output); durable like `append`.
    public func appendLine(_ text: String) throws(LogWriteError) {
        try writeAll(Array((text + "\n").utf8))
        if ownsDescriptor, fsync(fd) != 0 { throw LogWriteError(path: path, errno: errno, what: what) }
    }

    private func writeAll(_ bytes: [UInt8]) throws(LogWriteError) {
        let failure = SomniqIO.writeAll(fd, bytes)
        if failure != 0 { throw LogWriteError(path: path, errno: failure, what: what) }
    }

    private static func endsWithoutNewline(_ path: String) -> Bool {
        guard let file = ReadingFile(path: path), let end = file.size(), end > 0 else { return false }
        return file.byte(at: end - 1) != 0x0A
    }
}
