/// The text form of a `HomeMemory` (`somniq learn --home` writes it; docs/home.md):
///
///     somniq-home-memory 7
///     inputs 326 <sha256 of the input names, one per line, as rules/learned.txt's>
///     meta <key>=<value> ...              (how it was learned; any number)
///     radius 0                            (a class no `class` line names)
///     ratio 1
///     mean <one number per input>
///     spread <one number per input; 0: the input is left out>
///     prior_mean <one number per input>   (the corpus's scaling, when a class is judged by it)
///     prior_spread <one number per input>
///     class door radius 1.21 ratio 0.8
///     class cough radius 0.5 ratio 1 prior
///     cap door r1795401000-e7 0.402        (a marked sound's own radius, less than its class's)
///     weight door <one number per input>  (the class's weight of each input in its distance)
///     memory not dog_bark r1795401000-e3 2026-11-22T23:40:05.000Z <one number per input>
///     memory was:snoring scream r1795401000-e5 2026-11-22T23:52:10.500Z <…>
///     memory heard:snoring cough r1795401000-e6 2026-11-22T23:53:02.000Z <…>
///     memory right cough r1795401000-e9 - <…>
///
/// `was:CLASS` is a "not" memory whose sound was said to be CLASS ("it was snoring"), which
/// format 3 added; a format 2 file (no such line) reads as it did. Format 4 added a radius
/// and ratio per class (`class` lines; `prior`: judged in the `prior_mean`/`prior_spread`
/// scaling); a format 2 or 3 file (no such line) judges every class by its one `radius`
/// and `ratio`, as it did. Format 5 added `cap` lines: a marked sound a held-out confirmed
/// event of its class lay near keeps a radius short of it, less than its class's; a format 4
/// file (none) judges each marked sound by its class's radius, as it did. Format 6 added
/// `weight` lines: a class's distance weighs each input's difference by it (`weights`); a
/// format 5 file (none) weighs every input alike, as it did. Format 7 added `heard:CLASS`:
/// a "not" memory the listener said nothing more of, one of whose windows carried a sound
/// marked right as CLASS (`Entry.heard`), judged as `was:CLASS` is; a format 6 file has none.
///
/// A memory made for other inputs (another somniq's `LearnedInputs`) is refused: its
/// numbers would be compared with the wrong inputs.
extension HomeMemory {
    public typealias ParseError = FormatLines.Problem

    public static let formatVersion = 7
    /// The oldest format read: 2 differs from 3 only in having no `was:` memories, 3 from 4
    /// in having no `class` and `prior_` lines, 4 from 5 in having no `cap` lines, 5 from 6
    /// in having no `weight` lines, 6 from 7 in having no `heard:` memories.
    static let oldestRead = 2
    static let magic = "somniq-home-memory"

