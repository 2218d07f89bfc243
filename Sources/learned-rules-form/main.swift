// Writes `rules/learned.txt` (the trainer's text, the one copy) as the Swift source of its
// binary form, `LearnedRules.builtinForm`: the trees' nodes and the network's weights as
// the bits of their Floats, read by the build so that somniq reads no text at start
// (`LearnedRules(form:)`). The build runs it (Plugins/EmbedData); its numbers are those the
// text's own reader gives (`LearnedRules(text:)`: a threshold the largest Float at or below
// the word's Double, every other number the word's Float, both correctly rounded), and a
// test holds the two equal bit for bit. A file this does not understand fails the build
// with its line; the text's reader says what is wrong with it.
//
//     learned-rules-form RULES OUT
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    let line = Array("learned-rules-form: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

func read(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { fail("cannot open \(path)") }
    defer { fclose(f) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        out += chunk[..<n]
        if n < chunk.count { break }
    }
    return out
}

/// The largest Float at or below `x` (`DecimalReader.atOrBelow`).
func atOrBelow(_ x: Double) -> Float {
    var below = Float(x)
    if Double(below) > x { below = below.nextDown }
    return below
}

/// A Swift string literal of `s`.
func literal(_ s: Substring) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case _ where u.value < 0x20 || u.value == 0x7F: out += "\\u{\(String(u.value, radix: 16))}"
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}

func hex(_ x: UInt32) -> String {
    let s = String(x, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - s.count) + s
}

let args = CommandLine.arguments
guard args.count == 3 else { fail("usage: learned-rules-form RULES OUT") }
let text = String(decoding: read(args[1]), as: UTF8.self)

var inputs: (count: Substring, digest: Substring)?
var header: [(Substring, Substring)] = []
struct Class { var name: Substring, ships: Bool, cutoff: Float, figures: [(Substring, Substring)], nodes = 0, trees = 0 }
var classes: [Class] = []
var names: [Substring] = [], nameIndex: [Substring: Int] = [:]
/// Per node: its input's index in `names` (−1: a leaf), its right child within its class, threshold, value.
var nodes: [(feature: Int, right: Int, threshold: Float, value: Float)] = []
var roots: [Int] = []
var classStart = 0
var open: [(node: Int, rightNext: Bool)] = []
var networkClasses: [Substring]?
var layers: [[Int]] = []
var weights: [Float] = []

for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
    func bad(_ what: String) -> Never { fail("\(args[1]), line \(k + 1): \(what)") }
    func pairs(_ words: ArraySlice<Substring>) -> [(Substring, Substring)] {
        words.map { w in
            guard let eq = w.firstIndex(of: "="), eq != w.startIndex else { bad("'\(w)' is not key=value") }
            return (w[..<eq], w[w.index(after: eq)...])
        }
    }
    func float(_ w: Substring) -> Float {
        guard let x = Float(w), x.isFinite else { bad("'\(w)' is not a number") }
        return x
    }
    if line.isEmpty || line.hasPrefix("#") { continue }
    let words = line.split(separator: " ")
    guard let head = words.first else { continue }
    switch head {
    case "somniq-learned-rules":
        guard words.count == 2, words[1] == "1" else { bad("not format 1 of learned rules") }
    case "inputs":
        guard words.count == 3 else { bad("'inputs COUNT SHA256'") }
        inputs = (words[1], words[2])
    case "meta":
        header += pairs(words.dropFirst())
    case "class":
        guard words.count >= 3, words[2] == "ship" || words[2] == "hand" else { bad("'class NAME ship|hand ...'") }
        let figures = pairs(words.dropFirst(3))
        guard let cut = figures.first(where: { $0.0 == "cutoff" }) else { bad("no cutoff") }
        classes.append(Class(name: words[1], ships: words[2] == "ship", cutoff: float(cut.1), figures: figures.filter { $0.0 != "cutoff" }))
        classStart = nodes.count
    case "tree":
        guard !classes.isEmpty, open.isEmpty else { bad("a tree outside a class, or before the one before it is complete") }
        roots.append(nodes.count - classStart)
        classes[classes.count - 1].trees += 1
    case "s", "l":
        guard !classes.isEmpty else { bad("a node outside a class") }
        if let top = open.last, top.rightNext {
            nodes[top.node].right = nodes.count - classStart
            open[open.count - 1].rightNext = false
        }
        if head == "s" {
            guard words.count == 4, let threshold = Double(words[2]), threshold.isFinite else { bad("a split is 's INPUT THRESHOLD VALUE'") }
            let f = nameIndex[words[1]] ?? { names.append(words[1]); nameIndex[words[1]] = names.count - 1; return names.count - 1 }()
            nodes.append((f, -1, atOrBelow(threshold), float(words[3])))
            open.append((nodes.count - 1, false))
        } else {
            guard words.count == 2 else { bad("a leaf is 'l VALUE'") }
            nodes.append((-1, -1, 0, float(words[1])))
            // A leaf completes a subtree, and with it every split whose right subtree it was.
            while let top = open.last {
                if !top.rightNext && nodes[top.node].right == -1 { open[open.count - 1].rightNext = true; break }
                open.removeLast()
            }
        }
        classes[classes.count - 1].nodes += 1
    case "network":
        guard let list = pairs(words.dropFirst()).first(where: { $0.0 == "classes" }) else { bad("'network classes=...'") }
        networkClasses = list.1.split(separator: ",")
    case "conv":
        let shape = words.dropFirst().prefix(5).compactMap { Int($0) }
        guard shape.count == 5, words.count == 6 + shape[1] * shape[0] * shape[2] + shape[1] else { bad("a layer's shape and its numbers differ") }
        layers.append(shape)
        weights += words.dropFirst(6).map(float)
    case "head":
        weights += words.dropFirst().map(float)
    default:
        bad("unknown line '\(head)'")
    }
}
guard open.isEmpty else { fail("\(args[1]): its last tree is incomplete") }
guard inputs != nil || text.allSatisfy(\.isWhitespace) else { fail("\(args[1]): no 'inputs' line: not a file of learned rules") }

