import FoundationEssentials
import Glibc

// What the binary took from full Foundation, done without it: somniq imports
// FoundationEssentials only, so that neither Foundation, FoundationInternationalization
// nor ICU's 34 MB of data is linked into it (docs/ARCHITECTURE.md, "Lean").

/// A value `String(cFormat:)` formats: a number (formatted by the C library, as
/// Foundation's `String(format:)` formats numbers), or text for `%@`.
public protocol CFormatArgument {}
extension Int: CFormatArgument {}
extension Int32: CFormatArgument {}
extension Int64: CFormatArgument {}
extension UInt: CFormatArgument {}
extension UInt32: CFormatArgument {}
extension UInt64: CFormatArgument {}
extension Double: CFormatArgument {}
extension Float: CFormatArgument {}
extension String: CFormatArgument {}
extension Substring: CFormatArgument {}

extension String {
    /// Foundation's `String(format:)` for what somniq formats: `%%`, `%@` (text), and the C
    /// conversions of one number each (`%d`, `%lld`, `%.1f`, `%+.2f`, `%08.1f`, `%.9g`…),
    /// which `vsnprintf` formats in the C locale, as Foundation's did.
    public init(cFormat format: String, _ arguments: any CFormatArgument...) {
        self.init(cFormat: format, arguments: arguments)
    }

    /// `String(cFormat:_:)` with its arguments in an array.
    public init(cFormat format: String, arguments: [any CFormatArgument]) {
        var out = ""
        var next = 0
        let scalars = Array(format.unicodeScalars)
        var i = 0, literalStart = 0
        func flushLiteral(_ end: Int) {
            if end > literalStart { out.unicodeScalars.append(contentsOf: scalars[literalStart..<end]) }
        }
        while i < scalars.count {
            guard scalars[i] == "%" else { i += 1; continue }
            flushLiteral(i)
            var j = i + 1
            // flags, width, precision and length, then the conversion
            while j < scalars.count, "-+ #0123456789.hlqLjzt".unicodeScalars.contains(scalars[j]) { j += 1 }
            precondition(j < scalars.count, "String(cFormat:): a conversion is missing at the end of \(format)")
            let conversion = scalars[j]
            let spec = String(String.UnicodeScalarView(scalars[i...j]))
            if conversion == "%" {
                out += "%"
            } else {
                precondition(next < arguments.count, "String(cFormat:): too few arguments for \(format)")
                let argument = arguments[next]
                next += 1
                if conversion == "@" {
                    precondition(spec == "%@", "String(cFormat:): \(spec) is not supported")
                    out += String(describing: argument)
                } else {
                    out += Self.formatOne(spec, argument)
                }
            }
            i = j + 1
            literalStart = i
        }
        flushLiteral(scalars.count)
        self = out
    }

    private static func formatOne(_ spec: String, _ argument: any CFormatArgument) -> String {
        let value: any CVarArg
        switch argument {
        case let v as Int: value = v
        case let v as Int32: value = v
        case let v as Int64: value = v
        case let v as UInt: value = v
        case let v as UInt32: value = v
        case let v as UInt64: value = v
        case let v as Double: value = v
        case let v as Float: value = Double(v)
        default: preconditionFailure("String(cFormat:): \(spec) given text")
        }
        func text(_ buffer: [CChar], _ n: Int) -> String {
            String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return withVaList([value]) { list in
            var buffer = [CChar](repeating: 0, count: 64)
            let n = Int(vsnprintf(&buffer, buffer.count, spec, list))
            precondition(n >= 0, "String(cFormat:): \(spec) failed")
            if n < buffer.count { return text(buffer, n) }
            return withVaList([value]) { again in
                buffer = [CChar](repeating: 0, count: n + 1)
                _ = vsnprintf(&buffer, buffer.count, spec, again)
                return text(buffer, n)
            }
        }
    }

    /// NSString's `padding(toLength:withPad: " ", startingAt: 0)`: spaces up to `length`
    /// UTF-16 units, or the first `length` of them.
    public func padded(toLength length: Int) -> String {
        let units = utf16.count
        if units < length { return self + String(repeating: " ", count: length - units) }
        if units == length { return self }
        return String(decoding: Array(utf16.prefix(length)), as: UTF16.self)
    }

    /// `trimmingCharacters(in: .whitespaces)`: tabs and space separators (Zs) at either end.
    public func trimmingWhitespace() -> String {
        func white(_ s: Unicode.Scalar) -> Bool { s == "\t" || s.properties.generalCategory == .spaceSeparator }
        let v = unicodeScalars
        guard let first = v.firstIndex(where: { !white($0) }) else { return "" }
        let last = v.lastIndex(where: { !white($0) })!
        return String(v[first...last])
    }
}

/// NSString's path operations (`lastPathComponent`, `deletingLastPathComponent`,
/// `appendingPathComponent`, `pathExtension`, `deletingPathExtension`), with their rules:
/// runs of slashes count as one and a trailing slash is ignored, except in `/`.
public enum PathText {
    /// Runs of `/` made one, a trailing `/` dropped (but `/` stays `/`).
    static func tidy(_ path: String) -> String {
        if path == "/" { return path }
        var out = ""
        var lastWasSlash = false
        for c in path {
            if c == "/" {
                if lastWasSlash { continue }
                lastWasSlash = true
            } else {
                lastWasSlash = false
            }
            out.append(c)
        }
        if out.hasSuffix("/") { out.removeLast() }
        return out
    }

    /// Where the last component of a tidy path of two or more characters starts.
    private static func lastStart(_ path: String) -> String.Index {
        path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
    }

    public static func lastComponent(_ path: String) -> String {
        let p = tidy(path)
        if p.count <= 1 { return p }
        return String(p[lastStart(p)...])
    }