    public var text: String {
        var out = ["\(Self.magic) \(Self.formatVersion)", "inputs \(LearnedInputs.count) \(LearnedRules.inputsDigest)"]
        for (k, v) in header { out.append("meta \(k)=\(v)") }
        out.append("radius \(Self.number(radius))")
        out.append("ratio \(Self.number(ratio))")
        out.append("mean " + mean.map(Self.number).joined(separator: " "))
        out.append("spread " + spread.map(Self.number).joined(separator: " "))
        if !priorMean.isEmpty {
            out.append("prior_mean " + priorMean.map(Self.number).joined(separator: " "))
            out.append("prior_spread " + priorSpread.map(Self.number).joined(separator: " "))
        }
        for (c, r) in classes.sorted(by: { $0.key.index < $1.key.index }) {
            out.append("class \(c.rawValue) radius \(Self.number(r.radius)) ratio \(Self.number(r.ratio))" + (r.prior ? " prior" : ""))
        }
        for (c, byEvent) in caps.sorted(by: { $0.key.index < $1.key.index }) {
            for (id, r) in byEvent.sorted(by: { $0.key < $1.key }) { out.append("cap \(c.rawValue) \(id) \(Self.number(r))") }
        }
        for (c, w) in weights.sorted(by: { $0.key.index < $1.key.index }) {
            out.append("weight \(c.rawValue) " + w.map(Self.number).joined(separator: " "))
        }
        for e in entries {
            out.append("memory \(e.was.map { (e.heard ? "heard:" : "was:") + $0.rawValue } ?? e.kind.rawValue) \(e.soundClass.rawValue) \(e.eventID) \(e.at ?? "-") " + e.inputs.map(Self.number).joined(separator: " "))
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The shortest text that reads back as the same Float.
    static func number(_ x: Float) -> String { x == x.rounded() && abs(x) < 1e7 ? String(Int(x)) : x.description }

    public init(text: String) throws(ParseError) {
        try self.init(FormatLines(text, magic: Self.magic, versions: Self.oldestRead...Self.formatVersion, kind: "home memory", writer: "somniq learn --home"))
    }

    private init(_ file: FormatLines) throws(ParseError) {
        let n = LearnedInputs.count
        var header: [(key: String, value: String)] = []
        var radius: Float?, ratio: Float?, mean: [Float]?, spread: [Float]?, priorMean: [Float]?, priorSpread: [Float]?
        var classes: [SoundClass: ClassRadius] = [:]
        var caps: [SoundClass: [String: Float]] = [:]
        var weights: [SoundClass: [Float]] = [:]
        var entries: [Entry] = []
        var sawInputs = false
        /// Words `start...` of `line`: one number per input.
        func numbers(_ line: FormatLines.Line, from start: Int, _ what: String) throws(ParseError) -> [Float] {
            let count = line.words.count - start
            guard count == n else { throw line.problem("\(what): \(count) numbers, not one per input (\(n))") }
            var out: [Float] = []
            out.reserveCapacity(n)
            for i in start..<line.words.count { out.append(try line.float(i, what)) }
            return out
        }
        for line in file.lines {
            let words = line.words
            switch line.first {
            case "inputs":
                guard words.count == 3, words[1] == "\(n)", words[2] == LearnedRules.inputsDigest else {
                    throw line.problem("made for other inputs than this somniq's (\(n) inputs, somniq rules inputs): learn it again (somniq learn --home)")
                }
                sawInputs = true
            case "meta":
                let pair = line.text.dropFirst(5)
                guard let eq = pair.firstIndex(of: "=") else { throw line.problem("meta: expected key=value") }
                header.append((String(pair[..<eq]), String(pair[pair.index(after: eq)...])))
            case "radius":
                guard words.count == 2, let r = Float(words[1]), r.isFinite, r >= 0 else {
                    throw line.problem("radius: expected one number, 0 or more")
                }
                radius = r
            case "ratio":
                guard words.count == 2, let q = Float(words[1]), q >= 0, q <= 1 else {
                    throw line.problem("ratio: expected one number from 0 to 1")
                }
                ratio = q
            case "mean": mean = try numbers(line, from: 1, "mean")
            case "spread":
                let s = try numbers(line, from: 1, "spread")
                guard s.allSatisfy({ $0 >= 0 }) else { throw line.problem("spread: a standard deviation below 0") }
                spread = s
            case "prior_mean" where file.version >= 4: priorMean = try numbers(line, from: 1, "prior_mean")
            case "prior_spread" where file.version >= 4:
                let s = try numbers(line, from: 1, "prior_spread")
                guard s.allSatisfy({ $0 >= 0 }) else { throw line.problem("prior_spread: a standard deviation below 0") }
                priorSpread = s
            case "class" where file.version >= 4:
                guard words.count == 6 || (words.count == 7 && words[6] == "prior"), words[2] == "radius", words[4] == "ratio" else {
                    throw line.problem("class: expected CLASS radius R ratio Q, and prior or nothing")
                }
                guard let c = SoundClass(rawValue: String(words[1])) else { throw line.problem("class: no class \"\(words[1].prefix(20))\"") }
                guard let r = Float(words[3]), r.isFinite, r >= 0 else { throw line.problem("class \(c.rawValue): radius: expected one number, 0 or more") }
                guard let q = Float(words[5]), q >= 0, q <= 1 else { throw line.problem("class \(c.rawValue): ratio: expected one number from 0 to 1") }
                guard classes[c] == nil else { throw line.problem("class \(c.rawValue): said twice") }
                classes[c] = ClassRadius(radius: r, ratio: q, prior: words.count == 7)
            case "cap" where file.version >= 5:
                guard words.count == 4 else { throw line.problem("cap: expected CLASS EVENT-ID RADIUS") }
                guard let c = SoundClass(rawValue: String(words[1])) else { throw line.problem("cap: no class \"\(words[1].prefix(20))\"") }
                guard let r = Float(words[3]), r.isFinite, r >= 0 else { throw line.problem("cap \(c.rawValue): radius: expected one number, 0 or more") }
                guard caps[c]?[String(words[2])] == nil else { throw line.problem("cap \(c.rawValue): said twice for one marked event") }
                caps[c, default: [:]][String(words[2])] = r
            case "weight" where file.version >= 6:
                guard words.count >= 2, let c = SoundClass(rawValue: String(words[1])) else {
                    throw line.problem("weight: no class \"\(words.dropFirst().first?.prefix(20) ?? "")\"")
                }
                let w = try numbers(line, from: 2, "weight \(c.rawValue)")
                guard w.allSatisfy({ $0.isFinite && $0 >= 0 }) else { throw line.problem("weight \(c.rawValue): a weight below 0") }
                guard weights[c] == nil else { throw line.problem("weight \(c.rawValue): said twice") }
                weights[c] = w
            case "memory":
                guard words.count == 5 + n else { throw line.problem("memory: expected KIND CLASS EVENT-ID AT and one number per input (\(n))") }
                let kind: Kind, was: SoundClass?
                let heard = file.version >= 7 && words[1].hasPrefix("heard:")
                if words[1].hasPrefix("was:") || heard {
                    let name = words[1].drop { $0 != ":" }.dropFirst()
                    guard let d = SoundClass(rawValue: String(name)) else {
                        throw line.problem("memory: no class \"\(name.prefix(20))\" (\(heard ? "heard" : "was"):CLASS)")
                    }
                    (kind, was) = (.not, d)
                } else {
                    guard let k = Kind(rawValue: String(words[1])) else {
                        if words[1].hasPrefix("heard:") { throw line.problem("memory: heard:CLASS needs format 7 (this file is format \(file.version))") }
                        throw line.problem("memory: \"\(words[1].prefix(20))\" is not not, right, was:CLASS or heard:CLASS")
                    }
                    (kind, was) = (k, nil)
                }
                guard let c = SoundClass(rawValue: String(words[2])) else { throw line.problem("memory: no class \"\(words[2])\"") }
                entries.append(Entry(kind: kind, soundClass: c, eventID: String(words[3]), at: words[4] == "-" ? nil : String(words[4]),
                                     inputs: try numbers(line, from: 5, "memory"), was: was, heard: heard))
            default:
                throw line.unknown
            }
        }
        guard sawInputs else { throw ParseError(line: 0, problem: "no inputs line: not a home memory written by somniq learn --home") }
        guard let radius, let ratio, let mean, let spread else {
            throw ParseError(line: 0, problem: "no radius, ratio, mean or spread line: the file is cut short")
        }
        guard (priorMean == nil) == (priorSpread == nil) else {
            throw ParseError(line: 0, problem: "a prior_mean line without its prior_spread, or the other way: the file is cut short")
        }
        if classes.values.contains(where: \.prior), priorMean == nil {
            throw ParseError(line: 0, problem: "a class judged by the prior, but no prior_mean and prior_spread lines: the file is cut short")
        }
        self.init(entries: entries, radius: radius, ratio: ratio, mean: mean, spread: spread, header: header)
        self.priorMean = priorMean ?? []
        self.priorSpread = priorSpread ?? []
        self.classes = classes
        self.caps = caps
        self.weights = weights
        index()
    }
}
