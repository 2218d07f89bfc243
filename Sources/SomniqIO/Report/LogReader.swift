import Foundation
import SomniqCore

/// Reads an event log (JSON Lines) line by line, in bounded memory. A line that does not
/// parse is counted and skipped: a torn last line after a power loss is expected, and
/// loses nothing before it.
public final class LogReader {
    public let path: String
    private let handle: FileHandle
    private var buffer = Data()
    private var atEnd = false
    public private(set) var unreadable = 0
    public private(set) var lineNumber = 0

    public init(path: String) throws(ReportError) {
        self.path = path
        guard let h = FileHandle(forReadingAtPath: path) else {
            throw ReportError(description: "\(LogText.escape(path)): cannot open the log: \(String(cString: strerror(errno)))")
        }
        handle = h
    }

    deinit { try? handle.close() }

    /// The next record, or nil at the end of the file.
    public func next() -> JSONValue? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                lineNumber += 1
                if let record = parse(line) { return record }
                continue
            }
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                let line = buffer
                buffer.removeAll()
                lineNumber += 1
                return parse(line)
            }
            let chunk = (try? handle.read(upToCount: 1 << 16)) ?? nil
            if let chunk, !chunk.isEmpty { buffer.append(chunk) } else { atEnd = true }
        }
    }

    private func parse(_ line: Data) -> JSONValue? {
        guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) else { return nil }
        guard let record = try? JSONValue(parsing: String(decoding: line, as: UTF8.self)), record["kind"]?.stringValue != nil else {
            unreadable += 1
            return nil
        }
        return record
    }
}

/// Why a report could not be made.
public struct ReportError: Error, CustomStringConvertible {
    public var description: String
}
