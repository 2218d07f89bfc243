/// An HTML form's body (`application/x-www-form-urlencoded`, the URL standard's
/// serializer): `name=value` pairs joined by `&`, `+` for a space, `%XX` for a byte.
enum FormBody {
    static func fields(_ body: [UInt8]) -> [(String, String)] {
        body.split(separator: UInt8(ascii: "&")).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// `+` as a space and `%XX` as its byte; a `%` not followed by two hex digits stays.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var i = bytes.startIndex
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: b - 0x30
            case 0x41...0x46: b - 0x41 + 10
            case 0x61...0x66: b - 0x61 + 10
            default: nil
            }
        }
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                out.append(0x20)
            } else if b == UInt8(ascii: "%"), i + 2 < bytes.endIndex, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) {
                out.append(hi << 4 | lo)
                i += 2
            } else {
                out.append(b)
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
