import Foundation
import Logging
@testable import SomniqAudio
@testable import SomniqConfig
import SomniqCore
@testable import SomniqDaemon
import SomniqLog
@testable import SomniqSession
@testable import SomniqSupport
import SomniqTestSupport
import Synchronization
import Testing

/// `"home": {"learn_daily": true}`: the daemon learns this home's memory once a day at
/// `learn_at`, local time (and at once when it has not learned since the last one), as
/// `somniq learn --home` does, and puts it in force without a restart.
@Suite(.serialized) final class DailyLearningTests {
    let dir = temporaryDirectory()
    deinit { try? FileManager.default.removeItem(atPath: dir) }

    static let cough = "r1795389000-e4", dog = "r1795389000-e6", cry = "r1795389000-e7"

    /// The demo night replayed from 23:10 on 2026-11-22 into the daemon's log.
    func night() throws -> String {
        let log = dir + "/events.jsonl"
        let r = try somniq(["replay", Paths.demoNight, "--format", "jsonl", "--output", log, "--start", "2026-11-22T23:10"])
        #expect(r.status == 0, "\(r.stderr)")
        return log
    }

    func label(_ id: String, _ verdict: String, _ log: String) throws {
        #expect(try somniq(["label", id, "--as", verdict, "--log", log]).status == 0)
    }

    fileprivate func daemon(log: String, wall: Wall, journal: JournalLines, learnDaily: Bool = true, executable: String = Paths.somniq,
                            timeout: Duration = .seconds(600)) throws -> SessionService {
        var config = DaemonConfig()
        config.log = log
        config.home.learnDaily = learnDaily
        var options = SessionService.Options(config: config, configPath: nil)
        options.clocks = wall.clocks
        options.profileDirectory = dir
        // The learning runs `somniq learn --home` in a child process: the daemon's own
        // binary is /proc/self/exe, which here is the test runner.
        options.executable = executable
        options.learnTimeout = timeout
        return try SessionService(options: options, source: NoDevice(), controls: AsyncStream { $0.finish() }, logger: journal.logger)
    }

    @Test func theDaemonLearnsAtOnceThenAtLearnAtAndPutsTheMemoryInForce() async throws {
        let log = try night()
        try label(Self.cough, "right", log)
        try label(Self.dog, "not", log)
        let wall = Wall(), journal = JournalLines()
        wall.set("2026-11-23T10:00")
        let service = try daemon(log: log, wall: wall, journal: journal)
        #expect(await service.homeMemory == nil)

        // Never learned: at once.
        await service.learnHomeIfDue()
        let path = HomeMemoryFile.besideLog(log)
        let first = try HomeMemoryFile.read(path: path)
        #expect(Set(first.entries.map(\.eventID)) == [Self.cough, Self.dog])
        #expect(DailyLearning.learned(first) == WallClock.parse("2026-11-23T10:00"), "learned at the daemon's wall-clock time")
        #expect(await service.homeMemory?.entries.count == first.entries.count, "in force without a restart")
        // This home's fit, learned beside it, is put in force with it.
        let fit = try HomeFitFile.read(path: HomeFitFile.beside(path))
        #expect(fit.learned.flatMap(WallClock.parse) == WallClock.parse("2026-11-23T10:00"), "learned at the daemon's wall-clock time")
        #expect(await service.homeFit == fit, "in force without a restart")
        #expect(journal.all == ["info: learned this home's memory: \(path): \(HomeMemoryFile.summary(first)); \(HomeFitFile.said(fit)); in force now"])

        // A label given since: not learned before noon.
        try label(Self.cry, "right", log)
        wall.set("2026-11-23T11:59")
        await service.learnHomeIfDue()
        #expect(try HomeMemoryFile.read(path: path).header.map(\.value) == first.header.map(\.value))
        #expect(journal.all.count == 1)

        // Noon: learned again, with the cry, and put in force.
        wall.set("2026-11-23T12:00:30")
        await service.learnHomeIfDue()
        let second = try HomeMemoryFile.read(path: path)
        #expect(Set(second.entries.map(\.eventID)) == [Self.cough, Self.dog, Self.cry])
        #expect(DailyLearning.learned(second) == WallClock.parse("2026-11-23T12:00:30"))
        #expect(await service.homeMemory.map { Set($0.entries.map(\.eventID)) } == [Self.cough, Self.dog, Self.cry])
        #expect(journal.all.count == 2 && journal.all[1].hasPrefix("info: learned this home's memory: \(path): "))

        // Once a day: not again that day.
        wall.set("2026-11-23T23:00")
        await service.learnHomeIfDue()
        #expect(journal.all.count == 2)
    }

