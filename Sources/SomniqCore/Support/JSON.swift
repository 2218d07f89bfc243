/// A JSON value that keeps object keys in their written order.
///
/// somniq parses profiles and configuration with it, so that validation can say
/// exactly which key of which type is wrong, and writes every log record with it,
/// so that the same events always give the same bytes.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// The string, when the value is one.
    public var stringValue: String? { if case let .string(s) = self { s } else { nil } }
    /// The number, when the value is one.
    public var numberValue: Double? { if case let .number(n) = self { n } else { nil } }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

// MARK: - Parsing

/// Where and why a JSON text could not be parsed.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public var line: Int, column: Int, problem: String
    public var description: String { "line \(line), column \(column): \(problem)" }
}

extension JSONValue {
    /// Parses a complete JSON text (RFC 8259). Duplicate keys are an error.
    public init(parsing text: String) throws(JSONSyntaxError) {
        var parser = JSONParser(bytes: Array(text.utf8))
        self = try parser.parseDocument()
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        let value = try parseValue(depth: 0)
        skipSpace()
        if i < bytes.count { throw error("unexpected text after the end of the document") }
        return value
    }

    func error(_ problem: String) -> JSONSyntaxError {
        var line = 1, column = 1
        for b in bytes[..<min(i, bytes.count)] {
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return JSONSyntaxError(line: line, column: column, problem: problem)
    }

    mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    mutating func expect(_ literal: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let lit = Array(literal.utf8)
        guard i + lit.count <= bytes.count, Array(bytes[i..<i + lit.count]) == lit else {
            throw error("invalid literal")
        }
        i += lit.count
        return value
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < 64 else { throw error("nested too deeply") }
        guard i < bytes.count else { throw error("unexpected end of text") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[i])))'")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var members: [(String, JSONValue)] = []
        var keys: Set<String> = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
            let key = try parseString()
            // A set, not a search of the members: a large object costs linear time, not quadratic.
            guard keys.insert(key).inserted else { throw error("duplicate key \"\(key)\"") }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            i += 1
            skipSpace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of text in an object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("expected ',' or '}' in an object")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try parseValue(depth: depth + 1))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of text in an array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("expected ',' or ']' in an array")
        }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        i += 1
        var out: [UInt8] = []
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
            if b < 0x20 { throw error("control character in a string") }
            if b == UInt8(ascii: "\\") {
                i += 1
                guard i < bytes.count else { break }
                switch bytes[i] {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "\\"), bytes[i + 2] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in a string")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in a string") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error("invalid escape in a string")
                }
                i += 1
            } else {
                out.append(b)
                i += 1
            }
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 < bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for k in 1...4 {
            let c = bytes[i + k]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            v = v * 16 + d
        }
        i += 4
        return v
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) { p.i += 1 }
            return p.i - s
        }
        let integerStart = i
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("invalid number") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw error("invalid number (leading zero)") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("invalid number") }
        }
        guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite else {
            throw error("invalid number")
        }
        return .number(v)
    }
}

// MARK: - Writing

extension JSONValue {
    /// Compact JSON text with keys in their stored order. Numbers are written with
    /// the shortest representation that round-trips, integers without a fraction.
    public var compactText: String {
        var out = ""
        write(to: &out, indent: nil, level: 0)
        return out
    }

    /// Indented JSON text (two spaces), for people.
    public var prettyText: String {
        var out = ""
        write(to: &out, indent: "  ", level: 0)
        return out
    }

    private func write(to out: inout String, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(n): out += JSONValue.format(n)
        case let .string(s): JSONValue.writeString(s, to: &out)
        case let .array(items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += indent == nil ? "," : ", " }
                item.write(to: &out, indent: indent, level: level + 1)
            }
            out += "]"
        case let .object(members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (k, (key, value)) in members.enumerated() {
                if k > 0 { out += "," }
                if let indent { out += "\n" + String(repeating: indent, count: level + 1) }
                JSONValue.writeString(key, to: &out)
                out += indent == nil ? ":" : ": "
                value.write(to: &out, indent: indent, level: level + 1)
            }
            if let indent { out += "\n" + String(repeating: indent, count: level) }
            out += "}"
        }
    }

    /// A number as JSON writes it: integers without a fraction, others round-tripping.
    public static func format(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return "\(n)"
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

extension JSONValue {
    /// A number rounded to `places` decimals, so logs do not carry float noise.
    public static func rounded(_ x: Double, _ places: Int = 3) -> JSONValue {
        guard x.isFinite else { return .null }
        var p = 1.0
        for _ in 0..<places { p *= 10 }
        return .number((x * p).rounded() / p)
    }
}
