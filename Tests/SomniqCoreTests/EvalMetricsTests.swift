import Testing
@testable import SomniqCore

// Every expected number below was computed with sed_eval 0.2.1 (dcase_util 0.2.20):
// SegmentBasedMetrics(labels, time_resolution=1.0) and EventBasedMetrics(labels, t_collar=1.0,
// percentage_of_length=0.5, evaluate_onset=True, evaluate_offset=False).

private func e(_ onset: Double, _ offset: Double, _ label: String = "cough") -> LabeledEvent {
    LabeledEvent(onset: onset, offset: offset, label: label)
}

private typealias File = (reference: [LabeledEvent], estimated: [LabeledEvent])

private func segments(_ files: [File], labels: [String] = ["cough"]) throws -> SegmentBasedMetrics {
    var m = try SegmentBasedMetrics(labels: labels)
    for f in files { try m.add(reference: f.reference, estimated: f.estimated) }
    return m
}

private func events(_ files: [File], labels: [String] = ["cough"]) throws -> EventBasedMetrics {
    var m = try EventBasedMetrics(labels: labels)
    for f in files { try m.add(reference: f.reference, estimated: f.estimated) }
    return m
}

private func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-12 }

// MARK: event-based

@Test func estimateWithinTheOnsetCollarMatches() throws {
    let late09 = try events([([e(10, 12)], [e(10.9, 12)])]).classWise["cough"]
    let early09 = try events([([e(10, 12)], [e(9.1, 9.5)])]).classWise["cough"]
    let exactly1 = try events([([e(10, 12)], [e(11, 12)])]).classWise["cough"]
    let tenths = try events([([e(10.1, 12)], [e(11.1, 12)])]).classWise["cough"]
    #expect(late09 == ClassCounts(tp: 1, fp: 0, fn: 0))
    #expect(early09 == ClassCounts(tp: 1, fp: 0, fn: 0))
    #expect(exactly1 == ClassCounts(tp: 1, fp: 0, fn: 0))      // |Δ| ≤ collar, boundary included
    #expect(tenths == ClassCounts(tp: 1, fp: 0, fn: 0))        // 11.1 − 10.1 in floating point
}

@Test func estimateOutsideTheCollarIsAFalsePositiveAndAMiss() throws {
    let m = try events([([e(10, 12)], [e(11.1, 12)])])
    #expect(m.classWise["cough"] == ClassCounts(tp: 0, fp: 1, fn: 1))
    #expect(m.classWiseAverage.f1 == 0 && m.classWiseAverage.precision == 0)
}

@Test func offsetsAreIgnoredByOnsetOnlyMatching() throws {
    #expect(try events([([e(10, 12)], [e(10.5, 30)])]).classWise["cough"] == ClassCounts(tp: 1))
}

@Test func twoEstimatesForOneReferenceGiveOneTruePositive() throws {
    let c = try events([([e(10, 12)], [e(10.2, 11), e(10.6, 12.5)])]).classWise["cough"]!
    #expect(c == ClassCounts(tp: 1, fp: 1, fn: 0))
    #expect(c.precision == 0.5 && c.recall == 1 && close(c.f1, 2.0 / 3.0))
}

@Test func matchingIsMaximumNotGreedy() throws {
    // 1.9 is within the collar of both references, 0.5 only of the first: a greedy pass that
    // gives 1.9 to the first reference finds one hit; sed_eval's optimal matching finds two.
    let c = try events([([e(1, 2), e(2.5, 3)], [e(1.9, 2.2), e(0.5, 1)])]).classWise["cough"]
    #expect(c == ClassCounts(tp: 2, fp: 0, fn: 0))
}

@Test func anEstimateOfAnotherClassDoesNotMatch() throws {
    let m = try events([([e(10, 12)], [e(10, 12, "speech")])], labels: ["cough", "speech"])
    #expect(m.classWise["cough"] == ClassCounts(tp: 0, fp: 0, fn: 1))
    #expect(m.classWise["speech"] == ClassCounts(tp: 0, fp: 1, fn: 0))
    #expect(m.overall.f1 == 0)
}

@Test func aLongChainOfOverlappingCollarsStillMatchesEveryEvent() throws {
    // Estimate k is within the collar of references k, k+1 and k+2, so the search for each
    // reference runs back along the whole chain: deep, but iterative.
    let refs = (0..<600).map { e(Double($0) * 0.6, Double($0) * 0.6 + 0.1) }
    let ests = (0..<600).map { e(Double($0) * 0.6 + 0.55, Double($0) * 0.6 + 0.7) }
    #expect(try events([(refs, ests)]).classWise["cough"] == ClassCounts(tp: 600))
}

