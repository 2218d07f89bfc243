// libFuzzer target: a DCASE / sed_eval label file (`onset<TAB>offset<TAB>class` lines).
//
// `LabelFile.parse(_:name:audioSeconds:)` as `Evaluator.collect` calls it, for a 12-hour
// recording, then what `somniq eval` does with a label file it accepts: events of a class
// somniq does not score end it there; otherwise the events are scored as the reference
// against themselves, and against no detections, by `SegmentBasedMetrics` (1 s) and
// `EventBasedMetrics` (1 s collar), and by `AlarmCheck`. Scoring a file against itself must
// find no false positives or negatives. A file accepted with `audioSeconds` must be
// accepted, with the same events, without it. Errors the code throws are fine; a trap,
// an ASan report, a hang or a leak is a finding.
//
// Built by scripts/fuzz.sh; not part of the package build.
import SomniqCore
import SomniqSession

/// The recording the labels belong to: a long night.
private let recordingSeconds = 12.0 * 3600

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLabels(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let unbounded = try? LabelFile.parse(text, name: "fuzz.tsv")
    let events: [LabeledEvent]
    do { events = try LabelFile.parse(text, name: "fuzz.tsv", audioSeconds: recordingSeconds) } catch {
        _ = error.description
        return 0
    }
    precondition(unbounded == events, "LabelFile.parse accepts a file with audioSeconds that it refuses without")
    for e in events {
        precondition(e.onset.isFinite && e.offset.isFinite && e.onset >= 0 && e.offset >= e.onset && !e.label.isEmpty,
                     "LabelFile.parse accepted a bad event: \(e)")
    }
    // Evaluator.collect stops at a class it does not score.
    guard events.allSatisfy({ Evaluator.labels.contains($0.label) }) else { return 0 }

    do {
        var segment = try SegmentBasedMetrics(labels: Evaluator.labels)
        var event = try EventBasedMetrics(labels: Evaluator.labels)
        try segment.add(reference: events, estimated: events)
        try event.add(reference: events, estimated: events)
        precondition(segment.overall.fp == 0 && segment.overall.fn == 0, "segment-based: a file scored against itself has errors")
        precondition(event.overall.fp == 0 && event.overall.fn == 0, "event-based: a file scored against itself has errors")
        try segment.add(reference: events, estimated: [])
        try event.add(reference: events, estimated: [])
        _ = segment.classWiseAverage
        _ = event.classWiseAverage
    } catch {
        fatalError("the metrics rejected events LabelFile.parse accepted: \(error)")
    }
    var alarms = AlarmCheck()
    alarms.add(file: "fuzz.wav", reference: events, estimated: events)
    _ = alarms.missed
    _ = alarms.split
    return 0
}