    public static func deletingLastComponent(_ path: String) -> String {
        let p = tidy(path)
        if p == "/" || p.isEmpty { return p }
        let start = lastStart(p)
        if start == p.startIndex { return "" }
        if start == p.index(after: p.startIndex) { return "/" }
        return String(p[..<p.index(before: start)])
    }

    public static func appending(_ path: String, _ component: String) -> String {
        if component.isEmpty { return path }
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// Where the extension (after its dot) starts in a tidy path, if it has one: not in a
    /// name that starts with its only dot (`.profile`), nor in `..`.
    private static func extensionStart(_ p: String) -> String.Index? {
        let start = lastStart(p)
        let name = p[start...]
        guard let dot = name.lastIndex(of: ".") else { return nil }
        if dot == start { return nil }
        if name == ".." { return nil }
        return p.index(after: dot)
    }

    public static func pathExtension(_ path: String) -> String {
        let p = tidy(path)
        if p.count <= 1 { return "" }
        return extensionStart(p).map { String(p[$0...]) } ?? ""
    }

    public static func deletingExtension(_ path: String) -> String {
        let p = tidy(path)
        if p.count <= 1 { return p }
        return extensionStart(p).map { String(p[..<p.index(before: $0)]) } ?? p
    }
}

/// The text of an error from FileManager or a file operation: the C library's words for
/// its errno (`No such file or directory`) where it carries one, else its description.
public func errorText(_ error: any Error) -> String {
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    if let cocoa = error as? CocoaError {
        if let underlying = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
            return String(cString: strerror(underlying.code.rawValue))
        }
        return "error \(cocoa.code.rawValue)"
    }
    return String(describing: error)
}

/// A regular file open for reading (FileHandle(forReadingAtPath:) and its reads), closed
/// on deinit. It is opened without blocking and refused unless it is a regular file: a
/// FIFO with no writer would hold open(2) forever (and with it the thread that reads,
/// whatever comes after), a device would never end.
public final class ReadingFile {
    public let fileDescriptor: Int32

    /// Why a file could not be opened for reading.
    public enum Refusal: Error, Equatable {
        /// open(2) or fstat(2) failed with this errno.
        case failed(Int32)
        case directory
        /// A FIFO, a device or a socket.
        case notRegular

        /// `is a directory; give the event log (a .jsonl file)`, with `what` saying what to give;
        /// an errno's words (`No such file or directory`) after `failing` for a failed open.
        public func problem(_ what: String, failing: String) -> String {
            switch self {
            case let .failed(e): "\(failing): \(String(cString: strerror(e)))"
            case .directory: "is a directory; give \(what)"
            case .notRegular: "is not a regular file (a device, a FIFO or a socket); give \(what)"
            }
        }
    }

    /// The regular file at `path`, or why not.
    public static func open(_ path: String) -> Result<ReadingFile, Refusal> {
        descriptor(of: path).map(ReadingFile.init(descriptor:))
    }

    /// nil when the file cannot be opened, with `errno` set, or is not a regular file
    /// (`errno` EINVAL).
    public init?(path: String) {
        switch Self.descriptor(of: path) {
        case let .success(fd): fileDescriptor = fd
        case let .failure(.failed(e)): errno = e; return nil
        case .failure: errno = EINVAL; return nil
        }
    }

    private init(descriptor: Int32) { fileDescriptor = descriptor }

    /// A descriptor of the regular file at `path` (by the bytes that were typed: RawPath),
    /// opened without waiting on a writer, or why not.
    static func descriptor(of path: String, followingLinks: Bool = true) -> Result<Int32, Refusal> {
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW)
        let fd = RawPath.bytes(of: path).withUnsafeBufferPointer { Glibc.open($0.baseAddress!, flags) }
        guard fd >= 0 else { return .failure(.failed(errno)) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            close(fd)
            return .failure(.failed(e))
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .failure(st.st_mode & S_IFMT == S_IFDIR ? .directory : .notRegular)
        }
        // A regular file's reads do not wait on a writer; they are made as usual from here on.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .success(fd)
    }

    /// The file's identity and size, as fstat(2) gives them for the open file.
    public func status() -> stat? {
        var st = stat()
        return fstat(fileDescriptor, &st) == 0 ? st : nil
    }

    deinit { close(fileDescriptor) }

    /// Up to `count` bytes, fewer only at the end of the file; throws the errno of a failed read.
    package func read(upToCount count: Int) throws(POSIXError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(count, 1 << 16))
        while bytes.count < count {
            let want = min(chunk.count, count - bytes.count)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress!, want) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]); continue }
            if n == 0 { break }
            if errno == EINTR { continue }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return bytes
    }

    /// `count` bytes from `offset` (pread: the file's position is left alone), or nil with
    /// `errno` set when they cannot all be read.
    public func bytes(at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fileDescriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n > 0 { done += n; continue }
            if n < 0, errno == EINTR { continue }
            if n == 0 { errno = EIO }
            return nil
        }
        return bytes
    }

    /// The file's size in bytes (as lseek to its end finds it), or nil.
    public func size() -> Int? {
        let end = lseek(fileDescriptor, 0, SEEK_END)
        return end < 0 ? nil : Int(end)
    }
}

/// The C library's words for an errno value.
package func errnoText(_ error: POSIXError) -> String { String(cString: strerror(error.code.rawValue)) }

/// Foundation's `NSTemporaryDirectory()`: `$TMPDIR` with a trailing slash, or `/tmp/`.
public func temporaryDirectoryPath() -> String {
    guard let dir = getenv("TMPDIR").map({ String(cString: $0) }) else { return "/tmp/" }
    return dir.hasSuffix("/") ? dir : dir + "/"
}
