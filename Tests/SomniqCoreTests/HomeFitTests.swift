import Testing
@testable import SomniqCore

/// This home's fit: what the home marked shifts what decides each class, recall included;
/// its held-out marks choose where it is used; it never lowers a class, a critical one
/// included; its file.
struct HomeFitTests {
    /// The balanced profile's line for each class: the larger of min_confidence and on.
    static func line(_ c: SoundClass) -> Double {
        let r = Profile.balanced.rule(for: c)
        return max(r.minConfidence, r.startLevel)
    }

    /// A marked event whose windows score `scores` for class `scored` (and 0.02 for every other).
    static func marked(_ id: String, _ c: SoundClass, right: Bool, was: SoundClass? = nil, night: String = "2026-11-22",
                       scored: SoundClass? = nil, _ scores: [Float]) -> HomeMemory.Marked {
        let windows = scores.map { s in
            var v = [Float](repeating: 0.02, count: SoundClass.allCases.count)
            v[(scored ?? c).index] = s
            return v
        }
        return HomeMemory.Marked(eventID: id, night: night, soundClass: c, right: right, was: was, at: nil,
                                 windows: [HomeMemoryTests.vector(1)], scores: windows)
    }

    /// A home of quiet coughs: each marked right, carried by one window over the balanced
    /// line (0.7) and heard on the others at 0.4-0.5, where the shipped rules miss them;
    /// its doors and dog marked right score 0.02 as cough.
    static let coughs: [HomeMemory.Marked] = [
        marked("e1", .cough, right: true, [0.75, 0.45, 0.4]),
        marked("e2", .cough, right: true, [0.72, 0.5, 0.42]),
        marked("e3", .cough, right: true, [0.74, 0.44, 0.48]),
        marked("e4", .door, right: true, [0.9, 0.8]),
        marked("e5", .door, right: true, [0.85]),
        marked("e6", .dogBark, right: true, [0.9]),
    ]

    /// Steps `scores` of `c` through the alert processor, one frame each, with `fit`; its starts.
    static func starts(_ scores: [Float], _ c: SoundClass, fit: HomeFit?) -> [EventStart] {
        var p = AlertProcessor(profile: .balanced)
        var out: [EventStart] = []
        for (i, v) in scores.enumerated() {
            var s = ClassScores(); s[c] = v
            for case let .start(e) in p.step(s, frame: i, levels: .init(levelDbfs: -30, floorDbfs: -50), fit: fit) { out.append(e) }
        }
        return out
    }

    @Test func aHomeWhoseQuietCoughsWereMarkedRightFindsTheNextQuietCough() throws {
        var (fit, by) = HomeFit.learn(Self.coughs, line: Self.line)
        fit.header = [("learned", "2026-11-22T12:00:00.000Z")]
        #expect(by == "leave-one-event-out")
        let cough = try #require(fit.use(.cough), "the held-out coughs chose the fit: \(fit.text)")
        #expect(cough.shift > 0 && cough.fitErrors < cough.shippedErrors && cough.right == 3)
        // The next quiet cough: 0.5 for a window, under the shipped line.
        #expect(Self.starts([0, 0.5, 0, 0], .cough, fit: nil).isEmpty, "the shipped rules miss it")
        let found = try #require(Self.starts([0, 0.5, 0, 0], .cough, fit: fit).first, "this home's fit finds it")
        #expect(found.soundClass == .cough && found.alert && found.onset == 0.5)
        #expect(found.trace.fit == HomeFit.Decided(soundClass: .cough, shift: cough.shift, learned: "2026-11-22T12:00:00.000Z", marks: 3))
        // Silence stays silence; the classes it does not decide keep the shipped scores.
        #expect(fit.score(0, .cough) == 0 && fit.score(1, .cough) == 1)
        #expect(fit.use(.speech) == nil && fit.score(0.5, .speech) == 0.5)
        #expect(Self.starts([0, 0.5, 0, 0], .dogBark, fit: fit).isEmpty && Self.starts([0, 0.5, 0, 0], .dogBark, fit: fit).first?.trace.fit == nil)
    }

