extension LearnedRules {
    /// `rules/learned.txt` read at build time (`scripts/learned-rules-form.py`, which
    /// Plugins/EmbedData runs with python3, into `builtinForm`): the trees' nodes and the network's weights as
    /// the bits of their Floats, so that the built-in rules are ready at start without
    /// reading 16,000 lines of text. The numbers are the text's reader's (`LearnedRules(text:)`),
    /// bit for bit (`LearnedRulesTests`).
    struct Form: Sendable {
        struct Class: Sendable {
            let name: String
            let ships: Bool
            /// The cutoff's bits.
            let cutoff: UInt32
            /// Its nodes (from the end of the class before it in `nodes`) and trees (in `roots`).
            let nodes: Int, trees: Int
            let figures: [(key: String, value: String)]
        }

        /// The inputs the rules were fitted on: their count and the SHA-256 of their names.
        let inputs: Int, inputsDigest: String
        let header: [(key: String, value: String)]
        let classes: [Class]
        /// The inputs the splits name, in the order the file first names them.
        let names: [String]
        let networkClasses: [String]?
        /// Each layer's inputs, outputs, kernel, dilation and pool.
        let layers: [[Int]]
        /// Four words a node, each class's in turn: the index in `names` of a split's input
        /// (`UInt32.max` for a leaf), its right child's index in its class (or `UInt32.max`),
        /// the threshold's bits and the value's.
        let nodes: [UInt32]
        /// Each class's trees' first nodes, as indices in the class.
        let roots: [UInt32]
        /// Each layer's weights and biases in turn, then the head's.
        let weights: [UInt32]
    }

    /// The rules of a form, which the build made from a file the text's reader reads.
    init(form: Form, use: Use = .shipped) {
        guard form.inputs == LearnedInputs.count && form.inputsDigest == Self.inputsDigest else {
            fatalError("rules/learned.txt, built into somniq: the rules were fitted on other inputs than this somniq computes; re-fit them (make learn)")
        }
        var index: [String: Int32] = [:]
        for (i, name) in LearnedInputs.names.enumerated() { index[name] = Int32(i) }
        let features = form.names.map { name -> Int32 in
            guard let f = index[name] else { fatalError("rules/learned.txt, built into somniq: unknown input '\(name)'") }
            return f
        }
        func floats(_ words: ArraySlice<UInt32>) -> [Float] { words.map { Float(bitPattern: $0) } }
        var rules = [ClassRule?](repeating: nil, count: SoundClass.allCases.count)
        var node = 0, root = 0
        for c in form.classes {
            guard let sound = SoundClass(rawValue: c.name) else { fatalError("rules/learned.txt, built into somniq: unknown class '\(c.name)'") }
            let nodes = (node..<node + c.nodes).map { k in
                let w = 4 * k
                let f = form.nodes[w]
                return Node(feature: f == .max ? -1 : features[Int(f)], right: Int32(bitPattern: form.nodes[w + 1]),
                            threshold: Float(bitPattern: form.nodes[w + 2]), value: Float(bitPattern: form.nodes[w + 3]))
            }
            rules[sound.index] = ClassRule(soundClass: sound, ships: c.ships, cutoff: Float(bitPattern: c.cutoff), figures: c.figures,
                                           nodes: nodes, roots: form.roots[root..<root + c.trees].map { Int32($0) })
            node += c.nodes
            root += c.trees
        }
        if let names = form.networkClasses {
            var at = 0
            func next(_ n: Int) -> [Float] { defer { at += n }; return floats(form.weights[at..<at + n]) }
            let convs = form.layers.map { s -> SpectrogramNet.Conv in
                let n = s[1] * s[0] * s[2]
                return .init(inputs: s[0], outputs: s[1], kernel: s[2], dilation: s[3], pool: s[4], weights: next(n), bias: next(s[1]))
            }
            let classes = names.map { SoundClass(rawValue: $0)! }
            let head = next(classes.count * 2 * (convs.last?.outputs ?? 0))
            do { network = try SpectrogramNet(classes: classes, convs: convs, head: head, headBias: next(classes.count)) } catch {
                fatalError("rules/learned.txt, built into somniq: the network: \(error.problem)")
            }
        } else {
            network = nil
        }
        self.rules = rules
        self.use = use
        self.header = form.header
    }
}