// MARK: segment-based

@Test func aTwoAndAHalfSecondEventSpansThreeOrFourSegments() throws {
    // 0.5–3.0 s marks segments 0, 1, 2 (floor of the onset, ceil of the offset);
    // an estimate at 1.2–2.4 s marks 1, 2.
    let three = try segments([([e(0.5, 3.0)], [e(1.2, 2.4)])]).classWise["cough"]!
    #expect(three == ClassCounts(tp: 2, fp: 0, fn: 1))
    #expect(three.nref == 3 && three.nsys == 2 && close(three.f1, 0.8))
    #expect(try segments([([e(0.7, 3.2)], [e(0.7, 3.2)])]).classWise["cough"] == ClassCounts(tp: 4))
}

@Test func aSegmentCountsOnceHoweverManyEventsTouchIt() throws {
    // References 0–2 and 1–3 mark segments 0, 1, 2 once each.
    #expect(try segments([([e(0, 2), e(1, 3)], [e(0.5, 1.5)])]).classWise["cough"] == ClassCounts(tp: 2, fn: 1))
}

@Test func aFileLastsUntilTheLatestOffsetOfEitherList() throws {
    // Background-only reference; the estimate 3.2–5.7 s marks segments 3, 4, 5 of 6.
    let m = try segments([([], [e(3.2, 5.7)])])
    #expect(m.classWise["cough"] == ClassCounts(tp: 0, fp: 3, fn: 0))
    #expect(m.evaluatedSeconds == 5.7)
    #expect(m.classWise["cough"]!.precision == 0 && m.classWise["cough"]!.recall.isNaN)
}

@Test func anEvaluatedLengthCutsOrPadsTheFile() throws {
    var m = try SegmentBasedMetrics(labels: ["cough"])
    try m.add(reference: [e(0, 2)], estimated: [e(0, 6)], evaluatedLength: 3.5)   // segments 0–3
    #expect(m.classWise["cough"] == ClassCounts(tp: 2, fp: 2, fn: 0))
    #expect(m.evaluatedSeconds == 3.5)
}

@Test func resolutionSetsTheSegmentLength() throws {
    var m = try SegmentBasedMetrics(labels: ["cough"], resolution: 0.5)
    try m.add(reference: [e(0.5, 3.0)], estimated: [e(1.2, 2.4)])   // 1…5 against 2…4
    #expect(m.classWise["cough"] == ClassCounts(tp: 3, fp: 0, fn: 2))
}

// MARK: both, and the averages

@Test func classesWithoutReferenceOrEstimateAreLeftOutOfTheAverage() throws {
    // sed_eval 0.2 gives NaN (no eps) where a ratio has no denominator, and averages the
    // classes with numpy.nanmean: snoring and speech (nothing at all) and door (estimated,
    // never in the reference) have NaN F1 and do not count in the class-wise average F1.
    let labels = ["cough", "snoring", "speech", "door"]
    let file: File = ([e(0, 2)], [e(0, 1), e(4, 5, "door")])
    let s = try segments([file], labels: labels), v = try events([file], labels: labels)
    #expect(s.classWise["snoring"] == ClassCounts() && s.classWise["snoring"]!.f1.isNaN)
    #expect(s.classWise["door"]!.precision == 0 && s.classWise["door"]!.f1.isNaN)
    #expect(s.classWise["cough"] == ClassCounts(tp: 1, fp: 0, fn: 1))
    #expect(close(s.classWiseAverage.f1, 2.0 / 3.0))
    #expect(s.classWiseAverage.precision == 0.5 && s.classWiseAverage.recall == 0.5)
    #expect(s.overall == ClassCounts(tp: 1, fp: 1, fn: 1) && s.overall.f1 == 0.5)
    #expect(v.classWiseAverage.f1 == 1 && v.classWiseAverage.precision == 0.5 && v.classWiseAverage.recall == 1)
    #expect(close(v.overall.f1, 2.0 / 3.0))
}

@Test func aMissedClassHasZeroRecallButNoF1() throws {
    let m = try events([([e(10, 12)], [e(10, 12, "speech")])], labels: ["cough", "speech"])
    let cough = m.classWise["cough"]!
    #expect(cough.recall == 0 && cough.precision.isNaN && cough.f1.isNaN)
    #expect(m.classWiseAverage.recall == 0 && m.classWiseAverage.precision == 0 && m.classWiseAverage.f1.isNaN)
}

