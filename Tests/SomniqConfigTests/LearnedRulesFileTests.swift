import Foundation
@testable import SomniqConfig
@testable import SomniqCore
import SomniqTestSupport
import Testing

/// The `meta KEY=VALUE` lines of the built-in learned rules.
private func meta(_ key: String) -> String? {
    LearnedRules.builtinText.split(separator: "\n").lazy.compactMap { line -> String? in
        line.hasPrefix("meta \(key)=") ? String(line.dropFirst("meta \(key)=".count)) : nil
    }.first
}

@Test func theBuiltInRulesAreRulesLearnedTxtAsTheTrainerInTheRepositoryWroteIt() throws {
    // What is embedded is the file in the repository (the build's Plugins/EmbedData) …
    let file = try String(contentsOfFile: Paths.package + "/rules/learned.txt", encoding: .utf8)
    #expect(file == LearnedRules.builtinText + "\n" || file == LearnedRules.builtinText)
    // … its trees and classes are what the trainer wrote (no hand edit) …
    let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
    let first = try #require(lines.firstIndex { $0.hasPrefix("class ") })
    let body = lines[first...].joined(separator: "\n")
    #expect(SHA256.hex(Array(body.utf8)) == meta("body_sha256"), "rules/learned.txt was edited after tools/learn/train.py wrote it")
    // … and the trainer that wrote it is the one in the repository (tools/learn/train.py TRAINER_FILES).
    var trainer: [UInt8] = []
    for path in ["tools/learn/material.py", "tools/learn/train.py", "tools/learn/network.py", "tools/learn/requirements.txt"] {
        trainer += Array(path.utf8) + [0]
        trainer += Array(try Data(contentsOf: URL(fileURLWithPath: Paths.package + "/" + path)))
    }
    #expect(SHA256.hex(trainer) == meta("trainer_sha256"), "the trainer changed since the rules were fitted: re-fit them (make learn)")
}

@Test func theBuiltInNetworkComputesWhatTheTrainerComputedOnTheDemoNight() throws {
    // rules/network-check.tsv: the trainer's own outputs (tools/learn/network.py, JAX) from the
    // log-mel rows somniq computed for each window of the demo night, 0 where a window does
    // not stand out of the floor. somniq's (SpectrogramNet.swift) must agree to 1e-5, well
    // below what moves a tree's split.
    let net = try #require(LearnedRules.builtin?.network, "the built-in rules have no network")
    let check = try String(contentsOfFile: Paths.package + "/rules/network-check.tsv", encoding: .utf8)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
    let r = try somniq("features", "--inputs", Paths.demoNight)
    #expect(r.status == 0)
    let rows = r.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
    let columns = net.classes.map { c in (c, rows[0].firstIndex(of: "n_\(c.rawValue)@0")!, check[0].firstIndex(of: "n_\(c.rawValue)")!) }
    #expect(rows.count == check.count && rows.count > 300)
    var worst = 0.0, heard = 0
    for (row, expected) in zip(rows.dropFirst(), check.dropFirst()) {
        #expect(row[0] == expected[0])
        for (_, ours, theirs) in columns {
            worst = max(worst, abs(Double(row[ours])! - Double(expected[theirs])!))
        }
        if columns.contains(where: { Double(row[$0.1])! != 0 }) { heard += 1 }
    }
    #expect(worst < 1e-5, "somniq's network differs from the trainer's by \(worst)")
    #expect(heard > 50)
}

@Test func aFileOfLearnedRulesThatCannotBeUsedIsRefusedNamingTheFile() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let bad = dir + "/rules\u{1b}[31m.txt"
    try "somniq-learned-rules 1\ninputs 1 0\n".write(toFile: bad, atomically: true, encoding: .utf8)
    let r = try somniq("eval", "--learned-rules", bad, Paths.fixtures + "/demo-night.flac")
    #expect(r.status == 65)
    #expect(r.stderr == "somniq: \(dir)/rules\\x{1b}[31m.txt: line 2: the rules were fitted on other inputs than this somniq computes; re-fit them (make learn)\n")
    let missing = try somniq("rules", "show", "speech", "--learned-rules", dir + "/none.txt")
    #expect(missing.status == 65)
    #expect(missing.stderr == "somniq: \(dir)/none.txt: cannot open the learned rules: No such file or directory\n")
}

