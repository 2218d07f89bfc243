import Glibc

/// Standard error, written with write(2). When it cannot be written (`2>/dev/full`, a closed
/// descriptor, a pipe whose reader has gone) the text is dropped: there is nowhere left to
/// say so, and a diagnostic that cannot be shown must not end the command that wanted to
/// show it (`FileHandle.write` traps there, ending the process with SIGILL before its exit
/// code and its clean-up).
public struct StandardError: TextOutputStream {
    public init() {}

    public mutating func write(_ string: String) { Self.write(string) }

    public static func write(_ string: String) { _ = writeAll(STDERR_FILENO, Array(string.utf8)) }
}
