import Foundation
@testable import SomniqSession
import SomniqTestSupport
import Testing
import SomniqCore

/// `somniq eval` must agree with the sed_eval Python package (docs/behaviour.md#quality): the same
/// detections, scored by both, give the same numbers to within 0.001. On the demo night
/// (in every clone) and on the dev corpus's scenes and quiet night (where corpus tests run).
struct EvalAgreementTests {
    /// The virtualenv `make sedeval` makes, with sed_eval from PyPI.
    static let python = Paths.sedevalPython

    /// Sets of recordings: what `eval` is given, and each label file in them.
    static var sets: [[String]] {
        [[Paths.demoNight]] + (Paths.corpusTestsRun ? [[Paths.corpus + "/scenes", Paths.corpus + "/quiet"]] : [])
    }

    @Test(arguments: sets)
    func somniqEvalAgreesWithSedEval(paths: [String]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python),
                     "no sed_eval virtualenv at \(Self.python): run `make sedeval`")
        let dir = temporaryDirectory()
        let ours = try somniq(["eval", "--json", "--estimates", dir] + paths)
        #expect(ours.status == 0, "\(ours.stderr)")
        guard case let .array(results) = try JSONValue(parsing: ours.stdout), let result = results.first else {
            Issue.record("no JSON from somniq eval"); return
        }

        var pairs: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let labels = isDirectory.boolValue
                ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().filter { $0.hasSuffix(".tsv") }.map { path + "/" + $0 }
                : [(path as NSString).deletingPathExtension + ".tsv"]
            for label in labels { pairs += [label, dir + "/" + (label as NSString).lastPathComponent] }
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
