// libFuzzer target: the index kept beside an event log (`events.jsonl.index`), as the web
// page (`somniq run` with "http", `somniq serve`) and `somniq episode add` read it.
//
// The index is derived data: whatever it says, the pages must read the log right or say
// why, never trap. Each input is written as the index of a small fixed log (two dated
// nights, one of them in two pieces, a recording without a start time, a skipped line and
// an episode, written once at start-up) and read by `LogIndex(log:indexPath:)`:
// 1. as it is (an index of another log, or no index at all: it must not be taken);
// 2. when it parses as a JSON object, with the log's path, device, inode and the bytes
//    before its `covered` set to the log's, so that the fuzzer's pieces, counts and
//    seconds are the ones judged (the probe's index: two pieces of one night with 2^62
//    sessions each, `snoring_s` 1e308). An index that is not taken must give, once
//    refreshed, the history that reading the log whole gives.
// Each time the rows, the history by night, week and month (table, CSV, JSON, HTML), the
// factors and the first nights' reports are made from it, before and after `refresh()`.
// A trap (an overflow), an ASan report, a hang or a leak is a finding.
//
// Built by scripts/fuzz.sh; not part of the package build.
import Foundation
import SomniqCore
import SomniqReports
import SomniqSupport

/// Where each input is written (Fuzz/support/InputFile.swift), and the log it indexes.
private let input = InputFile("index", suffix: "index")
private let log = InputFile("index-log", suffix: "jsonl")

