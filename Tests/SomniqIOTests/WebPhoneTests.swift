import Foundation
import Testing
@testable import SomniqIO
@testable import SomniqWeb
import SomniqCore

/// The web page on a phone, for a carer reading it at night: no page scrolls sideways, and
/// clips play full width. Through the real server (`somniq serve`), laid out by chromium as
/// a phone (390 × 844, its meta viewport honoured) and as a desktop (1280 × 900).
@Suite(.serialized) final class WebPhoneTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    static let token = "0123456789abcdef0123456789abcdef"

    /// Three nights with clips, then tonight so far: the demo night replayed as if it began
    /// 150 s ago, its log cut just after its smoke alarm's event began (118 s in), so that
    /// the session goes on and the alarm is still sounding.
    func threeNightsAndTonight() throws -> (log: String, clips: String, tonight: String) {
        let (log, clips) = try threeNights(in: dir)
        // Just past noon, tonight began a moment ago: wait until it holds 150 s.
        while WallClock.night(Date().timeIntervalSince1970 - 150) != WallClock.night(Date().timeIntervalSince1970) {
            Thread.sleep(forTimeInterval: 1)
        }
        let start = Date().timeIntervalSince1970 - 150
        let replayed = dir + "/tonight.jsonl"
        let at = WallClock.localDate(start) + "T" + WallClock.localTime(start, seconds: true)
        let r = try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", replayed, "--start", at, "--clips", clips])
        #expect(r.status == 0, "\(r.stderr)")
        var lines: [String] = []
        for line in try String(contentsOfFile: replayed, encoding: .utf8).split(separator: "\n") {
            lines.append(String(line))
            if line.contains("\"kind\":\"event_start\"") && line.contains("\"class\":\"smoke_alarm\"") { break }
        }
        let handle = try #require(FileHandle(forWritingAtPath: log))
        handle.seekToEndOfFile()
        handle.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        handle.closeFile()
        return (log, clips, WallClock.night(start))
    }

    /// What chromium laid out: one line per page (scripts/chromium-layout.py).
    struct Layout {
        var url: String
        var scrollWidth: Int, width: Int
        var widest: String?
        var audio: [Int]
    }

    func layout(_ urls: [String], size: String, mobile: Bool) throws -> [Layout] {
        let r = try runProgram("/usr/bin/python3", [Paths.package + "/scripts/chromium-layout.py", "--size", size]
            + (mobile ? ["--mobile"] : []) + ["--header", "Authorization: Bearer \(Self.token)",
            "--eval", "null"] + urls)
        #expect(r.status == 0, "\(r.stderr)")
        return try r.stdout.split(separator: "\n").map { line in
            let v = try JSONValue(parsing: String(line))
            guard case let .array(audio)? = v["audio"] else { throw CurlFailed(message: "no audio in \(line)") }
            return Layout(url: v["url"]?.stringValue ?? "", scrollWidth: Int(v["scrollWidth"]?.numberValue ?? -1),
                          width: Int(v["width"]?.numberValue ?? -1), widest: v["widest"]?.stringValue,
                          audio: audio.compactMap { $0.numberValue.map(Int.init) })
        }
    }

    /// At 390 × 844 as a phone and at 1280 × 900 as a desktop, tonight, a night (with its
    /// episode form open), the history and the history by week are no wider than the screen;
    /// on the phone every clip player is as wide as its card.
    @Test func noPageScrollsSideways() throws {
        let (log, clips, tonight) = try threeNightsAndTonight()
        let tokenFile = dir + "/token"
        try Self.token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        chmod(tokenFile, 0o600)
        let server = try WebTests.Served(log, clips: clips, tokenFile: tokenFile)
        defer { server.stop() }
        let base = server.base
        let paths = ["/", "/night/2026-11-22", "/history", "/history?group=week", "/night/\(tonight)"]

        let phone = try layout(paths.map { base + $0 }, size: "390x844", mobile: true)
        let desktop = try layout(paths.map { base + $0 }, size: "1280x900", mobile: false)
        #expect(phone.count == paths.count && desktop.count == paths.count)
        for page in phone + desktop {
            print("\(page.width) px: \(page.url.dropFirst(base.count)) is \(page.scrollWidth) px wide, clips \(page.audio) px")
            #expect(page.scrollWidth <= page.width, "\(page.url) at \(page.width) px: \(page.scrollWidth) px wide (\(page.widest ?? "?"))")
        }
        for page in phone {
            // A card is the screen less the page's 12 px margins, its border and its 10 px padding.
            #expect(page.audio.allSatisfy { $0 >= 300 }, "\(page.url): clip players \(page.audio) px wide")
        }
        #expect(phone[0].audio.count >= 4 && phone[1].audio.count == 6, "tonight's and the night's clips")
    }
}
