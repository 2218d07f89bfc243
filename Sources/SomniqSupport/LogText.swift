/// Text from outside (file and device names, URLs, a broker's or a program's words) made
/// safe for a log line, a terminal or the journal: control characters, which could end a
/// line, forge a `<2>` priority prefix or drive a terminal, are written as escapes.
public enum LogText {
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for s in text.unicodeScalars {
            switch s {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(s):
                out += "\\x{" + String(s.value, radix: 16) + "}"
            default: out.unicodeScalars.append(s)
            }
        }
        return out
    }

    /// C0 and C1 controls, DEL, and the bidirectional overrides that reorder what a terminal shows.
    private static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || (0x202A...0x202E).contains(s.value)
            || (0x2066...0x2069).contains(s.value)
    }
}
