import RealModule

/// Rules whose thresholds were learned from hours of labelled recordings instead of chosen
/// by hand: per class, shallow boosted trees (depth ≤ 3) over `LearnedInputs`, fitted by
/// `tools/learn/train.py` with cross-validation folds that keep each source group on one
/// side, shipped as text (`rules/learned.txt`, embedded in `BuiltinLearnedRules.swift`, and read by
/// the build into `BuiltinLearnedRulesForm.swift`) and
/// evaluated here: a walk down each tree, nothing allocated.
///
/// A class's learned rule replaces its hand rule only where the trainer found it better on
/// both the cross-validation and `check/` (its `ship` mark); `Use` can switch every class to
/// one side to compare. The alarm detector alone decides `smoke_alarm`; the snore and
/// breath trains and the breathing pause stay with their pattern detectors.
public struct LearnedRules: Sendable {
    /// The classes a learned rule may decide.
    public static let candidates = SoundClass.all(\.learned)

    /// Which rule decides each candidate class.
    public enum Use: String, Sendable, CaseIterable {
        /// Every class by its hand rule.
        case hand
        /// Every class that has a learned rule by it.
        case learned
        /// Each class by the rule the trainer shipped for it (the default).
        case shipped
    }

    /// A window whose trees sum to a class's cutoff scores this much: the default profile's
    /// `on` (balanced, 0.7), so the learned cutoff is where the balanced profile opens events.
    public static let cutoffScore: Float = 0.7

    /// One node of a tree, stored in preorder: a split's left child follows it, its right
    /// child is at `right`. A leaf has `feature == -1`.
    struct Node: Sendable {
        var feature: Int32
        var right: Int32
        /// `x <= threshold` goes left; the threshold is the largest Float at or below the
        /// file's, so a Float input compares as the trainer's double did.
        var threshold: Float
        /// A leaf's value; a split's mean value over its training windows (for the weights).
        var value: Float
    }

    /// One class's learned rule.
    public struct ClassRule: Sendable {
        public let soundClass: SoundClass
        /// Whether it replaces the hand rule in `.shipped` use.
        public let ships: Bool
        /// The sum of the trees at which the class is present.
        public let cutoff: Float
        /// What the trainer measured (`key=value` words of the file's `class` line).
        public let figures: [(key: String, value: String)]
        let nodes: [Node]
        let roots: [Int32]

        public var trees: Int { roots.count }

        /// The trees' splits, and how many of them split on an input whose name starts with
        /// `prefix` (`n_`: the spectrogram network's outputs).
        public func splits(onInputsStartingWith prefix: String = "") -> Int {
            nodes.reduce(0) { $0 + ($1.feature >= 0 && LearnedInputs.names[Int($1.feature)].hasPrefix(prefix) ? 1 : 0) }
        }

        /// The sum of the trees for one input vector.
        func margin(_ x: UnsafeBufferPointer<Float>) -> Float {
            var sum: Float = 0
            nodes.withUnsafeBufferPointer { n in
                for root in roots {
                    var i = Int(root)
                    while n[i].feature >= 0 {
                        i = x[Int(n[i].feature)] <= n[i].threshold ? i + 1 : Int(n[i].right)
                    }
                    sum += n[i].value
                }
            }
            return sum
        }

        /// The class's score in [0, 1]: `cutoffScore` at the cutoff, a logistic curve around it.
        func score(_ x: UnsafeBufferPointer<Float>) -> Float {
            let z = margin(x) - cutoff + LearnedRules.cutoffLogit
            return 1 / (1 + Float.exp(-z))
        }

        /// How much each input moved the sum for `x`: along each tree's path, a split's
        /// feature is credited with the change from the split's mean to its child's
        /// (Saabas). The `count` inputs that weighed most, heaviest first.
        func weights(_ x: UnsafeBufferPointer<Float>, count: Int) -> [Weight] {
            var credit = [Float](repeating: 0, count: x.count)
            for root in roots {
                var i = Int(root)
                while nodes[i].feature >= 0 {
                    let next = x[Int(nodes[i].feature)] <= nodes[i].threshold ? i + 1 : Int(nodes[i].right)
                    credit[Int(nodes[i].feature)] += nodes[next].value - nodes[i].value
                    i = next
                }
            }
            return credit.indices.filter { credit[$0] != 0 }
                .sorted { (abs(credit[$0]), $1) > (abs(credit[$1]), $0) }
                .prefix(count)
                .map { Weight(input: LearnedInputs.names[$0], value: Double(x[$0]), weight: Double(credit[$0])) }
        }

        /// The trees as text, with the inputs' names (`somniq rules show`).
        public func describe() -> String {
            var out = ""
            func walk(_ i: Int, _ depth: Int) {
                let pad = String(repeating: "  ", count: depth + 1)
                let n = nodes[i]
                if n.feature < 0 { out += "\(pad)→ \(format(n.value))\n"; return }
                let name = LearnedInputs.names[Int(n.feature)]
                out += "\(pad)if \(name) <= \(format(n.threshold)):\n"
                walk(i + 1, depth + 1)
                out += "\(pad)else:\n"
                walk(Int(n.right), depth + 1)
            }
            for (k, root) in roots.enumerated() {
                out += "tree \(k + 1)\n"
                walk(Int(root), 0)
            }
            return out
        }

        private func format(_ x: Float) -> String {
            let s = String(describing: x)
            return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
        }
    }

    /// One input's part in a decision.
    public struct Weight: Sendable, Equatable {
        public var input: String
        public var value: Double
        public var weight: Double

        public init(input: String, value: Double, weight: Double) {
            self.input = input
            self.value = value
            self.weight = weight
        }
    }

    static let cutoffLogit: Float = Float.log(cutoffScore / (1 - cutoffScore))

    /// Per class index; nil for a class with no learned rule.
    public let rules: [ClassRule?]
    /// The spectrogram network whose outputs are inputs of the trees (`n_<class>@k`); nil
    /// when the rules were fitted without one.
    public let network: SpectrogramNet?
    public var use: Use
    /// The first line's `# …` comment words and the header: what was fitted on what.
    public let header: [(key: String, value: String)]

    /// Whether class `c` is decided by its learned rule.
    public func decides(_ c: SoundClass) -> Bool {
        guard let rule = rules[c.index] else { return false }
        switch use {
        case .hand: return false
        case .learned: return true
        case .shipped: return rule.ships
        }
    }

    /// Whether any class is decided by a learned rule.
    public var decidesAny: Bool { SoundClass.allCases.contains { decides($0) } }

    public func rule(for c: SoundClass) -> ClassRule? { rules[c.index] }

    /// The SHA-256 of the trees and classes, as the file records it (`body_sha256`); nil when
    /// it records none.
    public var digest: String? { header.first { $0.key == "body_sha256" }?.value }
}

extension LearnedRules {
    /// The learned rules built into somniq (`rules/learned.txt`), deciding the classes they
    /// were shipped for: from the form the build read the file into (`Form`), the same rules
    /// as the text's, bit for bit. A file that does not parse is a build error the tests catch.
    public static let builtin: LearnedRules? = builtinForm.map { LearnedRules(form: $0) }
}
