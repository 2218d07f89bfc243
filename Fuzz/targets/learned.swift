// libFuzzer target: a file of learned rules, as `--learned-rules FILE` reads one
// (`rules/learned.txt`'s format, written by tools/learn/train.py).
//
// The input bytes are written to a temporary file and read by `LearnedRulesFile.read`
// (opened without blocking, the size cap, UTF-8, `LearnedRules(text:)`, the check of
// `body_sha256` against the classes and trees), and parsed in memory by
// `LearnedRules(text:)` for every `Use`. Rules that are accepted are walked whole: every
// class's trees are written out by `describe()`, which follows each split to both of its
// children, so a child out of range or a tree that loops is a trap or a timeout here.
// A file the reader takes must parse in memory too, and its recorded digest must be its
// body's. Errors the code throws are fine; a trap, an ASan report, a hang or a leak is a
// finding. Nothing is read at start-up (the built-in rules, 2 MB, are never parsed here).
//
// Built by scripts/fuzz.sh; not part of the package build.
import Glibc
import SomniqConfig
import SomniqCore
import SomniqSupport

/// Where each input is written (Fuzz/support/InputFile.swift).
private let input = InputFile("learned", suffix: "txt")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLearned(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    input.write(data, size)
    defer { unlink(input.path) }
    let fromFile: LearnedRules?
    do { fromFile = try LearnedRulesFile.read(path: input.path, use: .shipped) } catch {
        _ = error.description
        fromFile = nil
    }
    let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var parsed: LearnedRules?
    for use in LearnedRules.Use.allCases {
        guard let text, let rules = try? LearnedRules(text: text, use: use) else { continue }
        parsed = rules
        walk(rules)
    }
    if let fromFile {
        precondition(parsed != nil, "LearnedRulesFile.read took a file that LearnedRules(text:) refuses")
        if let digest = fromFile.digest, let text {
            precondition(digest == LearnedRules.bodyDigest(of: text), "a file whose body_sha256 is not its body's was taken")
        }
        walk(fromFile)
    }
    return 0
}

/// Everything a command that lists or shows the rules reads of them.
private func walk(_ rules: LearnedRules) {
    for c in SoundClass.allCases {
        _ = rules.decides(c)
        guard let rule = rules.rule(for: c) else { continue }
        precondition(rule.soundClass == c && LearnedRules.candidates.contains(c), "\(c.rawValue)'s rule is \(rule.soundClass.rawValue)'s")
        precondition(rule.trees > 0 && rule.cutoff.isFinite, "\(c.rawValue): \(rule.trees) trees, cutoff \(rule.cutoff)")
        _ = rule.describe()
        for (key, value) in rule.figures { _ = LogText.escape(key) + LogText.escape(value) }
    }
    _ = rules.decidesAny
    for (key, value) in rules.header { _ = LogText.escape(key) + LogText.escape(value) }
}