@Test func filesAccumulateAndNeverMatchAcrossABoundary() throws {
    // File 2's estimate at 5 s is far from its own reference at 0 s; file 1's hit stays a hit.
    let files: [File] = [([e(0, 1)], [e(0, 1)]), ([e(0, 1)], [e(5, 6)])]
    let s = try segments(files), v = try events(files)
    #expect(s.classWise["cough"] == ClassCounts(tp: 1, fp: 1, fn: 1) && s.files == 2)
    #expect(v.classWise["cough"] == ClassCounts(tp: 1, fp: 1, fn: 1) && v.files == 2)
    #expect(s.classWiseAverage.f1 == 0.5 && v.classWiseAverage.f1 == 0.5)
    #expect(s.evaluatedSeconds == 7)
}

@Test func aSmallNightAgreesWithSedEval() throws {
    let labels = ["cough", "door", "smoke_alarm", "snoring", "scream"]
    let files: [File] = [
        ([e(4.46, 11.16, "smoke_alarm"), e(15.38, 38.02, "snoring"), e(42.7, 43.38, "door"),
          e(48.4, 50.12), e(51.0, 51.6)],
         [e(5.3, 12.0, "smoke_alarm"), e(16.5, 30.0, "snoring"), e(31.0, 38.5, "snoring"),
          e(42.0, 43.0, "door"), e(48.9, 49.5), e(49.2, 50.0), e(55.0, 56.0, "door")]),
        ([e(2.0, 2.4), e(7.75, 9.1, "door"), e(20.0, 60.0, "snoring")],
         [e(2.95, 3.3), e(20.5, 58.0, "snoring"), e(61.0, 62.0, "smoke_alarm")]),
        ([], [e(10.0, 11.5)]),
    ]
    let s = try segments(files, labels: labels), v = try events(files, labels: labels)
    #expect(labels.map { s.classWise[$0]! } == [
        ClassCounts(tp: 3, fp: 3, fn: 2), ClassCounts(tp: 1, fp: 1, fn: 4), ClassCounts(tp: 7, fp: 1, fn: 1),
        ClassCounts(tp: 60, fp: 0, fn: 4), ClassCounts(),
    ])
    #expect(close(s.classWiseAverage.f1, 0.6684776916631756))
    #expect(close(s.classWiseAverage.precision, 0.71875) && close(s.classWiseAverage.recall, 0.653125))
    #expect(close(s.overall.f1, 0.8987341772151899))
    #expect(labels.map { v.classWise[$0]! } == [
        ClassCounts(tp: 2, fp: 2, fn: 1), ClassCounts(tp: 1, fp: 1, fn: 1), ClassCounts(tp: 1, fp: 1, fn: 0),
        ClassCounts(tp: 1, fp: 2, fn: 1), ClassCounts(),
    ])
    #expect(close(v.classWiseAverage.f1, 0.5345238095238095))
    #expect(close(v.classWiseAverage.precision, 0.4583333333333333) && close(v.classWiseAverage.recall, 2.0 / 3.0))
    #expect(close(v.overall.f1, 0.5263157894736842))
}

@Test func metricsRejectWrongParameters() {
    #expect(throws: EvalError.nonPositiveResolution(0)) { try SegmentBasedMetrics(labels: ["cough"], resolution: 0) }
    #expect(throws: EvalError.nonPositiveCollar(-1)) { try EventBasedMetrics(labels: ["cough"], collar: -1) }
    #expect(throws: EvalError.duplicateLabel("cough")) { try EventBasedMetrics(labels: ["cough", "door", "cough"]) }
    #expect(throws: EvalError.invalidLength(-1)) {
        var m = try SegmentBasedMetrics(labels: ["cough"])
        try m.add(reference: [], estimated: [], evaluatedLength: -1)
    }
}

@Test func metricsRejectUnknownClassesAndBadTimesWithoutCounting() throws {
    var s = try SegmentBasedMetrics(labels: ["cough"])
    var v = try EventBasedMetrics(labels: ["cough"])
    let unknown = EvalError.unknownLabel("fan", side: .estimated, labels: ["cough"])
    #expect(throws: unknown) { try s.add(reference: [e(0, 1)], estimated: [e(0, 1, "fan")]) }
    #expect(throws: unknown) { try v.add(reference: [e(0, 1)], estimated: [e(0, 1, "fan")]) }
    #expect(throws: EvalError.invalidTimes(e(3, 2), side: .reference)) { try v.add(reference: [e(3, 2)], estimated: []) }
    #expect(throws: EvalError.invalidTimes(e(-1, 2), side: .reference)) { try s.add(reference: [e(-1, 2)], estimated: []) }
    #expect(s.files == 0 && v.files == 0 && s.classWise["cough"] == ClassCounts())
    #expect(unknown.description == "estimated class \"fan\" is not one of the evaluated classes (cough)")
}

