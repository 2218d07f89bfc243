@testable import SomniqConfig
@testable import SomniqSupport
import SomniqTestSupport
import Testing
import SomniqCore

/// `config.json`'s room, metrics and sinks: what is accepted, and the named error for what is not.
@Suite struct SinkConfigTests {
    func error(_ json: String) -> String {
        do { _ = try DaemonConfig.parse(json, file: "config.json"); return "accepted" } catch { return error.description }
    }

    @Test func theIssuesExampleParses() throws {
        let c = try DaemonConfig.parse("""
        {"room": "bedroom",
         "sinks": [{"type": "mqtt", "host": "127.0.0.1", "port": 1883, "min_tier": "high"},
                   {"type": "webhook", "url": "https://ntfy.sh/my-topic", "format": "ntfy", "min_tier": "critical"},
                   {"type": "exec", "command": ["/usr/local/bin/notify", "--loud"], "min_tier": "critical",
                    "classes": ["smoke_alarm", "scream"]}]}
        """, file: "config.json")
        #expect(c.room == "bedroom")
        #expect(c.sinks.map(\.name) == ["mqtt", "webhook", "exec"])
        #expect(c.sinks.map(\.minTier) == [.high, .critical, .critical])
        #expect(c.sinks[2].classes == [.smokeAlarm, .scream])
        #expect(c.sinks[2].admits(.smokeAlarm, tier: .critical) && !c.sinks[2].admits(.snoring, tier: .critical))
        #expect(c.sinks[0].admits(.snoring, tier: .high) && !c.sinks[0].admits(.speech, tier: .medium))
        guard case let .webhook(w) = c.sinks[1].kind else { Issue.record("not a webhook"); return }
        #expect(w.format == .ntfy && w.url == "https://ntfy.sh/my-topic")
        // The metrics file sits beside the log unless set.
        #expect(c.metricsPath == "/var/lib/somniq/somniq.prom")
        #expect(try DaemonConfig.parse(#"{"metrics": null}"#, file: "c").metricsPath == nil)
    }

    @Test func sinksOfOneTypeGetDistinctNames() throws {
        let c = try DaemonConfig.parse(#"{"sinks": [{"type": "webhook", "url": "http://a/"}, {"type": "webhook", "url": "http://b/"}]}"#,
                                       file: "c")
        #expect(c.sinks.map(\.name) == ["webhook", "webhook-2"])
    }

    @Test func badSinksAreNamedByTheirKeyPath() {
        #expect(error(#"{"sinks": [{"type": "pager"}]}"#)
                == #"config.json: sinks[0].type: "pager" is not a sink type (expected exec, webhook or mqtt)"#)
        #expect(error(#"{"sinks": [{"type": "exec", "command": ["notify-send"]}]}"#)
                == "config.json: sinks[0].command: must start with the program's absolute path (it is run without a shell)")
        #expect(error(#"{"sinks": [{"type": "webhook", "url": "ftp://x/"}]}"#)
                == #"config.json: sinks[0].url: "ftp://x/" must be an http:// or https:// URL"#)
        #expect(error(#"{"sinks": [{"type": "webhook"}]}"#) == #"config.json: sinks[0]: needs "url""#)
        #expect(error(#"{"sinks": [{"type": "mqtt", "classes": ["snore"]}]}"#)
                == #"config.json: sinks[0].classes: "snore" is not a class (see `somniq profiles show balanced`)"#)
        #expect(error(#"{"sinks": [{"type": "mqtt", "min_tier": "urgent"}]}"#)
                == #"config.json: sinks[0].min_tier: "urgent" must be critical, high, medium or low"#)
        #expect(error(#"{"sinks": [{"type": "mqtt", "port": 70000}]}"#) == "config.json: sinks[0].port: 70000 must be from 1 to 65535")
        #expect(error(#"{"sinks": [{"type": "mqtt", "hots": "x"}]}"#).hasPrefix("config.json: sinks[0].hots: unknown key for a mqtt sink"))
        #expect(error(#"{"sinks": [{"type": "webhook", "url": "http://x/", "headers": {"X-A": "1\r\nX-B: 2"}}]}"#)
                == "config.json: sinks[0].headers.X-A: a header name is a token and a value has no control characters")
    }

    @Test func aRoomNamesTopicsSoItIsOneSafeWord() {
        #expect(error(#"{"room": "bed/room"}"#)
                == #"config.json: room: "bed/room" may hold only letters, digits, - and _ (at most 64): it names MQTT topics"#)
        #expect(error(##"{"room": "#"}"##).hasPrefix("config.json: room:"))
        #expect(error(#"{"room": "care-home_12"}"#) == "accepted")
    }

    @Test func textFromOutsideCannotBreakALogLine() {
        #expect(LogText.escape("mic\n<2>critical alert: smoke_alarm") == "mic\\n<2>critical alert: smoke_alarm")
        #expect(LogText.escape("dev\u{1B}[31mred") == "dev\\x{1b}[31mred")
        #expect(LogText.escape("plain name") == "plain name")
    }
}