    @Test func withNoLabelTheDaemonSaysSoOnceAndKeepsListeningWithTheMemoryItHas() async throws {
        let log = try night()
        let wall = Wall(), journal = JournalLines()
        wall.set("2026-11-23T12:00")
        let service = try daemon(log: log, wall: wall, journal: journal)
        await service.learnHomeIfDue()
        #expect(journal.all == ["warning: this home's memory was not learned; the one in force is kept: \(log): no event is labelled (somniq label EVENT-ID --as not|right|CLASS)"])
        #expect(!FileManager.default.fileExists(atPath: HomeMemoryFile.besideLog(log)))
        #expect(await service.homeMemory == nil)
        // Tried again at the next learn_at, not every second.
        wall.set("2026-11-23T12:00:05")
        await service.learnHomeIfDue()
        #expect(journal.all.count == 1)
        // Off: never.
        let off = try daemon(log: log, wall: wall, journal: journal, learnDaily: false)
        await off.learnHomeIfDue()
        #expect(journal.all.count == 1)
    }

    /// The learning runs in a child process, so that a fault in it (issue 47: a damaged log
    /// made `learn --home` trap) costs the learning, never the listening: a child killed by a
    /// signal, one that exits without a report, and one that runs too long are each a
    /// journal warning and a `home_learning_failed` status naming the signal or status,
    /// and the memory in force is kept.
    @Test func aLearningThatTrapsFailsOrHangsIsContainedAndSaid() async throws {
        let log = try night()
        func learner(_ name: String, _ body: String) throws -> String {
            let path = dir + "/" + name
            try "#!/bin/sh\nulimit -c 0\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
            #expect(chmod(path, 0o755) == 0)
            return path
        }
        let cases: [(String, String, String, (String, JSONValue))] = [
            ("trap.sh", "echo 'Fatal error: a trap' >&2; kill -ILL $$",
             "somniq learn --home was killed by signal 4 (SIGILL, a trap): Fatal error: a trap", ("signal", .number(4))),
            ("exit.sh", "echo 'somniq: no luck' >&2; exit 3", "somniq learn --home exited with status 3 and no report: no luck",
             ("exit_status", .number(3))),
            ("hang.sh", "exec sleep 300", "somniq learn --home was still running after 0.5 s and was stopped", ("error", .string(""))),
        ]
        for (name, body, said, detail) in cases {
            let wall = Wall(), journal = JournalLines()
            wall.set("2026-11-23T12:00")
            let service = try daemon(log: log, wall: wall, journal: journal, executable: try learner(name, body), timeout: .milliseconds(500))
            // A learning that hangs is stopped at its timeout, as the journal says; were it
            // not, `sleep 300` would end on its own and say something else.
            await service.learnHomeIfDue()
            #expect(journal.all == ["warning: this home's memory was not learned; the one in force is kept: \(said)"])
            let failed = try #require(records(log).last)
            #expect(failed["status"] == .string("home_learning_failed") && failed["error"] == .string(said), "\(failed.compactText)")
            if detail.0 != "error" { #expect(failed[detail.0] == detail.1, "\(failed.compactText)") }
            #expect(await service.homeMemory == nil && !FileManager.default.fileExists(atPath: HomeMemoryFile.besideLog(log)))
        }
        try EventLogSchemaTests.expectValid(log)
    }

    /// The learning child is waited for by a thread blocked in `waitid`, its timeout a
    /// sleep on the daemon's clock (a test's here, stepped by hand): a child still running
    /// 1 ms before its timeout is not stopped, one at it is, its process gone; and one whose
    /// learning task is cancelled is stopped at once, with no outcome.
    @Test func aLearningChildIsStoppedAtItsTimeoutOfTheDaemonsClockOrWhenCancelled() async throws {
        let pids = dir + "/pids"
        let script = dir + "/hang.sh"
        try "#!/bin/sh\necho $$ >> \(pids)\nexec sleep 300\n".write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        func pid(_ k: Int) throws -> pid_t {
            try waitUntil(timeout: 60) { ((try? String(contentsOfFile: pids, encoding: .utf8)) ?? "").split(separator: "\n").count > k }
            return pid_t(try String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n")[k])!
        }
        func gone(_ p: pid_t) -> Bool { kill(p, 0) != 0 }
        let clock = TestClock()
        let child = LearningProcess(executable: script, log: dir + "/events.jsonl", output: dir + "/memory.txt", profile: "balanced",
                                    profileDirectory: dir, now: Date(), timeout: .seconds(3600), clock: clock)

        let timed = Task(executorPreference: ThreadExecutor.daemon) { await child.run() }
        try #require(clock.waitForSleepers(1), "the timeout does not sleep on the daemon's clock")
        let first = try pid(0)
        clock.advance(.seconds(3600) - .milliseconds(1))
        // 1 ms short of its deadline the timeout still sleeps, so nothing has stopped the child.
        #expect(clock.sleepers == 1, "the timeout woke before its deadline")
        #expect(!gone(first), "stopped before its timeout")
        clock.advance(.milliseconds(1))
        guard case let .failed(failure)? = await timed.value else { Issue.record("not stopped at its timeout"); return }
        #expect(failure.description == "somniq learn --home was still running after 3600 s and was stopped")
        try waitUntil(timeout: 60) { gone(first) }

        let cancelled = Task(executorPreference: ThreadExecutor.daemon) { await child.run() }
        try #require(clock.waitForSleepers(1))
        let second = try pid(1)
        cancelled.cancel()
        #expect(await cancelled.value == nil)
        try waitUntil(timeout: 60) { gone(second) }
        #expect(clock.sleepers == 0)
    }

    @Test func aMemoryPutInForceMidStreamHoldsBackTheNextEventLikeIt() async throws {
        let log = try night()
        try label(Self.dog, "not", log)
        var learned = try await HomeLearner(logs: [log], output: dir + "/memory.txt", profile: .balanced, learned: LearnedRules.builtin)
            .learn(now: Date()).memory
        learned.radius = 100
        let samples = try readMono16k(Paths.demoNight)
        let pipeline = try Pipeline(transform: FFTWTransform(size: 1024), profile: .balanced)
        var outputs = samples[..<(60 * 16_000)].withUnsafeBufferPointer { pipeline.push($0) }
        #expect(pipeline.replaceHome(learned), "the built-in learned rules' inputs are computed")
        outputs += samples[(60 * 16_000)...].withUnsafeBufferPointer { pipeline.push($0) } + pipeline.finish()
        let starts = outputs.compactMap { o -> EventStart? in if case let .start(e) = o { e } else { nil } }
        let bark = try #require(starts.first { $0.soundClass == .dogBark })
        #expect(!bark.alert && bark.suppressed == .home, "the bark at 91.5 s, after the memory came")
        #expect(starts.filter { $0.suppressed == .home }.allSatisfy { $0.soundClass == .dogBark })

        // With no learned rules the inputs a memory judges by are not computed: refused.
        let hand = try Pipeline(transform: FFTWTransform(size: 1024), profile: .balanced, learned: nil)
        #expect(!hand.replaceHome(learned) && hand.homeMemory == nil)
    }

    @Test func theScheduleIsLearnAtOnceADayAndAtOnceWhenOneWasMissed() {
        let noon = HomeConfig.TimeOfDay(hour: 12, minute: 0)
        func at(_ t: String) -> Double { WallClock.parse(t)! }
        #expect(DailyLearning(at: noon, last: nil).due(now: at("2026-11-23T03:00")), "never learned: at once")
        let learned = DailyLearning(at: noon, last: at("2026-11-23T10:00"))
        #expect(!learned.due(now: at("2026-11-23T11:59:59")))
        #expect(learned.due(now: at("2026-11-23T12:00")))
        #expect(!DailyLearning(at: noon, last: at("2026-11-22T13:00")).due(now: at("2026-11-23T11:00")), "learned after yesterday's noon")
        #expect(DailyLearning(at: noon, last: at("2026-11-22T11:00")).due(now: at("2026-11-23T09:00")), "yesterday's noon was missed")
        #expect(DailyLearning(at: noon, last: at("2026-11-20T12:00")).due(now: at("2026-11-23T09:00")), "older than a day")
        // A wall clock stepped back (no RTC, before NTP): nothing is due.
        #expect(!DailyLearning(at: noon, last: at("2026-11-23T12:00")).due(now: at("1970-01-02T12:30")))
    }

    @Test func theConfigurationsHomeIsOffUnlessEnabledAndNamedWhenWrong() throws {
        let off = try DaemonConfig.parse("{}", file: "c.json").home
        #expect(!off.learnDaily && off.learnAt == .init(hour: 12, minute: 0))
        let on = try DaemonConfig.parse(#"{"home": {"learn_daily": true, "learn_at": "03:30"}}"#, file: "c.json").home
        #expect(on.learnDaily && on.learnAt == .init(hour: 3, minute: 30) && on.learnAt.description == "03:30")
        for (text, message) in [
            (#"{"home": {"learn_at": "25:00"}}"#, #"c.json: home.learn_at: "25:00" is not a time of day like 12:00 (00:00 to 23:59, local time)"#),
            (#"{"home": {"learn_at": "12:5"}}"#, #"c.json: home.learn_at: "12:5" is not a time of day like 12:00 (00:00 to 23:59, local time)"#),
            (#"{"home": {"learn_daily": "yes"}}"#, "c.json: home.learn_daily: must be true or false, not a string"),
            (#"{"home": {"daily": true}}"#, "c.json: home.daily: unknown key (expected one of: learn_daily, learn_at)"),
        ] {
            #expect(throws: ConfigError.self) { try DaemonConfig.parse(text, file: "c.json") }
            do { _ = try DaemonConfig.parse(text, file: "c.json") } catch { #expect(error.description == message) }
        }
        // A reload puts a new schedule in force.
        var running = DaemonConfig()
        running = running.reloaded(from: try DaemonConfig.parse(#"{"home": {"learn_daily": true}}"#, file: "c.json"))
        #expect(running.home.learnDaily)
    }
}
