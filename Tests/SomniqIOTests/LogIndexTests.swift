import Foundation
import Testing
@testable import SomniqIO
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
        #expect(second.start == WallClock.parse("2026-11-23T12:00") && second.sessions == 1)
        #expect(second.events.allSatisfy { $0.onset >= -60 })
        let first = try NightReports.night(in: log, key: "2026-11-22")
        #expect(first.events.count + second.events.count == records(log).filter { $0["kind"] == .string("event_end") }.count)
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
}