/// The log: made by hand as the daemon writes one, its last line by `somniq episode add`;
/// Fuzz/corpus/index/good.index is the index `somniq episode add` wrote of it.
private let logText = #"""
{"v":1,"kind":"session_start","source":{"type":"alsa","device":"hw:0"},"profile":"balanced","profile_sha256":"x","start_time":"2026-11-20T23:00:00"}
{"v":1,"kind":"level","start_s":0,"seconds":60,"time":"2026-11-20T23:00:00","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{"snoring":20}}
{"v":1,"kind":"event_start","id":"s1","class":"snoring","tier":"high","onset_s":10,"alert":true}
{"v":1,"kind":"event_end","id":"s1","class":"snoring","onset_s":10,"offset_s":43.25,"peak_dbfs":-30,"confidence":0.9,"truncated":false}
{"v":1,"kind":"event_start","id":"c1","class":"cough","tier":"high","onset_s":70,"alert":false,"suppressed":"cooldown"}
{"v":1,"kind":"event_end","id":"c1","class":"cough","onset_s":70,"offset_s":71,"peak_dbfs":-20,"confidence":0.8,"truncated":false}
{"v":1,"kind":"event_start","id":"p1","class":"breathing_pause","tier":"high","onset_s":80,"alert":true}
{"v":1,"kind":"level","start_s":60,"seconds":35,"time":"2026-11-20T23:01:00","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{"snoring":20}}
{"v":1,"kind":"session_end","stream_s":95}
not a record
{"v":1,"kind":"session_start","source":{"type":"alsa","device":"hw:0"},"profile":"balanced","profile_sha256":"x","start_time":"2026-11-21T23:00:00"}
{"v":1,"kind":"level","start_s":0,"seconds":60,"time":"2026-11-21T23:00:00","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{"snoring":20}}
{"v":1,"kind":"event_start","id":"s2","class":"snoring","tier":"high","onset_s":10,"alert":true}
{"v":1,"kind":"event_end","id":"s2","class":"snoring","onset_s":10,"offset_s":43.25,"peak_dbfs":-30,"confidence":0.9,"truncated":false}
{"v":1,"kind":"event_start","id":"c2","class":"cough","tier":"high","onset_s":70,"alert":false,"suppressed":"cooldown"}
{"v":1,"kind":"event_end","id":"c2","class":"cough","onset_s":70,"offset_s":71,"peak_dbfs":-20,"confidence":0.8,"truncated":false}
{"v":1,"kind":"event_start","id":"p2","class":"breathing_pause","tier":"high","onset_s":80,"alert":true}
{"v":1,"kind":"level","start_s":60,"seconds":35,"time":"2026-11-21T23:01:00","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{"snoring":20}}
{"v":1,"kind":"session_end","stream_s":95}
{"v":1,"kind":"session_start","source":{"type":"file","path":"x.flac"},"profile":"balanced","profile_sha256":"x"}
{"v":1,"kind":"level","start_s":0,"seconds":60,"leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{}}
{"v":1,"kind":"session_end","stream_s":60}
{"v":1,"kind":"session_start","source":{"type":"alsa","device":"hw:0"},"profile":"balanced","profile_sha256":"x","start_time":"2026-11-20T23:00:00"}
{"v":1,"kind":"level","start_s":0,"seconds":60,"time":"2026-11-20T23:00:00","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{"snoring":20}}
{"v":1,"kind":"event_start","id":"s3","class":"snoring","tier":"high","onset_s":10,"alert":true}
{"v":1,"kind":"event_end","id":"s3","class":"snoring","onset_s":10,"offset_s":43.25,"peak_dbfs":-30,"confidence":0.9,"truncated":false}
{"v":1,"kind":"event_start","id":"c3","class":"cough","tier":"high","onset_s":70,"alert":false,"suppressed":"cooldown"}
{"v":1,"kind":"event_end","id":"c3","class":"cough","onset_s":70,"offset_s":71,"peak_dbfs":-20,"confidence":0.8,"truncated":false}
{"v":1,"kind":"event_start","id":"p3","class":"breathing_pause","tier":"high","onset_s":80,"alert":true}
{"v":1,"kind":"level","start_s":60,"seconds":35,"time":"2026-11-20T23:01:00","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{"snoring":20}}
{"v":1,"kind":"session_end","stream_s":95}
{"v":1,"kind":"episode","id":"ep-1795777181-7bd2cda6","night":"2026-11-21","severity":"moderate","symptoms":["gasping"],"tags":["alcohol"],"note":"woke up","time":"2026-11-27T10:59:41.616Z"}
"""#

private struct Log {
    let bytes: [UInt8]
    let device: String, inode: String
    /// The history read from the log whole, by night.
    let history: String
}

private let fixed: Log = {
    // Its last line ended (a multi-line literal drops the newline before its close): the
    // index reads whole lines only, and a torn last line would be the history's alone.
    let bytes = Array((logText + "\n").utf8)
    bytes.withUnsafeBufferPointer { log.write($0.baseAddress!, $0.count) }
    var st = stat()
    precondition(stat(log.path, &st) == 0, "cannot stat \(log.path): errno \(errno)")
    let history = try! History.read(logs: [log.path], grouping: .all).table()
    return Log(bytes: bytes, device: String(UInt64(st.st_dev)), inode: String(UInt64(st.st_ino)), history: history)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIndex(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let log = fixed
    input.write(data, size)
    defer { unlink(input.path) }
    let asItIs = LogIndex(log: logPath, indexPath: input.path)
    precondition(asItIs.pieces.isEmpty && asItIs.covered == 0, "an index of another log (or none) was taken")
    read(asItIs)

    guard case let .object(members)? = try? JSONValue(parsing: String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    else { return 0 }
    var covered: Int?
    if case let .number(x)? = members.first(where: { $0.0 == "covered" })?.1 { covered = Int(exactly: x) }
    var matched = members.filter { !["log", "device", "inode", "tail"].contains($0.0) }
    matched += [("log", .string(logPath)), ("device", .string(log.device)), ("inode", .string(log.inode))]
    if let covered, (0...log.bytes.count).contains(covered) {
        matched.append(("tail", .string(hex(log.bytes[max(0, covered - 256)..<covered]))))
    }
    let text = Array(JSONValue.object(matched).compactText.utf8)
    text.withUnsafeBufferPointer { input.write($0.baseAddress!, $0.count) }
    let index = LogIndex(log: logPath, indexPath: input.path)
    let taken = index.covered > 0 || !index.pieces.isEmpty
    read(index)
    do { try index.refresh() } catch { preconditionFailure("the log could not be read with an index beside it: \(error)") }
    read(index)
    if !taken {
        precondition(index.history(grouping: .all).table() == log.history, "an index made anew is not the log's history")
    }
    return 0
}

private var logPath: String { log.path }

/// What the pages read of an index: its rows and history every way, the factors, and the
/// first nights' reports.
private func read(_ index: LogIndex) {
    for r in index.rows {
        precondition(r.heardSeconds.isFinite && r.heardSeconds >= 0 && r.snoringSeconds.isFinite && r.snoringSeconds >= 0,
                     "\(r.night): \(r.heardSeconds) s heard, \(r.snoringSeconds) s snoring")
        precondition(r.sessions >= 0 && r.disturbances >= 0 && r.pauses >= 0 && r.alerts.values.allSatisfy { $0 >= 0 }
                     && r.events.values.allSatisfy { $0 >= 0 }, "\(r.night): a negative count")
    }
    _ = index.dates
    _ = index.skipped.description
    for grouping in [History.Grouping.all, .week, .month] {
        let h = index.history(grouping: grouping)
        _ = h.table()
        _ = h.csv()
        _ = h.json()
        _ = h.html(version: "fuzz")
        if grouping == .all {
            let f = Factors(h)
            _ = f.table()
            _ = f.json()
        }
    }
    for key in index.keys.prefix(4) {
        guard let night = try? index.night(key) else { continue }
        _ = HTMLReport.render(night, version: "fuzz")
        _ = TextReport.render(night)
    }
}

private func hex(_ bytes: ArraySlice<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
}
