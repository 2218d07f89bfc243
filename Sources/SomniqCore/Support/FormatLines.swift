/// The statements of one of somniq's own text files (a home memory, a home fit): a first
/// line `MAGIC VERSION`, then lines of words separated by spaces, blank lines skipped, read
/// from `TextLines`. The magic and the version are checked here, with one wording for every
/// kind of file, and a word is read as a number or a count with one wording; each file's
/// reader says what its statements mean and gives a `Problem` its own error type.
public struct FormatLines {
    /// What is wrong at a line (its number from 1; 0: the file as a whole): the error
    /// each kind of file's reader throws (`HomeFit.ParseError`, `HomeMemory.ParseError`).
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let line: Int
        public let problem: String
        public var description: String { line > 0 ? "line \(line): \(problem)" : problem }

        public init(line: Int, problem: String) {
            self.line = line
            self.problem = problem
        }
    }

    public struct Line {
        /// From 1.
        public let number: Int
        /// The line as written (a CR before its LF left out).
        public let text: Substring
        /// At least one.
        public let words: [Substring]

        public var first: Substring { words[0] }

        public func problem(_ problem: String) -> Problem { Problem(line: number, problem: problem) }

        /// Word `i` as a finite number.
        public func double(_ i: Int, _ what: String) throws(Problem) -> Double {
            guard let x = Double(words[i]), x.isFinite else { throw notNumber(i, what) }
            return x
        }

        /// Word `i` as a finite number.
        public func float(_ i: Int, _ what: String) throws(Problem) -> Float {
            guard let x = Float(words[i]), x.isFinite else { throw notNumber(i, what) }
            return x
        }

        /// Word `i` as a count, 0 or more.
        public func count(_ i: Int, _ what: String) throws(Problem) -> Int {
            guard let n = Int(words[i]), n >= 0 else { throw problem("\(what): \"\(words[i].prefix(20))\" is not a count") }
            return n
        }

        /// A statement the file's kind has not.
        public var unknown: Problem { problem("unknown line \"\(first.prefix(20))\"") }

        private func notNumber(_ i: Int, _ what: String) -> Problem { problem("\(what): \"\(words[i].prefix(20))\" is not a number") }
    }

    /// The version the first line gives, one of those read.
    public let version: Int
    /// The lines after the first, blank ones left out.
    public let lines: [Line]

    /// `kind` names the file in a problem (`home memory`), `writer` what writes one
    /// (`somniq learn --home`); `versions` are the formats this somniq reads, the last the
    /// one it writes.
    public init(_ text: String, magic: String, versions: ClosedRange<Int>, kind: String, writer: String) throws(Problem) {
        var version: Int?
        var lines: [Line] = []
        for (i, raw) in TextLines.of(text).enumerated() {
            let words = raw.split(separator: " ", omittingEmptySubsequences: true)
            guard !words.isEmpty else { continue }
            let line = Line(number: i + 1, text: raw, words: words)
            guard version == nil else {
                lines.append(line)
                continue
            }
            guard line.first == magic, words.count == 2 else {
                throw line.problem("not a \(kind): it starts with \"\(magic) \(versions.upperBound)\" (\(writer) writes one)")
            }
            guard let v = Int(words[1]), versions.contains(v) else {
                let read = versions.count == 1 ? "format \(versions.upperBound)"
                    : versions.count == 2 ? "formats \(versions.lowerBound) and \(versions.upperBound)"
                    : "formats \(versions.lowerBound) to \(versions.upperBound)"
                throw line.problem("format \(words[1].prefix(20)); this somniq reads \(read): learn it again (\(writer))")
            }
            version = v
        }
        guard let version else { throw Problem(line: 0, problem: "empty: not a \(kind) (\(writer) writes one)") }
        self.version = version
        self.lines = lines
    }
}
