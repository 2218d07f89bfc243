import Foundation
@testable import SomniqConfig
import SomniqTestSupport
import Testing
import SomniqCore

/// schemas/ describes the profile and configuration files for editors and other tools
/// (installed to share/somniq/schemas). A real validator, jsonschema from PyPI in the
/// virtualenv `make sedeval` makes, must give the same verdict as somniq's own readers on
/// the shipped files, the fuzz corpus and documents each reader refuses for one reason.
struct SchemaTests {
    static let profileSchema = Paths.package + "/schemas/profile.schema.json"
    static let configSchema = Paths.package + "/schemas/config.schema.json"

    /// The reader's verdict: nil when it accepts the document, else its error.
    func profileReader(_ text: String) -> String? {
        do { _ = try Profile(json: text, file: "p.json"); return nil } catch { return "\(error)" }
    }

    func configReader(_ text: String) -> String? {
        do { _ = try DaemonConfig.parse(text, file: "c.json"); return nil } catch { return "\(error)" }
    }

    /// Each document is valid to the schema exactly when the reader takes it.
    func expectAgreement(_ documents: [String], _ verdicts: [String?], reader: (String) -> String?) {
        for (text, verdict) in zip(documents, verdicts) {
            let problem = reader(text)
            #expect((verdict == nil) == (problem == nil), "schema: \(verdict ?? "valid"); reader: \(problem ?? "valid"); \(text.prefix(200))")
        }
    }

    /// Each document is refused by the reader and by the schema.
    func expectBothRefuse(_ documents: [String], schema: String, reader: (String) -> String?) throws {
        for (text, verdict) in zip(documents, try validate(documents, against: schema)) {
            #expect(reader(text) != nil, "the reader accepts \(text)")
            #expect(verdict != nil, "the schema accepts \(text)")
        }
    }

