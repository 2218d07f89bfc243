import FoundationEssentials
import Glibc
import SomniqCore
import SomniqLog
import SomniqSupport

/// Reads an event log (JSON Lines) line by line, in bounded memory and in time linear in
/// its size. A line that does not parse is counted and skipped: a torn last line after a
/// power loss is expected, and loses nothing before it. A line longer than `maxLine`
/// (no record comes near it) is counted and skipped without being held: the reader keeps
/// at most `maxLine` bytes of it plus one chunk.
public final class LogReader {
    /// The longest line read, 1 MiB: a record with its decision trace is a few kilobytes.
    public static let maxLine = 1 << 20
    static let chunk = 1 << 16

    public let path: String
    private let file: ReadingFile
    private var buffer: [UInt8] = []
    /// Where the line under way starts in `buffer`, and how far it has been scanned for a newline.
    private var lineStart = 0, scanned = 0
    /// Dropping the rest of a line that grew past `maxLine`.
    private var discarding = false
    private var atEnd = false
    /// Lines that are not a record (not JSON, or no `kind`), blank lines aside. A record
    /// this version does not read (`LogRecord.Unread`) is returned, not counted here.
    public private(set) var unreadable = 0
    /// Lines longer than `maxLine`.
    public private(set) var overlong = 0
    public private(set) var lineNumber = 0
    /// The most bytes the reader held at once.
    public private(set) var peakBuffer = 0
    /// Why reading stopped before the end (a failing disk), if it did: `next` then
    /// returns nil as at the end, and `finish` throws this.
    public private(set) var readError: String?

    /// Byte offset in the file of `buffer[0]`, and where reading stops (nil: the end).
    private var bufferStart: Int
    private let end: Int?
    /// Byte offset of the line `next` returned last, and of the byte after it (its newline's).
    public private(set) var recordOffset = 0
    public private(set) var position: Int

    /// Reads the log at `path` from byte `from` (a line's start) to byte `to` (a line's
    /// end, past its newline), or to the end of the file.
    public init(path: String, from: Int = 0, to: Int? = nil) throws(ReportError) {
        self.path = path
        let f = try Self.open(path)
        file = f
        if from > 0, lseek(f.fileDescriptor, off_t(from), SEEK_SET) < 0 {
            throw ReportError(description: "\(LogText.escape(path)): cannot read the log: \(String(cString: strerror(errno)))")
        }
        bufferStart = from
        position = from
        end = to
    }

    /// After `next` returned nil: throws if reading failed rather than ended, so that a
    /// report is never silently a part of its log.
    public func finish() throws(ReportError) {
        if let readError { throw ReportError(description: "\(LogText.escape(path)): cannot read the log: \(readError)") }
    }

    /// Lines skipped: unreadable or overlong.
    public var skippedLines: Int { unreadable + overlong }

    /// The next record, or nil at the end of the file.
    public func next() -> LogLine? {
        while true {
            if let newline = nextNewline() {
                let start = lineStart
                lineStart = newline + 1
                scanned = lineStart
                lineNumber += 1
                recordOffset = bufferStart + start
                position = bufferStart + lineStart
                if discarding {
                    discarding = false
                    continue
                }
                if newline - start > Self.maxLine {
                    overlong += 1
                    continue
                }
                if let record = parse(buffer[start..<newline]) { return record }
                continue
            }
            scanned = buffer.count
            if !discarding, buffer.count - lineStart > Self.maxLine {
                discarding = true
                overlong += 1
            }
            if discarding {
                bufferStart += buffer.count
                buffer.removeAll(keepingCapacity: true)
                lineStart = 0
                scanned = 0
            }
            if atEnd {
                defer { buffer.removeAll(); lineStart = 0; scanned = 0 }
                guard lineStart < buffer.count || discarding else { return nil }
                lineNumber += 1
                recordOffset = bufferStart + lineStart
                position = bufferStart + buffer.count
                if discarding { discarding = false; return nil }
                return parse(buffer[lineStart...])
            }
            // Drop the lines already returned before reading on, so the buffer holds one line.
            if lineStart > 0 {
                buffer.removeSubrange(0..<lineStart)
                bufferStart += lineStart
                scanned -= lineStart
                lineStart = 0
            }
            let chunk: [UInt8]?
            let left = end.map { $0 - bufferStart - buffer.count } ?? Self.chunk
            do { chunk = left > 0 ? try file.read(upToCount: min(left, Self.chunk)) : nil } catch {
                readError = errnoText(error)
                chunk = nil
            }
            if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
            peakBuffer = max(peakBuffer, buffer.count)
        }
    }

    /// The index of the first newline in `buffer` from `scanned` on (memchr: a byte scan).
    private func nextNewline() -> Int? {
        buffer.withUnsafeBufferPointer { p in
            guard scanned < p.count, let base = p.baseAddress,
                  let hit = memchr(base + scanned, 0x0A, p.count - scanned) else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }
    }

    private func parse(_ line: ArraySlice<UInt8>) -> LogLine? {
        guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) else { return nil }
        guard let record = LogRecord.parse(String(decoding: line, as: UTF8.self)) else {
            unreadable += 1
            return nil
        }
        return record
    }
}

extension LogReader {
    /// The log at `path`, open for reading; a FIFO, a device or a directory in its place is
    /// refused at once, never waited on (README: inputs that are not regular files are refused).
    static func open(_ path: String) throws(ReportError) -> ReadingFile {
        switch ReadingFile.open(path) {
        case let .success(file): return file
        case let .failure(refusal):
            throw ReportError(description: "\(LogText.escape(path)): \(refusal.problem("the event log (a .jsonl file)", failing: "cannot open the log"))")
        }
    }
}

/// Why a report could not be made.
public struct ReportError: Error, CustomStringConvertible {
    public var description: String
}
