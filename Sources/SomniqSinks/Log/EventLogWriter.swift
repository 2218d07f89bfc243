import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog
import SomniqSupport

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
///
/// Several processes append to one log: the daemon, `somniq episode add`, the web page's
/// form. Each line is written under an exclusive advisory lock (`flock`) on the file, and
/// under it the writer makes sure its record starts on a line of its own — whoever tore
/// the line before it (a writer killed mid-line, a disk that filled) — and takes back its
/// own bytes when its write fails part-way. So one writer's failure never costs another's
/// record: a torn line is skipped by every reader, the records around it are whole.
public final class EventLogWriter {
    public let path: String
    /// What it writes, for errors: "the event log" (JSON Lines), "the output" (TSV, a table).
    public let what: String
    private var fd: Int32
    /// How long an append waits for another writer's lock before it fails (`EWOULDBLOCK`):
    /// another writer holds it for one line, a write and no more (a few milliseconds), so
    /// a lock held for longer is a writer stopped mid-line. The daemon holds its records
    /// in memory meanwhile (`DurableLog`); a command says so and exits.
    ///
    /// Measured on the machine's monotonic clock, whatever clock the caller's own deadlines
    /// are on: the lock is another process's, let go in real time, and a wait on a clock
    /// that stands still (a test's, which only its test moves) would never end.
    public var lockWait: Duration = .seconds(2)
    /// How often a held lock is tried again (`flock` has no timed wait).
    static let lockPoll: Duration = .milliseconds(2)
    /// What a wait for the lock waits on: nothing signals it, its deadline ends it.
    private let pause = PosixCondition()

    /// Opens (creating with mode 0640) the log at `path`, named `name` in errors.
    public init(path: String, name: String? = nil, what: String = "the event log") throws(LogWriteError) {
        self.path = name ?? path
        self.what = what
        fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw LogWriteError(path: name ?? path, errno: errno, what: what) }
    }

    /// A writer on an already open descriptor (standard output); not closed on deinit,
    /// neither locked nor read back (it may be a pipe).
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

    /// Appends one record of the event log; durable like `append`.
    public func append(_ record: LogRecord) throws(LogWriteError) {
        try appendLine(record.line)
    }

    /// Appends a line of plain text (TSV and table output); durable like `append`.
    public func appendLine(_ text: String) throws(LogWriteError) {
        guard ownsDescriptor else {
            let failure = SomniqSupport.writeAll(fd, Array((text + "\n").utf8))
            if failure != 0 { throw LogWriteError(path: path, errno: failure, what: what) }
            return
        }
        try locked { () throws(LogWriteError) in
            // The file's end, as every writer holding the lock sees it.
            let end = lseek(fd, 0, SEEK_END)
            guard end >= 0 else { throw LogWriteError(path: path, errno: errno, what: what) }
            var bytes = Array((text + "\n").utf8)
            var last: UInt8 = 0x0A
            if end > 0, pread(fd, &last, 1, end - 1) == 1, last != 0x0A { bytes.insert(0x0A, at: 0) }
            let failure = SomniqSupport.writeAll(fd, bytes)
            guard failure == 0 else {
                // What this write put down before it failed is taken back; should that
                // fail too, the next writer's newline still puts its record on a line
                // of its own.
                _ = ftruncate(fd, end)
                throw LogWriteError(path: path, errno: failure, what: what)
            }
        }
        if fsync(fd) != 0 { throw LogWriteError(path: path, errno: errno, what: what) }
    }

    /// Runs `body` holding the file's exclusive lock, waiting up to `lockWait` of real time
    /// for it.
    private func locked(_ body: () throws(LogWriteError) -> Void) throws(LogWriteError) {
        let deadline = ContinuousClock.now + lockWait
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            guard e == EWOULDBLOCK || e == EINTR else {
                // A file system without locks (some network mounts): the line is still
                // written with its newline check, as a single writer would.
                if e == ENOLCK || e == EOPNOTSUPP || e == EINVAL { return try body() }
                throw LogWriteError(path: path, errno: e, what: what)
            }
            guard ContinuousClock.now < deadline else {
                throw LogWriteError(path: path, errno: EWOULDBLOCK, problem: "cannot write \(what): another writer has held its lock for over \(String(cFormat: "%g", Double(lockWait.components.seconds) + Double(lockWait.components.attoseconds) * 1e-18)) s (a `somniq episode` command stopped mid-write?)", what: what)
            }
            pause.lock()
            pause.wait(until: min(deadline, ContinuousClock.now + Self.lockPoll))
            pause.unlock()
        }
        defer { flock(fd, LOCK_UN) }
        try body()
    }
}
