import Foundation
@testable import SomniqCore
import SomniqTestSupport
import Testing

/// The learned rules' format (docs/learned-rules.md) on somniq's side, read from what the
/// trainer's writer wrote: fixtures/learned-rules/written-by-the-trainer.txt is a small cough
/// rule fitted, exported and written by tools/learn/train.py's own functions, with a network
/// as network.py starts one (tools/tests/test_learned_rules_format.py writes it, and fails
/// while the writer writes anything else; it checks it, the page's example and
/// rules/learned.txt against one checker of the page). Its margins file holds eight windows'
/// inputs and the margin train.py computes for them.
@Test func whatTheTrainersWriterWritesIsReadAsTheTrainerMeantIt() throws {
    let path = Paths.package + "/fixtures/learned-rules/written-by-the-trainer.txt"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let rules = try LearnedRules(text: text)
    let cough = try #require(rules.rule(for: .cough))
    #expect(cough.ships && cough.trees == 3 && cough.figures.map(\.key) == ["rounds", "window_f1"])
    #expect(cough.cutoff == Float(-0.48594579100608826))
    #expect(LearnedRules.candidates.filter { $0 != .cough }.allSatisfy { rules.rule(for: $0) == nil })
    #expect(rules.header.map(\.key) == ["material", "body_sha256"] && rules.digest == LearnedRules.bodyDigest(of: text))
    let net = try #require(rules.network, "the writer's network was not read")
    #expect(net.classes == LearnedRules.candidates)

    let tsv = try String(contentsOfFile: Paths.package + "/fixtures/learned-rules/written-by-the-trainer-margins.tsv", encoding: .utf8)
    let rows = tsv.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
    #expect(rows.count == 9 && rows[0] == ["h_cough", "flat@0", "s300-600@0", "margin"])
    let columns = try rows[0].dropLast().map { name in try #require(LearnedInputs.names.firstIndex(of: name), "no input \(name)") }
    for row in rows.dropFirst() {
        var x = [Float](repeating: 0, count: LearnedInputs.count)
        for (column, word) in zip(columns, row) { x[column] = try #require(Float(word)) }
        let margin = x.withUnsafeBufferPointer { cough.margin($0) }
        #expect(margin == Float(row[3])!, "somniq sums the trees to \(margin), train.py to \(row[3])")
    }

    // As a file given with --learned-rules: its digest checked, its class shown.
    let shown = try somniq("rules", "show", "cough", "--learned-rules", path)
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stdout.contains("cough"))
}