    /// Three door events marked right at 0.75, one marked "not a door" at 0.6: the shipped
    /// line (0.7) is right on every one of them. Fitted on the doors alone (the "not" held
    /// out), the shift raises the "not" over the line: the fit does worse on the held-out
    /// marks, and the shipped rules keep deciding doors.
    @Test func aFitThatDoesWorseOnTheHeldOutMarksIsNotUsed() throws {
        let marks = [Self.marked("d1", .door, right: true, [0.75]), Self.marked("d2", .door, right: true, [0.75]),
                     Self.marked("d3", .door, right: true, [0.75]), Self.marked("d4", .door, right: false, [0.6])]
        let (fit, _) = HomeFit.learn(marks, line: Self.line)
        let door = try #require(fit.classes.first { $0.soundClass == .door })
        #expect(door.shift != 0, "a shift was fitted")
        #expect(door.fitErrors > door.shippedErrors && !door.used)
        #expect(fit.use(.door) == nil && fit.score(0.6, .door) == 0.6 && !fit.acts)
    }

    /// The case of issue 48: the home's snores heard as a scream, marked "it was snoring",
    /// and as glass, a gasp, a breathing pause and the alarm, every one marked not: the fit
    /// would lower those classes, and may not; a true scream scores as the shipped rules
    /// score it, or higher. Where the home's own screams were marked right under the line,
    /// the fit raises them. Nor does it lower any other class.
    @Test func aHomesFitLeavesTheCriticalClassesAsShippedAndNeverLowersAClass() throws {
        var marks: [HomeMemory.Marked] = []
        for (k, c) in [SoundClass.scream, .glassBreak, .gasp, .breathingPause, .smokeAlarm].enumerated() {
            for i in 0..<4 {
                marks.append(Self.marked("n\(k)-\(i)", c, right: false, was: c == .scream ? .snoring : nil, night: "2026-11-2\(i % 2)", [0.95, 0.9]))
            }
        }
        let (fit, _) = HomeFit.learn(marks, line: Self.line)
        for c in [SoundClass.scream, .glassBreak, .gasp, .breathingPause, .smokeAlarm] {
            #expect(fit.classes.first { $0.soundClass == c } == nil, "\(c)")
            for s in stride(from: 0.0, through: 1.0, by: 0.05) { #expect(fit.score(s, c) == s) }
        }
        // A true scream next to those snores is alerted, as a scream, as without the fit.
        let scream = Self.starts([0, 0.9, 0.9, 0], .scream, fit: fit)
        #expect(scream.map(\.soundClass) == [.scream] && scream.map(\.alert) == [true])
        #expect(scream.map(\.tier) == Self.starts([0, 0.9, 0.9, 0], .scream, fit: nil).map(\.tier))

        // The home's quiet screams, marked right, are not raised either: a raised critical
        // class would wake the house for what lies near them.
        let quiet = [Self.marked("s1", .scream, right: true, [0.75, 0.45, 0.4]), Self.marked("s2", .scream, right: true, [0.72, 0.5, 0.42]),
                     Self.marked("s3", .scream, right: true, [0.74, 0.44, 0.48]), Self.marked("x", .door, right: true, [0.9])]
        #expect(HomeFit.learn(quiet, line: Self.line).0.use(.scream) == nil)

        // Nor another class, however many marks say its sounds are not it.
        let doors = (0..<6).map { Self.marked("d\($0)", .door, right: false, [0.95, 0.9]) } + [Self.marked("d", .door, right: true, [0.9])]
        #expect(HomeFit.learn(doors, line: Self.line).0.classes.first { $0.soundClass == .door }?.shift == 0)

        // A file that lowers a class, or fits a critical one, is refused by name.
        #expect(throws: HomeFit.ParseError(line: 3, problem: "class: lowers cough: a home's fit only raises a score (its memory holds back what was marked not this)")) {
            try HomeFit(text: "somniq-home-fit 1\npenalty 1\nclass cough used -0.5 right 1 against 4 held_out_errors 2 1\n")
        }
        #expect(throws: HomeFit.ParseError(line: 3, problem: "class: scream: a home's fit leaves the alarm and the critical classes as shipped")) {
            try HomeFit(text: "somniq-home-fit 1\npenalty 1\nclass scream used 0.5 right 4 against 1 held_out_errors 2 1\n")
        }
    }

    /// A home whose doors the shipped rules score 0 as a door, heard as a cough (0.8) and
    /// marked "it was a door": no shift raises a score of 0, but the layer over the door's
    /// and the cough's scores finds the next such door; its dog, and silence, stay as they
    /// were. The file gives the layer back as written.
    @Test func doorsTheShippedRulesScoreZeroAndHeardAsCoughsAreFoundByTheLayer() throws {
        var marks: [HomeMemory.Marked] = []
        for i in 0..<4 { marks.append(Self.marked("d\(i)", .cough, right: false, was: .door, [0.8, 0.85, 0.78])) }
        for i in 0..<3 { marks.append(Self.marked("b\(i)", .dogBark, right: true, [0.9, 0.85])) }
        var (fit, _) = HomeFit.learn(marks, line: Self.line)
        fit.header = [("learned", "2026-11-22T12:00:00.000Z")]
        let door = try #require(fit.classes.first { $0.soundClass == .door })
        let layer = try #require(door.layer, "\(fit.text)")
        #expect(layer.inputs == [.door, .cough] && layer.used && layer.fitErrors < door.shippedErrors, "\(fit.text)")
        #expect(door.shift == 0 || !door.used, "no shift raises a door scored 0")
        #expect(layer.weights[0] <= -HomeFit.silenceMargin && layer.weights[2] > 0)
        var heard = ClassScores(); heard[.cough] = 0.8
        #expect(fit.score(heard, .door) >= Self.line(.door), "the next door heard as a cough reaches the door's line")
        #expect(fit.score(ClassScores(), .door) < Self.line(.door), "silence stays under it")
        var bark = ClassScores(); bark[.dogBark] = 0.9
        #expect(fit.score(bark, .door) < Self.line(.door) && fit.score(bark, .dogBark) == Double(Float(0.9)))
        // Through the alert processor: a door event opens where the shipped rules give none.
        var p = AlertProcessor(profile: .balanced), doors: [EventStart] = []
        for i in 0..<6 {
            var s = ClassScores(); s[.cough] = i == 0 || i == 5 ? 0 : 0.8
            for case let .start(e) in p.step(s, frame: i, levels: .init(levelDbfs: -30, floorDbfs: -50), fit: fit) where e.soundClass == .door {
                doors.append(e)
            }
        }
        #expect(doors.count == 1 && doors.first?.trace.fit?.soundClass == .door, "\(doors)")
        let read = try HomeFit(text: fit.text)
        #expect(read == fit && read.text == fit.text && read.score(heard, .door) == fit.score(heard, .door), "\(fit.text)")
        // A critical class is never given a layer: marks of glass heard as a cough teach it nothing.
        let glass = (0..<4).map { Self.marked("g\($0)", .cough, right: false, was: .glassBreak, [0.8]) }
        #expect(HomeFit.learn(glass + marks, line: Self.line).0.classes.allSatisfy { $0.soundClass != .glassBreak })
    }

    /// The layer's weights are the penalised loss's minimum within its bounds, reached by
    /// Newton's method on all of them at once: at the weights returned (before rounding to 4
    /// decimals, which moves the gradient by about 1e-4 an event), the gradient is 0 for a
    /// weight within its bounds, and pushes outward for one at a bound (the intercept at
    /// −`silenceMargin`). Rows: doors heard as coughs (0.8), coughs, and a dog.
    @Test func theLayersWeightsAreTheMinimumWithinTheirBounds() throws {
        var rows: [(x: [Double], y: Bool, w: Double)] = []
        for i in 0..<12 {
            let cough = [0.8, 0.85, 0.78, 0.6][i % 4]
            rows.append(([0.05 * Double(i % 3), cough, 0], i % 3 != 0, 1 / 3))
            rows.append(([0, 0.2 * Double(i % 5), 0.9], false, 1 / 2))
        }
        let theta = HomeFit.fitLayer(rows)
        #expect(theta.count == 4 && theta[0] <= -HomeFit.silenceMargin && theta[2] > 0, "\(theta)")
        var g = [Double](repeating: 0, count: 4)
        for j in 1..<4 { g[j] = HomeFit.layerPenalty * theta[j] }
        for r in rows {
            let e = theta[0] + zip(theta.dropFirst(), r.x).map { $0 * $1 }.reduce(0, +)
            let p = HomeFit.sigmoid(e)
            for j in 0..<4 { g[j] += r.w * (p - (r.y ? 1 : 0)) * (j == 0 ? 1 : r.x[j - 1]) }
        }
        for j in 0..<4 {
            let atUpper = j == 0 && theta[0] == -HomeFit.silenceMargin
            #expect(atUpper ? g[j] <= 1e-3 : abs(g[j]) < 1e-3, "weight \(j): \(theta), gradient \(g)")
        }
        #expect(HomeFit.fitLayer(rows) == theta, "the same rows give the same weights")
    }

    @Test func theSameMarksGiveTheSameFileByteForByte() throws {
        var (a, _) = HomeFit.learn(Self.coughs, line: Self.line)
        var (b, _) = HomeFit.learn(Self.coughs, line: Self.line)
        a.header = [("learned", "2026-11-22T12:00:00.000Z"), ("profile", "balanced")]
        b.header = a.header
        #expect(Array(a.text.utf8) == Array(b.text.utf8))
        let read = try HomeFit(text: a.text)
        #expect(read == a && read.text == a.text, "it reads back as written")
        #expect(read.score(0.5, .cough) == a.score(0.5, .cough))
    }

    @Test func aDamagedFitIsRefusedByName() {
        let good = "somniq-home-fit 1\nmeta learned=2026-11-22T12:00:00.000Z\npenalty 1\nclass cough used 1.2 right 3 against 0 held_out_errors 2 0.5\n"
        #expect(throws: Never.self) { try HomeFit(text: good) }
        let cases: [(String, HomeFit.ParseError)] = [
            ("", .init(line: 0, problem: "empty: not a home fit (somniq learn --home writes one)")),
            ("somniq-home-memory 3\n", .init(line: 1, problem: "not a home fit: it starts with \"somniq-home-fit 1\" (somniq learn --home writes one)")),
            ("somniq-home-fit 1\nclass cough used 1.2 right 3 against 0 held_out_errors 2 0.5\n", .init(line: 0, problem: "no penalty line: the file is cut short")),
            ("somniq-home-fit 1\npenalty 1\nclass cough used x right 3 against 0 held_out_errors 2 0.5\n", .init(line: 3, problem: "class: \"x\" is not a number")),
            ("somniq-home-fit 1\npenalty 1\nclass cough used 9 right 3 against 0 held_out_errors 2 0.5\n", .init(line: 3, problem: "class: shift 9 of cough beyond 6")),
            ("somniq-home-fit 1\npenalty 1\nclass cough used 1.2 right 3\n", .init(line: 3, problem: "class: expected CLASS used|unused SHIFT right N against N held_out_errors SHIPPED FIT"
                + " [layer used|unused LINE INTERCEPT CLASS:WEIGHT... held_out_errors ERRORS]")),
            ("somniq-home-fit 1\npenalty 1\nclass door unused 0 right 3 against 1 held_out_errors 3 3 layer used 0.7 -1 door:1 cough:5 held_out_errors 1\n",
             .init(line: 3, problem: "class: layer: intercept -1 above -2: silence would reach the line")),
            ("somniq-home-fit 1\npenalty 1\nclass door unused 0 right 3 against 1 held_out_errors 3 3 layer used 0.7 -3 door:1 cat:5 held_out_errors 1\n",
             .init(line: 3, problem: "class: layer: \"cat:5\" is not CLASS:WEIGHT")),
            ("somniq-home-fit 1\npenalty 2\n", .init(line: 2, problem: "penalty: this somniq fits with penalty 1: learn it again (somniq learn --home)")),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text)") { try HomeFit(text: text) }
        }
    }
}
