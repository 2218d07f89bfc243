import Foundation
import Testing
import SomniqCore
@testable import SomniqIO

/// `somniq eval` must agree with the sed_eval Python package (SPEC §9) on the dev corpus:
/// the same detections, scored by both, give the same numbers to within 0.001.
@Suite(.enabled(if: Paths.corpusPresent, "needs ../shared/corpus beside the clone"))
struct EvalAgreementTests {
    /// The virtualenv `make sedeval` makes, with sed_eval from PyPI.
    static let python = Paths.package + "/.build/sedeval/bin/python"

    @Test func somniqEvalAgreesWithSedEval() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python),
                     "no sed_eval virtualenv at \(Self.python): run `make sedeval`")
        let dir = temporaryDirectory()
        let scenes = Paths.corpus + "/scenes", quiet = Paths.corpus + "/quiet"
        let ours = try somniq("eval", "--json", "--estimates", dir, scenes, quiet)
        #expect(ours.status == 0, "\(ours.stderr)")
        guard case let .array(results) = try JSONValue(parsing: ours.stdout), let result = results.first else {
            Issue.record("no JSON from somniq eval"); return
        }

        var pairs: [String] = []
        for folder in [scenes, quiet] {
            for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".tsv") {
                pairs += [folder + "/" + file, dir + "/" + file]
            }
        }
        let reference = try runProgram(Self.python, [Paths.package + "/scripts/sed_eval_reference.py",
                                                     "--labels", Evaluator.labels.joined(separator: ",")] + pairs)
        #expect(reference.status == 0, "\(reference.stderr)")
        let sed = try JSONValue(parsing: reference.stdout)

        func close(_ a: JSONValue?, _ b: JSONValue?, _ what: String) {
            switch (a, b) {
            case (.null?, .null?): break
            case let (.number(x)?, .number(y)?): #expect(abs(x - y) <= 0.001, "\(what): somniq \(x), sed_eval \(y)")
            default: Issue.record("\(what): somniq \(a?.compactText ?? "missing"), sed_eval \(b?.compactText ?? "missing")")
            }
        }
        for label in Evaluator.labels {
            for (ourKind, sedKind) in [("segment", "segment_based"), ("event", "event_based")] {
                for score in ["precision", "recall", "f1"] {
                    close(result["classes"]?[label]?[ourKind]?[score], sed[sedKind]?["class_wise"]?[label]?[score],
                          "\(label) \(ourKind) \(score)")
                }
            }
        }
        for (ourKind, sedKind) in [("segment_macro", "segment_based"), ("event_macro", "event_based")] {
            for score in ["precision", "recall", "f1"] {
                close(result[ourKind]?[score], sed[sedKind]?["class_wise_average"]?[score], "\(ourKind) \(score)")
            }
        }
        for (ourKind, sedKind) in [("segment_overall", "segment_based"), ("event_overall", "event_based")] {
            close(result[ourKind]?["f1"], sed[sedKind]?["overall"]?["f1"], "\(ourKind) f1")
        }
    }
}
