#if canImport(Glibc)
import Glibc
#endif

/// The text form of `LearnedRules` (`rules/learned.txt`), written by `tools/learn/train.py`:
///
///     somniq-learned-rules 1
///     inputs 326 <sha256 of the input names, one per line>
///     meta <key>=<value> ...                      (what was fitted on what; any number)
///     class speech ship cutoff=-1.25 rounds=140 cv_hand=0.41 cv_learned=0.55 ...
///     tree
///     s centroid@0 612.5 -0.8           a split: input, threshold, the node's mean value
///     l 0.12                            a leaf: its value
///     ...
///     network classes=glass_break,scream,...   a spectrogram network (optional, after the classes)
///     conv IN OUT KERNEL DILATION POOL W... B...   a layer: OUT·IN·KERNEL weights, OUT biases
///     head W... B...                    the linear layer: classes·2·channels weights, a bias per class
///
/// Trees are in preorder (a split, its left subtree, its right subtree); `x <= threshold`
/// goes left. A class line says `ship` or `hand`: which rule decides the class by default.
extension LearnedRules {
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let line: Int
        public let problem: String
        public var description: String { "line \(line): \(problem)" }
    }

    public static let formatVersion = 1
    /// The deepest tree read: the trainer fits depth 3; a deeper one is not its file.
    public static let maxDepth = 8

    /// The SHA-256 of the input names, one per line: a model fitted on other inputs is refused.
    public static var inputsDigest: String {
        SHA256.hex(Array(LearnedInputs.names.joined(separator: "\n").utf8))
    }

    /// The SHA-256 that `tools/learn/train.py` records as `body_sha256`: of the lines from
    /// the first `class` line to the end, each ended by a newline (a line's `\r` and blank
    /// lines at the end left out, as the parser reads past them): a copy with CRLF line
    /// ends hashes as the file the trainer wrote.
    public static func bodyDigest(of text: String) -> String {
        var lines = TextLines.of(text)
        while lines.last?.isEmpty == true { lines.removeLast() }
        let body = lines.drop { !$0.hasPrefix("class ") }
        var bytes: [UInt8] = []
        for line in body { bytes += line.utf8; bytes.append(0x0A) }
        return SHA256.hex(bytes)
    }

    public init(text: String, use: Use = .shipped) throws(ParseError) {
        // Tens of thousands of nodes and weights, read at every start: their lines are read
        // as bytes, with nothing allocated per word (a String's hash and comparison are
        // Unicode-aware, and a String or an array per word would make this take a fifth of
        // a second), their numbers by `DecimalReader`.
        let index = NameIndex(LearnedInputs.names)
        var rules = [ClassRule?](repeating: nil, count: SoundClass.allCases.count)
        var header: [(key: String, value: String)] = []
        var current: (c: SoundClass, ships: Bool, cutoff: Float, figures: [(key: String, value: String)])?
        var nodes: [Node] = [], roots: [Int32] = []
        /// The splits of the tree being read whose subtrees are not complete, innermost last;
        /// `rightNext`: its left subtree is complete, so the next node is its right child.
        var open: [(node: Int, rightNext: Bool)] = []
        var treeDone = true
        var sawVersion = false, sawInputs = false
        var netClasses: [SoundClass]?
        var convs: [SpectrogramNet.Conv] = []
        var netHead: (weights: [Float], bias: [Float])?
        var number = 0

        func fail(_ problem: String) -> ParseError { ParseError(line: number, problem: problem) }
        func pairs<S: Sequence>(_ words: S) throws(ParseError) -> [(key: String, value: String)] where S.Element == Substring {
            var out: [(key: String, value: String)] = []
            for w in words {
                // Found among the bytes: a search for the Character walks the word grapheme by grapheme.
                guard let eq = w.utf8.firstIndex(of: UInt8(ascii: "=")), eq != w.startIndex else { throw fail("'\(w)' is not key=value") }
                out.append((String(w[..<eq]), String(w[w.utf8.index(after: eq)...])))
            }
            return out
        }
        func closeClass() throws(ParseError) {
            guard let cur = current else { return }
            guard treeDone else { throw fail("class \(cur.c.rawValue): its last tree is incomplete") }
            guard !roots.isEmpty else { throw fail("class \(cur.c.rawValue) has no tree") }
            rules[cur.c.index] = ClassRule(soundClass: cur.c, ships: cur.ships, cutoff: cur.cutoff,
                                           figures: cur.figures, nodes: nodes, roots: roots)
            nodes = []; roots = []; current = nil
        }
        /// A leaf completes a subtree, and with it every split whose right subtree it was.
        func subtreeComplete() {
            while let top = open.last {
                if !top.rightNext && nodes[top.node].right == -1 { open[open.count - 1].rightNext = true; return }
                open.removeLast()
            }
            treeDone = true
        }

        // The text's bytes, read through a pointer (no bounds check per byte).
        let all = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.utf8.count)
        defer { all.deallocate() }
        _ = all.initialize(from: text.utf8)
        func bytes(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: all[r]) }
        func word(_ r: Range<Int>) -> String { String(decoding: bytes(r), as: UTF8.self) }
        /// The current line's words, as ranges of `all`.
        var words: [Range<Int>] = []
        /// The next word of a line from `i` on (up to `stop`), and `i` past it.
        func nextWord(_ i: inout Int, _ stop: Int) -> Range<Int>? {
            while i < stop, all[i] == UInt8(ascii: " ") { i += 1 }
            let w = i
            while i < stop, all[i] != UInt8(ascii: " ") { i += 1 }
            return i > w ? w..<i : nil
        }
        var digits = [CChar](repeating: 0, count: 64)
        /// A word as a number, read by the C library (`strtod`, `strtof`: correctly rounded, as
        /// Swift's own `Double(_:)` and `Float(_:)` read it).
        func decimal<T>(_ r: Range<Int>, _ read: (UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T? {
            guard r.count < digits.count else { return nil }
            for (k, i) in r.enumerated() { digits[k] = CChar(bitPattern: all[i]) }
            digits[r.count] = 0
            return digits.withUnsafeBufferPointer { d -> T? in
                var end: UnsafeMutablePointer<CChar>?
                let x = read(d.baseAddress!, &end)
                return end == UnsafeMutablePointer(mutating: d.baseAddress! + r.count) ? x : nil
            }
        }
        /// Exactly `count` finite numbers, the words from `first` on.
        func numbers(from first: Int, count: Int) throws(ParseError) -> [Float] {
            let given = max(0, words.count - first)
            guard given == count else { throw fail("\(given) numbers where the layer's shape needs \(count)") }
            var out: [Float] = []
            out.reserveCapacity(count)
            for r in words[first...] {
                guard let x = DecimalReader.float(bytes(r)) ?? Float(word(r)), x.isFinite else { throw fail("'\(word(r))' is not a number") }
                out.append(x)
            }
            return out
        }
        var start = 0
        while start <= all.count {
            let end = memchr(all.baseAddress! + start, Int32(UInt8(ascii: "\n")), all.count - start)
                .map { $0.assumingMemoryBound(to: UInt8.self) - all.baseAddress! } ?? all.count
            defer { start = end + 1 }
            number += 1
            let stop = end > start && all[end - 1] == UInt8(ascii: "\r") ? end - 1 : end
            if stop == start || all[start] == UInt8(ascii: "#") { continue }
            if stop - start > 2, all[start] == UInt8(ascii: "s") || all[start] == UInt8(ascii: "l"), all[start + 1] == UInt8(ascii: " ") {
                // A node's line, fifteen thousand times: its first four words kept without an
                // array, the rest only counted.
                var node = (start..<start, start..<start, start..<start, start..<start), count = 0
                var i = start
                while let w = nextWord(&i, stop) {
                    switch count {
                    case 0: node.0 = w
                    case 1: node.1 = w
                    case 2: node.2 = w
                    case 3: node.3 = w
                    default: break
                    }
                    count += 1
                }
                guard current != nil, !treeDone else { throw fail("a node outside a tree") }
                if let top = open.last, top.rightNext {
                    nodes[top.node].right = Int32(nodes.count)
                    open[open.count - 1].rightNext = false
                }
                if all[start] == UInt8(ascii: "s") {
                    let f = count == 4 ? index.find(bytes(node.1)) : nil
                    guard let f, let below = DecimalReader.floatAtOrBelow(bytes(node.2))
                            ?? decimal(node.2, strtod).flatMap({ $0.isFinite ? DecimalReader.atOrBelow($0) : nil }),
                          let v = DecimalReader.float(bytes(node.3)) ?? decimal(node.3, strtof), v.isFinite else {
                        throw fail(count == 4 && f == nil ? "unknown input '\(word(node.1))'"
                                                          : "a split is 's INPUT THRESHOLD VALUE'")
                    }
                    nodes.append(Node(feature: f, right: -1, threshold: below, value: v))
                    open.append((nodes.count - 1, false))
                    guard open.count <= Self.maxDepth else { throw fail("a tree deeper than \(Self.maxDepth) splits") }
                } else {
                    guard count == 2, let v = DecimalReader.float(bytes(node.1)) ?? decimal(node.1, strtof), v.isFinite else {
                        throw fail("a leaf is 'l VALUE'")
                    }
                    nodes.append(Node(feature: -1, right: -1, threshold: 0, value: v))
                    subtreeComplete()
                }
                continue
            }
            words.removeAll(keepingCapacity: true)
            var i = start
            while let w = nextWord(&i, stop) { words.append(w) }
            // A tree's first line, a thousand times.
            if let first = words.first, first.count == 4, all[first.lowerBound] == UInt8(ascii: "t"), word(first) == "tree" {
                guard current != nil else { throw fail("a tree outside a class") }
                guard treeDone else { throw fail("a tree starts before the one before it is complete") }
                roots.append(Int32(nodes.count)); treeDone = false; open.removeAll(keepingCapacity: true)
                continue
            }
            // A layer's line: thousands of weights.
            if let first = words.first, first.count == 4, all[first.lowerBound] == UInt8(ascii: "c") || all[first.lowerBound] == UInt8(ascii: "h"),
               word(first) == "conv" || word(first) == "head" {
                if all[first.lowerBound] == UInt8(ascii: "c") {
                    guard netClasses != nil, netHead == nil else { throw fail("a 'conv' layer outside a network, or after its head") }
                    let shape = words.dropFirst().prefix(5).compactMap { Int(word($0)) }
                    guard shape.count == 5, shape.allSatisfy({ $0 > 0 && $0 <= 4096 }) else {
                        throw fail("a layer is 'conv IN OUT KERNEL DILATION POOL', then its weights and biases")
                    }
                    let n = shape[1] * shape[0] * shape[2]
                    let values = try numbers(from: 6, count: n + shape[1])
                    convs.append(.init(inputs: shape[0], outputs: shape[1], kernel: shape[2], dilation: shape[3], pool: shape[4],
                                       weights: Array(values[..<n]), bias: Array(values[n...])))
                } else {
                    guard let classes = netClasses, let channels = convs.last?.outputs, netHead == nil else {
                        throw fail("a 'head' line comes once, after the network's layers")
                    }
                    let n = classes.count * 2 * channels
                    let values = try numbers(from: 1, count: n + classes.count)
                    netHead = (Array(values[..<n]), Array(values[n...]))
                }
                continue
            }
            // Split on the bytes: a Substring's own split walks it Character by Character.
            let line = Substring(word(start..<stop))
            let words = line.utf8.split(separator: UInt8(ascii: " ")).map { Substring($0) }
            guard let head = words.first else { continue }          // spaces alone
            switch head {
            case "somniq-learned-rules":
                guard words.count == 2, words[1] == "\(Self.formatVersion)" else {
                    throw fail("this somniq reads format \(Self.formatVersion) of learned rules, not '\(words.dropFirst().joined(separator: " "))'")
                }
                sawVersion = true
            case "inputs":
                guard sawVersion else { throw fail("the first line must be 'somniq-learned-rules \(Self.formatVersion)'") }
                guard words.count == 3, Int(words[1]) == LearnedInputs.count, words[2] == Self.inputsDigest else {
                    throw fail("the rules were fitted on other inputs than this somniq computes; re-fit them (make learn)")
                }
                sawInputs = true
            case "meta":
                header += try pairs(words.dropFirst())
            case "network":
                try closeClass()
                guard sawInputs, netClasses == nil else { throw fail("one 'network' line, after the 'inputs' line") }
                let classes = try pairs(words.dropFirst()).first { $0.key == "classes" }?.value.split(separator: ",")
                    .map { name throws(ParseError) -> SoundClass in
                        guard let c = SoundClass(rawValue: String(name)), Self.candidates.contains(c) else {
                            throw fail("the network's class '\(name)' is not one a learned rule decides")
                        }
                        return c
                    }
                guard let classes, !classes.isEmpty else { throw fail("'network' needs classes=<class>,<class>,...") }
                netClasses = classes
            case "class":
                guard netClasses == nil else { throw fail("the classes come before the network") }
                guard sawInputs else { throw fail("an 'inputs' line must come before the first class") }
                try closeClass()
                guard words.count >= 3, let c = SoundClass(rawValue: String(words[1])) else {
                    throw fail("'class' needs a class name and 'ship' or 'hand'")
                }
                guard Self.candidates.contains(c) else { throw fail("\(c.rawValue) is decided by its own detector, not a learned rule") }
                guard rules[c.index] == nil else { throw fail("class \(c.rawValue) appears twice") }
                guard words[2] == "ship" || words[2] == "hand" else { throw fail("'\(words[2])' must be 'ship' or 'hand'") }
                let figures = try pairs(words.dropFirst(3))
                guard let cut = figures.first(where: { $0.key == "cutoff" }).flatMap({ Float($0.value) }), cut.isFinite else {
                    throw fail("class \(c.rawValue) needs cutoff=<number>")
                }
                current = (c, words[2] == "ship", cut, figures.filter { $0.key != "cutoff" })
            default:
                throw fail("unknown line '\(head)'")
            }
        }
        // What is missing at the end is said at the last line.
        number = max(1, all.last == UInt8(ascii: "\n") ? number - 1 : number)
        try closeClass()
        guard sawInputs else { throw fail("no 'inputs' line: not a file of learned rules") }
        if let classes = netClasses {
            guard let netHead else { throw fail("the network has no 'head' line") }
            do { network = try SpectrogramNet(classes: classes, convs: convs, head: netHead.weights, headBias: netHead.bias) } catch {
                throw fail("the network: \(error.problem)")
            }
        } else {
            network = nil
        }
        self.rules = rules
        self.use = use
        self.header = header
    }
}

