// libFuzzer target: an event log (JSON Lines), as `somniq report` and `somniq history` read one.
//
// The input bytes are written to a temporary file, read by `LogReader` into nights by
// `NightBuilder` (`NightReports.night(in:key:)`, its last night and the night of
// 2026-11-22), rendered by `HTMLReport` and `TextReport`, and read again by
// `History.read(logs:grouping:)` into the history's table, CSV and JSON, by week and by
// month. Every number a report draws with must be in its range once read (LogRanges): a
// level in dBFS, a time within a year of the night's start. Errors the code throws are
// fine ("no session in the log"); a trap, an ASan report, a hang (a log that sizes a
// chart or a loop) or more memory than -rss_limit_mb is a finding.
//
// Built by scripts/fuzz.sh; not part of the package build.
import Foundation
import SomniqCore
import SomniqReports
import SomniqSupport

/// Where each input is written (Fuzz/support/InputFile.swift).
private let input = InputFile("report", suffix: "jsonl")


/// What a report draws with is in range: levels in dBFS, times finite and within a year
/// (two, for a piece of the night that came after another night in the log).
private func check(_ night: Night) {
    let year = 2 * 366 * 86400.0
    for m in night.minutes {
        for v in [m.leq, m.l10, m.l90, m.lmax, m.floor] { precondition((-200...20).contains(v), "a level of \(v) dBFS in a night") }
        precondition(abs(m.start) < year && (0...3600).contains(m.seconds), "a minute at \(m.start) s of \(m.seconds) s")
    }
    for e in night.events {
        precondition(abs(e.onset) < year && abs(e.offset) < year && e.offset >= e.onset - 0.001, "an event from \(e.onset) to \(e.offset) s")
        precondition((-200...20).contains(e.peakDbfs) && (0...1).contains(e.confidence), "an event peaking at \(e.peakDbfs) dBFS, confidence \(e.confidence)")
    }
    precondition(night.span.isFinite && night.span < year && night.heard.isFinite && night.heard >= 0, "a night of \(night.span) s, \(night.heard) s heard")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    input.write(data, size)
    defer { unlink(input.path) }
    for key in [nil, "2026-11-22"] as [String?] {
        guard let night = try? NightReports.night(in: input.path, key: key) else { continue }
        check(night)
        _ = HTMLReport.render(night, version: "fuzz")
        _ = TextReport.render(night)
    }
    for grouping in [History.Grouping.week, .month] {
        guard let history = try? History.read(logs: [input.path], grouping: grouping) else { continue }
        _ = history.table()
        _ = history.csv()
        _ = history.json()
    }
    return 0
}