@Test func rulesShowPrintsAClassesTreesAndRefusesAClassItsDetectorDecides() throws {
    let speech = try somniq("rules", "show", "speech")
    #expect(speech.status == 0)
    #expect(speech.stdout.contains("\ntree 1\n  if "))
    let alarm = try somniq("rules", "show", "smoke_alarm")
    #expect(alarm.status == 65)
    #expect(alarm.stderr == "somniq: smoke_alarm has no learned rule: its hand rule decides it (Sources/SomniqCore/Classify/Rules/)\n")
    let inputs = try somniq("rules", "inputs")
    #expect(inputs.stdout == LearnedInputs.names.joined(separator: "\n") + "\n")
}

@Test func anEventALearnedRuleOpensNamesTheThreeInputsThatWeighedMostInItsTrace() throws {
    let r = try somniq("replay", "--format", "jsonl", Paths.demoNight)
    let starts = r.stdout.split(separator: "\n").filter { $0.contains("\"event_start\"") }
    let builtin = try #require(LearnedRules.builtin)
    var learnedSeen = 0
    for line in starts {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let c = try #require(SoundClass(rawValue: json["class"] as? String ?? ""))
        let trace = try #require(json["trace"] as? [String: Any])
        let weights = trace["learned"] as? [[String: Any]]
        #expect((weights != nil) == builtin.decides(c), "\(c.rawValue): a learned trace only where a learned rule decides")
        if let weights {
            learnedSeen += 1
            #expect(weights.count == 3)
            #expect(weights.allSatisfy { LearnedInputs.names.contains($0["input"] as? String ?? "") })
        }
    }
    #expect(learnedSeen > 0, "the demo night has a sound a learned rule decides (its voice)")
}

@Test func aSessionStartNamesTheLearnedRulesInUseAndTheClassesTheyDecide() throws {
    func learnedRules(_ arguments: String...) throws -> [String: Any] {
        let r = try somniq(["replay", "--format", "jsonl"] + arguments + [Paths.demoNight])
        let first = try #require(r.stdout.split(separator: "\n").first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        return try #require(json["learned_rules"] as? [String: Any])
    }
    let builtin = try #require(LearnedRules.builtin)
    let shipped = try learnedRules()
    #expect(shipped["sha256"] as? String == meta("body_sha256"))
    #expect(shipped["decides"] as? [String] == LearnedRules.candidates.filter { builtin.decides($0) }.map(\.rawValue))
    #expect(try learnedRules("--decide-by", "hand")["decides"] as? [String] == [])
}

/// `--learned-rules` naming a FIFO fails at once, naming the file, in every command that
/// takes it (the probe's: replay, features and rules list waited for a writer forever).
@Test func aFIFONamedAsTheLearnedRulesIsRefusedAtOnce() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let fifo = dir + "/rules.txt"
    #expect(mkfifo(fifo, 0o600) == 0)
    let message = "\(fifo): is not a regular file (a device, a FIFO or a socket); give a file of learned rules (tools/learn/train.py writes one)"
    withoutWaiting(on: fifo) {
        do {
            _ = try LearnedRulesFile.read(path: fifo, use: .shipped)
            Issue.record("a FIFO was read as learned rules")
        } catch { #expect("\(error)" == message) }
    }
    for command in [["replay", Paths.demoNight], ["features", Paths.demoNight], ["rules", "list"]] {
        let r = try runProgram("/usr/bin/timeout", ["30", Paths.somniq] + command + ["--learned-rules", fifo])
        #expect(r.status == 65 && r.stderr == "somniq: \(message)\n", "\(command): \(r.status) \(r.stderr)")
    }
}