    func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Paths.package + "/" + folder).sorted()
            .filter { $0.hasSuffix(".json") }
            .map { try String(contentsOfFile: Paths.package + "/\(folder)/\($0)", encoding: .utf8) }
    }

    /// Every field of a rule, every smoothing method, a tier adjustment, a class moved to
    /// another tier, and a name with letters beyond ASCII.
    static let everyProfileKey = """
    {"name": "nuit_été-2", "description": "d",
     "base": {"on": 0.7, "off": 0.5, "debounce_s": 2, "cooldown_s": 15, "smoothing": {"method": "ema", "tau_s": 0.5},
              "min_confidence": 0.4, "enabled": true},
     "tiers": {"critical": {"smoothing": {"method": "none"}, "debounce_s": 0}, "low": {"enabled": false}},
     "classes": {"snoring": {"tier": "medium", "smoothing": {"method": "window_mean", "window_s": 3600, "threshold": 1},
                             "on": 1, "off": 0, "cooldown_s": 0, "min_confidence": 0}}}
    """

    /// A profile named `p` with the members of `base` (by default, all of them) and `rest`.
    static func profile(base: String = #""on": 0.7, "off": 0.5, "debounce_s": 2, "cooldown_s": 15, "smoothing": {"method": "ema", "tau_s": 0.5}, "min_confidence": 0.4, "enabled": true"#,
                        _ rest: String = "") -> String {
        #"{"name": "p", "base": {\#(base)}\#(rest.isEmpty ? "" : ", " + rest)}"#
    }

    /// Profiles the reader refuses, one reason each.
    static let badProfiles = [
        profile(#""colour": "red""#),                                                          // unknown key
        profile(base: #""on": 0.7, "off": "0.5", "debounce_s": 2, "cooldown_s": 15, "smoothing": {"method": "none"}, "min_confidence": 0.4, "enabled": true"#),
        profile(#""classes": {"snoring": {"on": 1.5}}"#),                                      // outside [0, 1]
        profile(#""classes": {"snoring": {"min_confidence": -0.1}}"#),
        profile(#""classes": {"sneezing": {"on": 0.9}}"#),                                     // unknown class
        profile(#""tiers": {"urgent": {"on": 0.9}}"#),                                         // unknown tier
        profile(#""classes": {"snoring": {"tier": "urgent"}}"#),
        profile(#""tiers": {"high": {"tier": "low"}}"#),                                       // tier only in a class
        profile(#""classes": {"snoring": {"debounce_s": -1}}"#),                               // negative time
        profile(#""classes": {"snoring": {"cooldown_s": 3601}}"#),                             // longer than an hour
        profile(#""classes": {"snoring": {"enabled": "yes"}}"#),
        profile(#""classes": {"snoring": {"smoothing": {"method": "ema"}}}"#),                 // tau_s missing
        profile(#""classes": {"snoring": {"smoothing": {"method": "ema", "tau_s": 0}}}"#),     // must be > 0
        profile(#""classes": {"snoring": {"smoothing": {"method": "ema", "tau_s": 1e-320}}}"#), // below 0.05 s (issue 26)
        profile(#""classes": {"snoring": {"smoothing": {"method": "window_mean", "window_s": 1e308, "threshold": 1}}}"#),
        profile(#""classes": {"snoring": {"debounce_s": 12345678901234567890123}}"#),
        profile(#""classes": {"snoring": {"cooldown_s": 1e400}}"#),                            // infinite
        profile(#""classes": {"snoring": {"smoothing": {"method": "none", "tau_s": 1}}}"#),
        profile(#""classes": {"snoring": {"smoothing": {"method": "window_mean", "window_s": 2}}}"#),
        profile(#""classes": {"snoring": {"smoothing": {"method": "median"}}}"#),
        profile(#""classes": {"snoring": {"smoothing": {"tau_s": 1}}}"#),
        profile(base: #""on": 0.7, "off": 0.5, "debounce_s": 2, "cooldown_s": 15, "smoothing": {"method": "ema", "tau_s": 0.5}, "enabled": true"#),
        #"{"base": {"on": 0.7, "off": 0.5, "debounce_s": 2, "cooldown_s": 15, "smoothing": {"method": "none"}, "min_confidence": 0.4, "enabled": true}}"#,
        profile(#""description": 3"#),
        #"{"name": "night.json", "base": {"on": 0.7, "off": 0.5, "debounce_s": 2, "cooldown_s": 15, "smoothing": {"method": "none"}, "min_confidence": 0.4, "enabled": true}}"#,
        "[]",
    ]

    @Test func shippedProfilesAndTheCorpusValidateAsTheReaderSays() throws {
        let shipped = try files("profiles")
        let documents = shipped + (try files("Fuzz/corpus/profile")) + [Self.everyProfileKey]
        let verdicts = try validate(documents, against: Self.profileSchema)
        for (text, verdict) in zip(shipped, verdicts) { #expect(verdict == nil, "\(text.prefix(60)): \(verdict ?? "")") }
        expectAgreement(documents, verdicts, reader: profileReader)
    }

    @Test func profilesTheReaderRefusesTheSchemaRefuses() throws {
        try expectBothRefuse(Self.badProfiles, schema: Self.profileSchema, reader: profileReader)
    }

    /// With `extends`, the base may leave fields to the profile it starts from, or be absent.
    @Test func aProfileThatExtendsAnotherNeedsNoWholeBase() throws {
        let verdicts = try validate([
            #"{"name": "p", "extends": "balanced", "base": {"on": 0.8}}"#,
            #"{"name": "p", "extends": "/etc/somniq/night.json", "classes": {"snoring": {"enabled": false}}}"#,
            #"{"name": "p", "base": {"on": 0.8}}"#,
            #"{"name": "p"}"#,
            #"{"name": "p", "extends": 1, "base": {"on": 0.8}}"#,
            #"{"extends": "balanced"}"#,
            #"{"name": "p", "extends": "balanced", "base": {"on": 2}}"#,
        ], against: Self.profileSchema)
        #expect(verdicts.map { $0 == nil } == [true, true, false, false, false, false, false], "\(verdicts)")
    }

    /// Configurations the reader refuses, one reason each.
    static let badConfigs = [
        #"{"colour": "red"}"#,
        #"{"device": ""}"#,
        #"{"device": "hw:0\nREADY=1"}"#,
        #"{"log": "events.jsonl"}"#,
        #"{"metrics": "somniq.prom"}"#,
        #"{"silence_s": 0}"#,
        #"{"silence_s": 1e308}"#,                                                // issue 26: input_silent switched off
        #"{"silence_s": 1e-320}"#,
        #"{"silence_s": 12345678901234567890123}"#,
        #"{"clipping_s": 1e308}"#,
        #"{"clipping_s": 0.1}"#,
        #"{"sinks": [{"type": "webhook", "url": "https://example.org", "timeout_s": 1e-320}]}"#,
        #"{"sinks": [{"type": "mqtt", "port": 12345678901234567890123}]}"#,
        #"{"sinks": [{"type": "mqtt", "queue": 1e400}]}"#,
        #"{"clipping_s": "5"}"#,
        #"{"room": "kids room"}"#,
        #"{"sinks": {}}"#,
        #"{"sinks": [{"url": "https://example.org"}]}"#,
        #"{"sinks": [{"type": "email"}]}"#,
        #"{"sinks": [{"type": "exec", "command": ["/bin/true"], "url": "https://example.org"}]}"#,
        #"{"sinks": [{"type": "exec", "command": ["notify-send"]}]}"#,
        #"{"sinks": [{"type": "exec", "command": []}]}"#,
        #"{"sinks": [{"type": "exec", "command": ["/bin/true"], "timeout_s": 301}]}"#,
        #"{"sinks": [{"type": "webhook", "url": "ftp://example.org"}]}"#,
        #"{"sinks": [{"type": "webhook", "url": "https://example.org", "format": "xml"}]}"#,
        #"{"sinks": [{"type": "webhook", "url": "https://example.org", "headers": {"X:Y": "z"}}]}"#,
        #"{"sinks": [{"type": "mqtt", "port": 0}]}"#,
        #"{"sinks": [{"type": "mqtt", "port": 1883.5}]}"#,
        #"{"sinks": [{"type": "mqtt", "keepalive_s": 4}]}"#,
        #"{"sinks": [{"type": "mqtt", "ca_file": "/ca.pem", "cert_file": "/c.pem"}]}"#,
        #"{"sinks": [{"type": "mqtt", "cert_file": "/c.pem", "key_file": "/k.pem"}]}"#,
        #"{"sinks": [{"type": "mqtt", "topic_prefix": "home/bedroom"}]}"#,
        #"{"sinks": [{"type": "mqtt", "min_tier": "urgent"}]}"#,
        #"{"sinks": [{"type": "mqtt", "classes": ["sneezing"]}]}"#,
        #"{"sinks": [{"type": "mqtt", "classes": []}]}"#,
        #"{"sinks": [{"type": "mqtt", "max_per_minute": 601}]}"#,
        #"{"sinks": [{"type": "mqtt", "queue": 0}]}"#,
        #"{"clips": true}"#,
        #"{"clips": {"enabled": "yes"}}"#,
        #"{"clips": {"min_tier": "urgent"}}"#,
        #"{"clips": {"pre_s": 31}}"#,
        #"{"clips": {"post_s": -1}}"#,
        #"{"clips": {"max_s": 2}}"#,
        #"{"clips": {"max_mb": 0}}"#,
        #"{"clips": {"max_age_days": 0}}"#,
        #"{"clips": {"classes": ["snore"]}}"#,
        #"{"clips": {"classes": []}}"#,
        #"{"clips": {"dir": "clips"}}"#,
        #"{"clips": {"keep": true}}"#,
        #"{"night_audio": true}"#,
        #"{"night_audio": {"enabled": 1}}"#,
        #"{"night_audio": {"dir": "nights"}}"#,
        #"{"night_audio": {"max_mb": 0}}"#,
        #"{"night_audio": {"keep_nights": 0}}"#,
        #"{"night_audio": {"keep_nights": 2.5}}"#,
        #"{"night_audio": {"part_s": 5}}"#,
        #"{"night_audio": {"part_s": 3601}}"#,
        #"{"night_audio": {"quota_mb": 2000}}"#,
        #"{"home": true}"#,
        #"{"home": {"learn_daily": 1}}"#,
        #"{"home": {"learn_at": "25:00"}}"#,
        #"{"home": {"learn_at": "12:60"}}"#,
        #"{"home": {"learn_at": "9:00"}}"#,
        #"{"home": {"learn_at": 12}}"#,
        #"{"home": {"daily": true}}"#,
        #"{"//http": {"listen": "127.0.0.1:8080"}}"#,
    ]

    @Test func theDefaultConfigurationAndTheCorpusValidateAsTheReaderSays() throws {
        let documents = try [String(contentsOfFile: Paths.package + "/config/config.json", encoding: .utf8)]
            + files("Fuzz/corpus/config")
        let verdicts = try validate(documents, against: Self.configSchema)
        #expect(verdicts[0] == nil, "config/config.json: \(verdicts[0] ?? "")")
        expectAgreement(documents, verdicts, reader: configReader)
    }

    @Test func configurationsTheReaderRefusesTheSchemaRefuses() throws {
        try expectBothRefuse(Self.badConfigs, schema: Self.configSchema, reader: configReader)
    }

    /// The names the schemas list are the code's: a tier added to the enum, or a key added
    /// to the configuration reader, must be added to the schemas too (a class's name is written
    /// there from classes/classes.tsv by scripts/classes.sh: `SoundClassPlacesTests`).
    @Test func theSchemasListTheCodesNames() throws {
        let profile = try JSONValue(parsing: String(contentsOfFile: Self.profileSchema, encoding: .utf8))
        let config = try JSONValue(parsing: String(contentsOfFile: Self.configSchema, encoding: .utf8))
        func strings(_ v: JSONValue?) -> [String] {
            guard case let .array(items)? = v else { return [] }
            return items.compactMap(\.stringValue)
        }
        func keys(_ v: JSONValue?) -> [String] {
            guard case let .object(members)? = v else { return [] }
            return members.map(\.0)
        }
        #expect(strings(profile["$defs"]?["tier"]?["enum"]) == Tier.allCases.map(\.rawValue))
        #expect(strings(config["$defs"]?["sink"]?["properties"]?["min_tier"]?["enum"]) == Tier.allCases.map(\.rawValue))
        #expect(keys(config["properties"]) == DaemonConfig.keys)
        #expect(keys(config["$defs"]?["sink"]?["properties"]) == SinkConfig.commonKeys)
        #expect(keys(config["$defs"]?["clips"]?["properties"]) == ClipConfig.keys)
        #expect(keys(config["$defs"]?["nightAudio"]?["properties"]) == NightAudioConfig.keys)
        #expect(keys(config["properties"]?["http"]?["properties"]) == HTTPConfig.keys)
        #expect(keys(config["properties"]?["home"]?["properties"]) == HomeConfig.keys)
    }
}