// MARK: label files

@Test func labelFileReadsTabSeparatedLinesAndSkipsBlankOnes() throws {
    let text = "4.460\t11.160\tsmoke_alarm\r\n\n15.38 \t 38.02\tsnoring \n  \n42\t42\tdoor\n"
    #expect(try LabelFile.parse(text, name: "night.tsv") == [
        e(4.46, 11.16, "smoke_alarm"), e(15.38, 38.02, "snoring"), e(42, 42, "door"),
    ])
    #expect(try LabelFile.parse("", name: "background.tsv").isEmpty)
    #expect(try LabelFile.parse("\n", name: "background.tsv").isEmpty)
}

@Test func labelFileErrorsNameTheLine() {
    func problem(_ text: String) -> String? {
        do { _ = try LabelFile.parse(text, name: "night.tsv"); return nil } catch { return error.description }
    }
    let ok = "1\t2\tcough\n"
    #expect(problem(ok + "\n3\t4\n") == "night.tsv:3: expected onset<TAB>offset<TAB>class, found 2 fields")
    #expect(problem("1 2 cough") == "night.tsv:1: expected onset<TAB>offset<TAB>class, found 1 field")
    #expect(problem("1\t2\tcough\t0.9") == "night.tsv:1: expected onset<TAB>offset<TAB>class, found 4 fields")
    #expect(problem(ok + "onset\toffset\tclass") == "night.tsv:2: onset \"onset\" is not a number")
    #expect(problem(ok + "1\tlate\tcough") == "night.tsv:2: offset \"late\" is not a number")
    #expect(problem("inf\t2\tcough") == "night.tsv:1: onset \"inf\" is not a finite number of seconds")
    #expect(problem("-0.5\t2\tcough") == "night.tsv:1: onset -0.5 is negative")
    #expect(problem("3\t2.5\tcough") == "night.tsv:1: offset 2.5 is before onset 3")
    #expect(problem("1\t2\t ") == "night.tsv:1: the class is empty")
}

/// Label times are decimal seconds, as sed_eval and DCASE label files write them:
/// `Double(_:)` alone would read `0x10` as 16 s, and `nan` and `1e400` as numbers.
@Test func labelTimesAreDecimalNotHexadecimalNorNaNNorInfinite() throws {
    func problem(_ text: String) -> String? {
        do { _ = try LabelFile.parse(text, name: "night.tsv"); return nil } catch { return error.description }
    }
    let ok = "1\t2\tcough\n"
    #expect(problem(ok + "0x10\t20\tcough") == "night.tsv:2: onset \"0x10\" is not a decimal number of seconds (such as 12.5)")
    #expect(problem("1\t0x1p4\tcough") == "night.tsv:1: offset \"0x1p4\" is not a decimal number of seconds (such as 12.5)")
    #expect(problem("nan\t2\tcough") == "night.tsv:1: onset \"nan\" is not a finite number of seconds")
    #expect(problem("1\t1e400\tcough") == "night.tsv:1: offset \"1e400\" is not a finite number of seconds")
    #expect(problem("1\t+infinity\tcough") == "night.tsv:1: offset \"+infinity\" is not a finite number of seconds")
    #expect(problem("1.\t2\tcough") == nil && problem(".5\t2\tcough") == nil)
    #expect(try LabelFile.parse("1.5\t2.5e1\tcough\n+3\t4E0\tdoor\n0\t.25\tdog_bark", name: "night.tsv") == [
        LabeledEvent(onset: 1.5, offset: 25, label: "cough"), LabeledEvent(onset: 3, offset: 4, label: "door"),
        LabeledEvent(onset: 0, offset: 0.25, label: "dog_bark"),
    ])
    for bad in ["1e", "1e+", ".", "", "1..2", "1.2.3", "١٢", "12_0", "1,5"] { #expect(!LabelFile.isDecimal(Substring(bad)), "\(bad)") }
}

/// A label time of 1e19 s (found by the label fuzzer) is an error, not a trap: the
/// segment arrays would hold one slot per second of it.
@Test func aFileLongerThanAWeekIsAnErrorNotATrap() throws {
    var metrics = try SegmentBasedMetrics(labels: ["snoring"])
    let wild = [LabeledEvent(onset: 0, offset: 1e19, label: "snoring")]
    #expect(throws: EvalError.tooLong(1e19)) { try metrics.add(reference: wild, estimated: []) }
    #expect(metrics.files == 0)
    try metrics.add(reference: [LabeledEvent(onset: 0, offset: 7 * 86400, label: "snoring")], estimated: [])
    #expect(metrics.files == 1)
}
