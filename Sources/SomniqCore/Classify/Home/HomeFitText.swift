/// The text form of a `HomeFit` (`somniq learn --home` writes it beside the home memory,
/// `home-fit.txt`; docs/home.md):
///
///     somniq-home-fit 1
///     meta <key>=<value> ...     (how it was learned: learned=<ISO 8601>, profile=, marks=, chosen_by=)
///     penalty 1
///     class cough used 1.2345 right 9 against 5 held_out_errors 3.5 1.25
///     class door unused 0.4 right 1 against 3 held_out_errors 1 2
///
///     class door unused 0 right 4 against 6 held_out_errors 6 6 layer used 0.7 -3.1 door:2.5 cough:4.2 held_out_errors 4.5
///
/// A `class` line gives the class's log-odds shift, whether the held-out marks chose it
/// (`used`) or not (`unused`), the marked events of the class and against it, and the
/// held-out errors of the shipped decision and of the fit; then, where one was fitted, its
/// layer (`HomeFit.Layer`): used or not, the line it was fitted at, its intercept, each
/// input's class and weight, and the held-out errors with it. The same marks, learned at the
/// same time, give the same text byte for byte.
extension HomeFit {
    public typealias ParseError = FormatLines.Problem

    public static let formatVersion = 1
    static let magic = "somniq-home-fit"

    public var text: String {
        var out = ["\(Self.magic) \(Self.formatVersion)"]
        for (k, v) in header { out.append("meta \(k)=\(v)") }
        out.append("penalty \(Self.number(Self.penalty))")
        for f in classes {
            out.append("class \(f.soundClass.rawValue) \(f.used ? "used" : "unused") \(Self.number(f.shift)) right \(f.right) against \(f.against) "
                + "held_out_errors \(Self.number(f.shippedErrors)) \(Self.number(f.fitErrors))"
                + (f.layer.map { l in
                    " layer \(l.used ? "used" : "unused") \(Self.number(l.line)) \(Self.number(l.weights[0])) "
                        + zip(l.inputs, l.weights.dropFirst()).map { "\($0.rawValue):\(Self.number($1))" }.joined(separator: " ")
                        + " held_out_errors \(Self.number(l.fitErrors))"
                } ?? ""))
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The shortest text that reads back as the same Double.
    static func number(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e9 ? String(Int(x)) : x.description }

    public init(text: String) throws(ParseError) {
        try self.init(FormatLines(text, magic: Self.magic, versions: Self.formatVersion...Self.formatVersion, kind: "home fit", writer: "somniq learn --home"))
    }

    private init(_ file: FormatLines) throws(ParseError) {
        var header: [(key: String, value: String)] = []
        var classes: [ClassFit] = []
        var sawPenalty = false
        for line in file.lines {
            let words = line.words
            switch line.first {
            case "meta":
                guard words.count == 2, let eq = words[1].firstIndex(of: "=") else { throw line.problem("meta: expected one KEY=VALUE") }
                header.append((String(words[1][..<eq]), String(words[1][words[1].index(after: eq)...])))
            case "penalty":
                guard words.count == 2, try line.double(1, "penalty") == Self.penalty else {
                    throw line.problem("penalty: this somniq fits with penalty \(Self.number(Self.penalty)): learn it again (somniq learn --home)")
                }
                sawPenalty = true
            case "class":
                guard words.count == 11 || words.count >= 18 && words[11] == "layer" && words[words.count - 2] == "held_out_errors",
                      words[4] == "right", words[6] == "against", words[8] == "held_out_errors" else {
                    throw line.problem("class: expected CLASS used|unused SHIFT right N against N held_out_errors SHIPPED FIT"
                                       + " [layer used|unused LINE INTERCEPT CLASS:WEIGHT... held_out_errors ERRORS]")
                }
                guard let c = SoundClass(rawValue: String(words[1])) else { throw line.problem("class: no class \"\(words[1].prefix(20))\"") }
                guard !classes.contains(where: { $0.soundClass == c }) else { throw line.problem("class: \(c.rawValue) twice") }
                guard !HomeMemory.untouchable.contains(c), !HomeMemory.neverTaughtAway.contains(c) else {
                    throw line.problem("class: \(c.rawValue): a home's fit leaves the alarm and the critical classes as shipped")
                }
                guard words[2] == "used" || words[2] == "unused" else {
                    throw line.problem("class: \"\(words[2].prefix(20))\" is not used or unused")
                }
                let shift = try line.double(3, "class")
                guard shift >= 0 else {
                    throw line.problem("class: lowers \(c.rawValue): a home's fit only raises a score (its memory holds back what was marked not this)")
                }
                guard shift <= Self.maxShift else {
                    throw line.problem("class: shift \(Self.number(shift)) of \(c.rawValue) beyond \(Self.number(Self.maxShift))")
                }
                var layer: Layer?
                if words.count > 11 {
                    guard words[12] == "used" || words[12] == "unused" else {
                        throw line.problem("class: layer: \"\(words[12].prefix(20))\" is not used or unused")
                    }
                    let l = try line.double(13, "class: layer"), w0 = try line.double(14, "class: layer")
                    guard l > 0, l < 1 else { throw line.problem("class: layer: line \(Self.number(l)) is not between 0 and 1") }
                    guard w0 <= -Self.silenceMargin else {
                        throw line.problem("class: layer: intercept \(Self.number(w0)) above -\(Self.number(Self.silenceMargin)): silence would reach the line")
                    }
                    var inputs: [SoundClass] = [], weights = [w0]
                    for w in words[15..<(words.count - 2)] {
                        let parts = w.split(separator: ":", omittingEmptySubsequences: false)
                        guard parts.count == 2, let ic = SoundClass(rawValue: String(parts[0])) else {
                            throw line.problem("class: layer: \"\(w.prefix(30))\" is not CLASS:WEIGHT")
                        }
                        guard let x = Double(parts[1]), x.isFinite else { throw line.problem("class: layer: \"\(parts[1].prefix(20))\" is not a number") }
                        guard abs(x) <= Self.maxWeight else { throw line.problem("class: layer: weight \(Self.number(x)) beyond ±\(Self.number(Self.maxWeight))") }
                        inputs.append(ic)
                        weights.append(x)
                    }
                    guard inputs.count <= Self.maxInputs else { throw line.problem("class: layer: more than \(Self.maxInputs) inputs") }
                    layer = Layer(inputs: inputs, weights: weights, line: l, used: words[12] == "used", fitErrors: try line.double(words.count - 1, "class: layer"))
                }
                classes.append(ClassFit(soundClass: c, shift: shift, used: words[2] == "used", right: try line.count(5, "class"),
                                        against: try line.count(7, "class"), shippedErrors: try line.double(9, "class"),
                                        fitErrors: try line.double(10, "class"), layer: layer))
            default:
                throw line.unknown
            }
        }
        guard sawPenalty else { throw ParseError(line: 0, problem: "no penalty line: the file is cut short") }
        self.init(classes: classes, header: header)
    }

    /// When it was learned (its `learned` meta), as written.
    public var learned: String? { header.first { $0.key == "learned" }?.value }
}
