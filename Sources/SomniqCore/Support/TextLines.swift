/// The lines of a text read from outside (a rules file, a home memory, a file of labels),
/// ended by LF or CRLF: a copy passed through a Windows editor or a mail keeps its meaning.
public enum TextLines {
    /// `text` split at each "\n", a "\r" before it dropped. Split as bytes: to a `String`,
    /// "\r\n" is one `Character`, in which `split(separator: "\n")` finds no "\n".
    public static func of(_ text: String) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            Substring(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
        }
    }
}
