/// Reads DCASE / sed_eval label files: one event per line, `onset<TAB>offset<TAB>class`,
/// times in seconds. Blank lines (a trailing newline included) are skipped, fields may
/// carry surrounding spaces, and an empty text is a recording with background only.
public enum LabelFile {
    /// A label may end this much after the recording does (rounding by a labelling tool).
    public static let endTolerance = 1.0

    /// Parses the text of a label file; `name` (usually its path) prefixes every error.
    /// With `audioSeconds`, a label that ends after the recording does is an error: the
    /// scoring holds one slot per second of the labels, and a wrong time must not cost
    /// gigabytes.
    public static func parse(_ text: String, name: String, audioSeconds: Double? = nil) throws(LabelFileError) -> [LabeledEvent] {
        var events: [LabeledEvent] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, line) in lines.enumerated() where !line.allSatisfy(\.isWhitespace) {
            let lineNumber = index + 1
            func fail(_ problem: String) -> LabelFileError {
                LabelFileError(name: name, line: lineNumber, problem: problem)
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(trimmed)
            guard fields.count == 3 else {
                let found = fields.count == 1 ? "1 field" : "\(fields.count) fields"
                throw fail("expected onset<TAB>offset<TAB>class, found \(found)")
            }
            let onset = try seconds(fields[0], "onset", fail)
            let offset = try seconds(fields[1], "offset", fail)
            guard onset >= 0 else { throw fail("onset \(fields[0]) is negative") }
            guard offset >= onset else { throw fail("offset \(fields[1]) is before onset \(fields[0])") }
            guard !fields[2].isEmpty else { throw fail("the class is empty") }
            if let audioSeconds, offset > audioSeconds + endTolerance {
                throw fail("offset \(fields[1]) s is after the end of the recording (\(JSONValue.format(audioSeconds)) s)")
            }
            events.append(LabeledEvent(onset: onset, offset: offset, label: String(fields[2])))
        }
        return events
    }

    private static func seconds(_ field: Substring, _ what: String,
                                _ fail: (String) -> LabelFileError) throws(LabelFileError) -> Double {
        guard let value = Double(field) else { throw fail("\(what) \"\(field)\" is not a number") }
        guard value.isFinite else { throw fail("\(what) \"\(field)\" is not a finite number of seconds") }
        guard isDecimal(field) else { throw fail("\(what) \"\(field)\" is not a decimal number of seconds (such as 12.5)") }
        return value
    }

    /// Whether `field` is a time as sed_eval and DCASE label files write one: an optional
    /// sign, decimal digits with at most one point, an optional exponent. Not hexadecimal
    /// (`0x10`, which `Double(_:)` reads as 16), `nan` or `inf`.
    static func isDecimal(_ field: Substring) -> Bool {
        var chars = field.utf8[...]
        if let c = chars.first, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { chars = chars.dropFirst() }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        let whole = chars.prefix(while: isDigit)
        chars = chars.dropFirst(whole.count)
        var fraction = 0
        if chars.first == UInt8(ascii: ".") {
            chars = chars.dropFirst()
            fraction = chars.prefix(while: isDigit).count
            chars = chars.dropFirst(fraction)
        }
        guard whole.count + fraction > 0 else { return false }
        if let e = chars.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            chars = chars.dropFirst()
            if let c = chars.first, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { chars = chars.dropFirst() }
            let exponent = chars.prefix(while: isDigit).count
            guard exponent > 0 else { return false }
            chars = chars.dropFirst(exponent)
        }
        return chars.isEmpty
    }

    private static func trimmed(_ field: Substring) -> Substring {
        let start = field.drop(while: \.isWhitespace)
        var end = start.endIndex
        while end > start.startIndex, start[start.index(before: end)].isWhitespace {
            end = start.index(before: end)
        }
        return start[start.startIndex..<end]
    }
}

/// A label file line that is not `onset<TAB>offset<TAB>class`; prints as `name:line: problem`.
public struct LabelFileError: Error, Equatable, CustomStringConvertible {
    public var name: String
    public var line: Int
    public var problem: String

    public init(name: String, line: Int, problem: String) {
        self.name = name
        self.line = line
        self.problem = problem
    }

    public var description: String { "\(name):\(line): \(problem)" }
}