var out = """
// Generated at build time by learned-rules-form (Plugins/EmbedData) from rules/learned.txt. Do not edit.

extension LearnedRules {

"""
if let inputs {
    out += "    /// rules/learned.txt as the build read it (`Form`).\n"
    out += "    static let builtinForm: Form? = Form(\n"
    out += "        inputs: \(inputs.count), inputsDigest: \(literal(inputs.digest)),\n"
    out += "        header: [" + header.map { "(\(literal($0.0)), \(literal($0.1)))" }.joined(separator: ", ") + "],\n"
    out += "        classes: [\n"
    for c in classes {
        out += "            Form.Class(name: \(literal(c.name)), ships: \(c.ships), cutoff: \(hex(c.cutoff.bitPattern)), nodes: \(c.nodes), trees: \(c.trees),\n"
        out += "                       figures: [" + c.figures.map { "(\(literal($0.0)), \(literal($0.1)))" }.joined(separator: ", ") + "]),\n"
    }
    out += "        ],\n"
    out += "        names: [" + names.map(literal).joined(separator: ", ") + "],\n"
    out += "        networkClasses: " + (networkClasses.map { "[" + $0.map(literal).joined(separator: ", ") + "]" } ?? "nil") + ",\n"
    out += "        layers: [" + layers.map { "[" + $0.map(String.init).joined(separator: ", ") + "]" }.joined(separator: ", ") + "],\n"
    out += "        nodes: builtinFormNodes, roots: builtinFormRoots, weights: builtinFormWeights)\n\n"
    func words(_ name: String, _ type: String, _ values: [String]) {
        out += "    static let \(name): [\(type)] = [\n"
        var k = 0
        while k < values.count {
            out += "        " + values[k..<min(k + 8, values.count)].joined(separator: ", ") + ",\n"
            k += 8
        }
        out += "    ]\n"
    }
    words("builtinFormNodes", "UInt32", nodes.flatMap { n in
        [hex(UInt32(bitPattern: Int32(n.feature))), hex(UInt32(bitPattern: Int32(n.right))), hex(n.threshold.bitPattern), hex(n.value.bitPattern)]
    })
    words("builtinFormRoots", "UInt32", roots.map { String($0) })
    words("builtinFormWeights", "UInt32", weights.map { hex($0.bitPattern) })
} else {
    out += "    /// rules/learned.txt is empty: no built-in rules.\n"
    out += "    static let builtinForm: Form? = nil\n"
}
out += "}\n"

let tmp = args[2] + ".tmp"
guard let f = fopen(tmp, "wb") else { fail("cannot write \(tmp)") }
let bytes = Array(out.utf8)
guard fwrite(bytes, 1, bytes.count, f) == bytes.count, fclose(f) == 0, rename(tmp, args[2]) == 0 else { fail("cannot write \(args[2])") }