/// A file whose `body_sha256` is not the digest of its classes and trees (a digest
/// edited, or trees edited after the trainer wrote them) is refused, naming the file, the
/// digest it records and the one its body has, and what to do.
@Test func aBodyDigestThatIsNotTheBodysIsAnErrorNamingBothDigests() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = try String(contentsOfFile: Paths.package + "/rules/learned.txt", encoding: .utf8)
    let recorded = try #require(meta("body_sha256"))
    func refusal(_ file: String, expected: String, actual: String) -> String {
        "somniq: \(file): body_sha256 is \(expected), but its classes and trees hash to \(actual): they were changed after "
            + "tools/learn/train.py wrote them; write the file again with the trainer, or put back the lines that were changed\n"
    }
    // The file as the trainer wrote it is taken.
    let same = dir + "/same.txt"
    try text.write(toFile: same, atomically: true, encoding: .utf8)
    #expect(try somniq("rules", "list", "--learned-rules", same).status == 0)

    let zeros = String(repeating: "0", count: 64)
    let digest = dir + "/digest.txt"
    try text.replacingOccurrences(of: "body_sha256=\(recorded)", with: "body_sha256=\(zeros)").write(toFile: digest, atomically: true, encoding: .utf8)
    let r = try somniq("rules", "list", "--learned-rules", digest)
    #expect(r.status == 65 && r.stderr == refusal(digest, expected: zeros, actual: recorded), "\(r.stderr)")

    // One leaf of the first tree changed, the recorded digest kept.
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let leaf = try #require(lines.firstIndex { $0.hasPrefix("l ") })
    lines[leaf] = "l 9.5"
    let edited = lines.joined(separator: "\n")
    let first = try #require(lines.firstIndex { $0.hasPrefix("class ") })
    let actual = SHA256.hex(Array(lines[first...].joined(separator: "\n").utf8))
    let trees = dir + "/trees.txt"
    try edited.write(toFile: trees, atomically: true, encoding: .utf8)
    for command in [["rules", "list"], ["replay", Paths.demoNight]] {
        let e = try somniq(command + ["--learned-rules", trees])
        #expect(e.status == 65 && e.stderr == refusal(trees, expected: recorded, actual: actual), "\(command): \(e.stderr)")
    }
}

/// A copy of rules/learned.txt with CRLF line ends (passed through a Windows editor or
/// mail) holds the same rules: its digest is over the lines the trainer hashed, each
/// ended by "\n", and it loads as the original does.
@Test func aRulesFileWithCRLFLineEndsLoadsWithTheSameRules() throws {
    let dir = temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let text = try String(contentsOfFile: Paths.package + "/rules/learned.txt", encoding: .utf8)
    let crlf = dir + "/learned-crlf.txt"
    try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: URL(fileURLWithPath: crlf))
    #expect(try String(contentsOfFile: crlf, encoding: .utf8).utf8.filter { $0 == 0x0D }.count > 100)
    #expect(LearnedRules.bodyDigest(of: text.replacingOccurrences(of: "\n", with: "\r\n")) == meta("body_sha256"))
    let original = try LearnedRulesFile.read(path: Paths.package + "/rules/learned.txt", use: .shipped)
    let copy = try LearnedRulesFile.read(path: crlf, use: .shipped)
    func summary(_ r: LearnedRules) -> [String] {
        r.header.map { "\($0.key)=\($0.value)" } + LearnedRules.candidates.map { c in
            guard let rule = r.rule(for: c) else { return "\(c.rawValue): none" }
            return "\(c.rawValue): \(rule.ships) \(rule.cutoff) \(rule.trees) \(rule.splits()) \(rule.figures.map { "\($0.key)=\($0.value)" })"
        }
    }
    #expect(summary(copy) == summary(original))
    #expect(copy.digest == original.digest && copy.network?.classes == original.network?.classes)
    let shown = try somniq("rules", "show", "dog_bark", "--learned-rules", crlf)
    let builtin = try somniq("rules", "show", "dog_bark")
    #expect(shown.status == 0 && shown.stdout == builtin.stdout, "\(shown.stderr)")
}

/// docs/learned-rules.md is the format's specification: its example is read by somniq's
/// reader as the page says, its digest is its body's, and its trees sum as the page sums them.
@Test func theSpecificationsExampleReadsAsThePageSays() throws {
    let page = try String(contentsOfFile: Paths.package + "/docs/learned-rules.md", encoding: .utf8)
    let after = try #require(page.range(of: "<!-- learned-rules example -->\n```\n"))
    let example = String(page[after.upperBound...].prefix { $0 != "`" })
    let rules = try LearnedRules(text: example)
    let cough = try #require(rules.rule(for: .cough))
    #expect(cough.ships && cough.cutoff == -0.5 && cough.trees == 2 && cough.splits() == 2)
    #expect(cough.figures.map(\.key) == ["rounds", "cv_hand", "cv_learned"])
    #expect(rules.decides(.cough) && LearnedRules.candidates.filter { $0 != .cough }.allSatisfy { rules.rule(for: $0) == nil })
    #expect(rules.network == nil && rules.header.map(\.key) == ["material", "body_sha256"])
    #expect(rules.digest == LearnedRules.bodyDigest(of: example))
    var x = [Float](repeating: 0, count: LearnedInputs.count)
    x[LearnedInputs.names.firstIndex(of: "h_cough")!] = 0.5
    x[LearnedInputs.names.firstIndex(of: "flat@0")!] = 0.1
    #expect(x.withUnsafeBufferPointer { cough.margin($0) } == 0.125)
}
