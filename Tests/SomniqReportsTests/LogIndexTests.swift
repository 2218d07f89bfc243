import Foundation
@testable import SomniqReports
@testable import SomniqSupport
import SomniqTestSupport
import Testing
import SomniqCore

/// `LogIndex`: where each night lies in an event log, kept beside it and made from it.
@Suite final class LogIndexTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// The index finds the nights the history finds, reads a night from its pieces alone,
    /// keeps up with a log that grows (a line being written is read when whole), is read
    /// back from its file, and is made anew when the log is replaced.
    @Test func theIndexAgreesWithTheHistoryAndKeepsUpWithTheLog() throws {
        let (log, _) = try threeNights(in: dir)
        let index = LogIndex(log: log, indexPath: LogIndex.besideLog(log))
        #expect(try index.refresh())
        #expect(index.keys == ["2026-11-20", "2026-11-21", "2026-11-22"])
        let history = try History.read(logs: [log], grouping: .all)
        #expect(index.history(grouping: .all).table() == history.table())
        #expect(index.history(grouping: .week).json() == (try History.read(logs: [log], grouping: .week)).json())
        let night = try #require(try index.night("2026-11-21"))
        let whole = try NightReports.night(in: log, key: "2026-11-21")
        #expect(HTMLReport.render(night, version: "t") == HTMLReport.render(whole, version: "t"))
        #expect(try index.refresh() == false, "nothing new")

        // A fourth night, its last line torn mid-write: read up to the last whole line.
        let fourth = try String(contentsOfFile: try madeNight("2026-11-22"), encoding: .utf8)
            .replacingOccurrences(of: "2026-11-22T", with: "2026-11-23T")
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        let cut = fourth.utf8.count - 20
        handle.write(Data(fourth.utf8.prefix(cut)))
        #expect(try index.refresh())
        #expect(index.keys.last == "2026-11-23")
        #expect(index.skipped.isEmpty, "the line being written is not counted as unreadable")
        handle.write(Data(fourth.utf8.dropFirst(cut)))
        handle.closeFile()
        #expect(try index.refresh())
        #expect(index.history(grouping: .all).table() == (try History.read(logs: [log], grouping: .all)).table())

        // Read back from the file beside the log (written when the fourth night was added):
        // only what came after is read from the log.
        let again = LogIndex(log: log, indexPath: LogIndex.besideLog(log))
        #expect(again.keys == index.keys && again.covered > 0 && again.covered < index.covered)
        #expect(try again.refresh())
        #expect(again.covered == index.covered)
        #expect(again.history(grouping: .all).table() == index.history(grouping: .all).table())

        // The log replaced by another of the same length: the index is made anew.
        let other = try String(contentsOfFile: log, encoding: .utf8).replacingOccurrences(of: "2026-11-2", with: "2026-10-2")
        try other.write(toFile: log, atomically: false, encoding: .utf8)
        let stale = LogIndex(log: log, indexPath: LogIndex.besideLog(log))
        #expect(try stale.refresh())
        #expect(stale.keys == ["2026-10-20", "2026-10-21", "2026-10-22", "2026-10-23"])
    }

    /// The daemon's one session runs night after night: it is cut at noon, in the index as
    /// in the history and the report, and a piece that goes on with the session is read
    /// with its session_start.
    @Test func aSessionThatRunsPastNoonGoesOnInTheNextNight() throws {
        let log = dir + "/noon.jsonl"
        let r = try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-11-23T11:58"])
        #expect(r.status == 0)
        #expect(records(log).filter { $0["kind"] == .string("session_start") }.count == 1)
        let history = try History.read(logs: [log], grouping: .all)
        #expect(history.nights.map(\.night) == ["2026-11-22", "2026-11-23"])
        let index = LogIndex(log: log, indexPath: nil)
        try index.refresh()
        #expect(index.keys == ["2026-11-22", "2026-11-23"])
        #expect(index.pieces.map { $0.session != nil } == [false, true])
        #expect(index.history(grouping: .all).table() == history.table())
        for key in index.keys {
            let fromIndex = try #require(try index.night(key))
            let whole = try NightReports.night(in: log, key: key)
            #expect(TextReport.render(fromIndex) == TextReport.render(whole), "\(key)")
        }
        let second = try NightReports.night(in: log, key: "2026-11-23")
        let first = try NightReports.night(in: log, key: "2026-11-22")
        let noon = try #require(WallClock.parse("2026-11-23T12:00"))
        #expect(second.start == noon && second.sessions == 1)
        // Cut at the first minute of the new night: every minute on its side of noon.
        #expect(first.heard == 120 && second.heard == 60)
        #expect(first.minutes.allSatisfy { first.start! + $0.start < noon })
        #expect(second.minutes.allSatisfy { second.start! + $0.start >= noon })
        // Every event started is in one night, once.
        #expect(first.events.count + second.events.count == records(log).filter { $0["kind"] == .string("event_start") }.count)
    }

    /// An event still open when the session's first minute of the next night is written
    /// ends there, cut off, in the night it began; read whole, by the index, or by an index
    /// that caught up with a growing log, the nights are the same.
    @Test func anEventOpenAtTheCutEndsInItsNightHoweverTheLogIsRead() throws {
        let t0 = try #require(NightBuilder.noon(of: "2026-11-23")) - 120
        func at(_ s: Double) -> String { WallClock.iso8601(Date(timeIntervalSince1970: t0 + s)) }
        func level(_ s: Double) -> String {
            #"{"v":1,"kind":"level","start_s":\#(Int(s)),"seconds":60,"time":"\#(at(s))","leq_dbfs":-40,"l10_dbfs":-35,"l90_dbfs":-50,"lmax_dbfs":-30,"floor_dbfs":-55,"active_s":{}}"#
        }
        let lines = [
            #"{"v":1,"kind":"session_start","source":{"type":"alsa","device":"hw:0"},"profile":"balanced","profile_sha256":"x","start_time":"\#(at(0))"}"#,
            level(0),
            #"{"v":1,"kind":"event_start","id":"e1","class":"music","tier":"low","onset_s":100,"onset_time":"\#(at(100))","alert":false}"#,
            level(60),
            level(120),
            #"{"v":1,"kind":"event_end","id":"e1","class":"music","onset_s":100,"offset_s":170,"peak_dbfs":-30,"confidence":0.9,"truncated":false}"#,
            #"{"v":1,"kind":"event_start","id":"e2","class":"cough","tier":"high","onset_s":150,"onset_time":"\#(at(150))","alert":true}"#,
            #"{"v":1,"kind":"event_end","id":"e2","class":"cough","onset_s":150,"offset_s":152,"peak_dbfs":-30,"confidence":0.9,"truncated":false}"#,
            level(180),
            #"{"v":1,"kind":"session_end","stream_s":240,"reason":"signal"}"#,
        ]
        let log = dir + "/cut.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let first = try NightReports.night(in: log, key: "2026-11-22"), second = try NightReports.night(in: log, key: "2026-11-23")
        #expect(first.events.map(\.id) == ["e1"] && first.events[0].truncated && first.events[0].offset == 120)
        #expect(second.events.map(\.id) == ["e2"] && second.events[0].onset == 30)
        #expect(first.heard == 120 && second.heard == 120)

        let index = LogIndex(log: log, indexPath: nil)
        try index.refresh()
        let growing = dir + "/growing.jsonl"
        try (lines.prefix(6).joined(separator: "\n") + "\n").write(toFile: growing, atomically: true, encoding: .utf8)
        let caughtUp = LogIndex(log: growing, indexPath: nil)
        try caughtUp.refresh()
        let handle = try #require(FileHandle(forWritingAtPath: growing))
        handle.seekToEndOfFile()
        handle.write(Data((lines.dropFirst(6).joined(separator: "\n") + "\n").utf8))
        handle.closeFile()
        #expect(try caughtUp.refresh())
        for key in ["2026-11-22", "2026-11-23"] {
            let whole = TextReport.render(try NightReports.night(in: log, key: key))
            #expect(TextReport.render(try #require(try index.night(key))) == whole, "\(key)")
            #expect(TextReport.render(try #require(try caughtUp.night(key))) == whole, "\(key), caught up")
        }
        #expect(caughtUp.history(grouping: .all).table() == (try History.read(logs: [log], grouping: .all)).table())
    }

    /// The index beside the log is never written through a symbolic link, has the log's
    /// permissions, and one that is damaged (numbers out of range) is made anew, not trusted.
    @Test func theIndexFileIsWrittenSafelyAndADamagedOneIsMadeAnew() throws {
        let (log, _) = try threeNights(in: dir)
        chmod(log, 0o640)
        let victim = dir + "/victim"
        try "keep me\n".write(toFile: victim, atomically: true, encoding: .utf8)
        let indexPath = LogIndex.besideLog(log)
        try FileManager.default.createSymbolicLink(atPath: indexPath, withDestinationPath: victim)
        try LogIndex(log: log, indexPath: indexPath).refresh()
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        var st = stat()
        #expect(lstat(indexPath, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_mode & 0o777 == 0o640)

        let good = try String(contentsOfFile: indexPath, encoding: .utf8)
        for damaged in [good.replacingOccurrences(of: #""to":"#, with: #""to":1e300,"x":"#),
                        good.replacingOccurrences(of: #""covered":"#, with: #""covered":-1,"x":"#),
                        good.replacingOccurrences(of: #""inode":""#, with: #""inode":"-"#)] {
            try damaged.write(toFile: indexPath, atomically: true, encoding: .utf8)
            let index = LogIndex(log: log, indexPath: indexPath)
            #expect(index.pieces.isEmpty && index.covered == 0, "a damaged index is not taken")
            #expect(try index.refresh())
            #expect(index.keys == ["2026-11-20", "2026-11-21", "2026-11-22"])
        }
    }

    /// An index whose figures no log could give is made anew from the log, never added up
    /// (the probe's: two pieces of one night with 2^62 sessions each overflowed an Int when
    /// the history added them, and the web page's thread, `serve` with it, died). Counts
    /// past the bytes of their piece, sums that overflow, negative or impossible seconds.
    @Test func anIndexWithFiguresNoLogCouldGiveIsMadeAnewNotAddedUp() throws {
        let (log, _) = try threeNights(in: dir)
        let indexPath = LogIndex.besideLog(log)
        try LogIndex(log: log, indexPath: indexPath).refresh()
        let good = try JSONValue(parsing: try String(contentsOfFile: indexPath, encoding: .utf8))
        let whole = try History.read(logs: [log], grouping: .all).table()
        let huge = JSONValue.number(4611686018427387904)  // 2^62: two of them overflow an Int
        func with(_ v: JSONValue, _ key: String, _ new: JSONValue) -> JSONValue {
            guard case let .object(members) = v else { return v }
            return .object(members.map { $0.0 == key ? ($0.0, new) : $0 })
        }
        /// The index with each of its first two pieces changed by `change`, the second made a
        /// piece of the first one's night when `oneNight`.
        func damaged(oneNight: Bool = true, _ change: (JSONValue) -> JSONValue) -> String {
            guard case let .array(pieces)? = good["pieces"] else { return "" }
            var changed = pieces
            changed[0] = change(pieces[0])
            changed[1] = change(oneNight ? with(pieces[1], "key", pieces[0]["key"]!) : pieces[1])
            return with(good, "pieces", .array(changed)).compactText
        }
        let cases: [(String, String)] = [
            ("sessions", damaged { with($0, "sessions", huge) }),
            ("disturbances", damaged { with($0, "disturbances", huge) }),
            ("pauses", damaged { with($0, "pauses", huge) }),
            ("skipped", damaged { with($0, "skipped", .array([huge, .number(0), .number(0)])) }),
            ("alerts", damaged { with($0, "alerts", .object([("high", huge)])) }),
            ("events", damaged { with($0, "events", .object([("cough", huge)])) }),
            ("alerts of two tiers", damaged(oneNight: false) { with($0, "alerts", .object([("critical", huge), ("high", huge)])) }),
            ("snoring_s 1e308", damaged { with($0, "snoring_s", .number(1e308)) }),
            ("heard_s -1", damaged(oneNight: false) { with($0, "heard_s", .number(-1)) }),
            ("heard_s a week", damaged(oneNight: false) { with($0, "heard_s", .number(7 * 86400)) }),
            ("a count past its piece's bytes", damaged(oneNight: false) { with($0, "disturbances", .number(1e9)) }),
            ("a loudest minute out of range", damaged(oneNight: false) {
                with($0, "loudest", .object([("leq", .number(1e300)), ("clock", .string("23:10")), ("when", .string("2026-11-20 23:10"))]))
            }),
        ]
        for (what, text) in cases {
            try text.write(toFile: indexPath, atomically: true, encoding: .utf8)
            let index = LogIndex(log: log, indexPath: indexPath)
            #expect(index.pieces.isEmpty && index.covered == 0, "\(what): a damaged index is not taken")
            #expect(index.history(grouping: .all).nights.isEmpty, "\(what)")
            #expect(try index.refresh(), "\(what)")
            #expect(index.history(grouping: .week).table() == (try History.read(logs: [log], grouping: .week)).table(), "\(what)")
            #expect(index.history(grouping: .all).table() == whole, "\(what)")
        }
        // The index as the probe left it, through the real binary: `episode add` reads the
        // index after writing the episode (to say whether the night was heard).
        try cases[0].1.write(toFile: indexPath, atomically: true, encoding: .utf8)
        let add = try somniq("episode", "add", "--log", log, "--night", "2026-11-21", "--severity", "mild")
        #expect(add.status == 0 && add.stderr == "", "\(add.status) \(add.stderr)")
        #expect(add.stdout.hasSuffix(" added to the night of 2026-11-21: mild\n"), "\(add.stdout)")
        #expect(try index(of: log).keys == ["2026-11-20", "2026-11-21", "2026-11-22"])
    }

    private func index(of log: String) throws -> LogIndex {
        let index = LogIndex(log: log, indexPath: LogIndex.besideLog(log))
        try index.refresh()
        return index
    }

    /// A level record timed millennia after its session (the fuzzer's find) cuts nothing:
    /// every minute stays within a year of its night.
    @Test func aMinuteTimedFarPastItsSessionCutsNoNight() throws {
        let log = Paths.package + "/Fuzz/corpus/report/level-timed-far-past-the-session.jsonl"
        for key in [nil, "2026-11-22"] as [String?] {
            guard let night = try? NightReports.night(in: log, key: key) else { continue }
            #expect(night.minutes.allSatisfy { abs($0.start) < 2 * 366 * 86400 }, "\(key ?? "last")")
            #expect(night.span < 2 * 366 * 86400)
        }
        #expect(try History.read(logs: [log], grouping: .all).nights.count == 1)
    }
}