/// The inputs' names, found from a word's bytes with nothing allocated: open addressing on
/// an FNV-1a hash, each name's bytes compared in full.
private struct NameIndex {
    private var bytes: [UInt8] = []
    private var ranges: [Range<Int>] = []
    /// Per slot, the name's index, or −1.
    private var slots: [Int32]

    init(_ names: [String]) {
        var capacity = 16
        while capacity < 4 * names.count { capacity *= 2 }
        slots = [Int32](repeating: -1, count: capacity)
        for (i, name) in names.enumerated() {
            let from = bytes.count
            bytes += name.utf8
            ranges.append(from..<bytes.count)
            let word = bytes[from...]
            var slot = word.withUnsafeBufferPointer { Self.hash($0) } & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(i)
        }
    }

    func find(_ word: UnsafeBufferPointer<UInt8>) -> Int32? {
        var slot = Self.hash(word) & (slots.count - 1)
        while slots[slot] >= 0 {
            let r = ranges[Int(slots[slot])]
            if r.count == word.count && bytes.withUnsafeBufferPointer({ b in
                word.isEmpty || memcmp(b.baseAddress! + r.lowerBound, word.baseAddress!, word.count) == 0
            }) { return slots[slot] }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    private static func hash(_ word: UnsafeBufferPointer<UInt8>) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in word { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: h)
    }
}
