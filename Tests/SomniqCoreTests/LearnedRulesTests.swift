import Testing
@testable import SomniqCore

/// A file of learned rules with the header this somniq expects and `body` after it.
private func rulesText(_ body: String) -> String {
    "somniq-learned-rules 1\ninputs \(LearnedInputs.count) \(LearnedRules.inputsDigest)\n" + body
}

/// An input vector of zeros but for the named inputs.
private func inputs(_ values: [String: Float]) -> [Float] {
    var x = [Float](repeating: 0, count: LearnedInputs.count)
    for (name, v) in values { x[LearnedInputs.names.firstIndex(of: name)!] = v }
    return x
}

/// Two trees for speech: the first splits on the voiced fraction then on f0, the second is one leaf.
private let speechRules = rulesText("""
    class speech ship cutoff=0.5 rounds=2 cv_hand=0.40 cv_learned=0.60
    tree
    s voiced@0 0.5 0.1
    l -1
    s f0@0 300 0.4
    l 2
    l 0.25
    tree
    l 0.5

    """)

@Test func aSumOfTreesWalksEachTreeByItsSplitsAndAnInputAtTheThresholdGoesLeft() throws {
    let rules = try LearnedRules(text: speechRules)
    let rule = try #require(rules.rule(for: .speech))
    #expect(rule.trees == 2 && rule.ships && rule.cutoff == 0.5)
    func margin(_ v: [String: Float]) -> Float { inputs(v).withUnsafeBufferPointer { rule.margin($0) } }
    #expect(margin(["voiced@0": 0.2]) == -0.5)                    // left leaf −1, plus 0.5
    #expect(margin(["voiced@0": 0.5]) == -0.5)                    // at the threshold: left
    #expect(margin(["voiced@0": 0.9, "f0@0": 150]) == 2.5)
    #expect(margin(["voiced@0": 0.9, "f0@0": 300.5]) == 0.75)
    // At the cutoff a window scores the balanced profile's `on`; above it, more.
    let at = inputs(["voiced@0": 0.9, "f0@0": 350]).withUnsafeBufferPointer { rule.score($0) }  // 0.75
    #expect(abs(at - 1 / (1 + Float.exp(-(0.25 + LearnedRules.cutoffLogit)))) < 1e-6)
    #expect(inputs(["voiced@0": 0.9]).withUnsafeBufferPointer { rule.score($0) } > 0.9)
}

@Test func aThresholdNoFloatCanHoldComparesAsTheTrainersDoubleDid() throws {
    // 0.1 as a double lies below Float(0.1): the trainer sent Float(0.1) right, and so must somniq.
    let rules = try LearnedRules(text: rulesText("class music ship cutoff=0\ntree\ns flat@0 0.1 0\nl -1\nl 1\n"))
    let rule = try #require(rules.rule(for: .music))
    #expect(inputs(["flat@0": 0.1]).withUnsafeBufferPointer { rule.margin($0) } == 1)
    #expect(inputs(["flat@0": Float(0.1).nextDown]).withUnsafeBufferPointer { rule.margin($0) } == -1)
}

@Test func theInputsThatWeighedMostAreCreditedWithTheChangesAlongThePath() throws {
    let rule = try #require(try LearnedRules(text: speechRules).rule(for: .speech))
    let w = inputs(["voiced@0": 0.9, "f0@0": 150]).withUnsafeBufferPointer { rule.weights($0, count: 3) }
    // From 0.1 to 0.4 at the voiced split, from 0.4 to 2 at the f0 split.
    #expect(w.map(\.input) == ["f0@0", "voiced@0"])
    #expect(w.map(\.weight) == [Double(Float(2) - 0.4), Double(Float(0.4) - 0.1)])
    #expect(w[0].value == 150)
}

@Test func showingARulePrintsItsTreesWithTheInputsNames() throws {
    let rule = try #require(try LearnedRules(text: speechRules).rule(for: .speech))
    #expect(rule.describe() == """
        tree 1
          if voiced@0 <= 0.5:
            → -1
          else:
            if f0@0 <= 300:
              → 2
            else:
              → 0.25
        tree 2
          → 0.5

        """)
}

@Test(arguments: [
    ("somniq-learned-rules 2\n", "line 1: this somniq reads format 1 of learned rules, not '2'"),
    ("somniq-learned-rules 1\ninputs 3 abc\n", "line 2: the rules were fitted on other inputs than this somniq computes; re-fit them (make learn)"),
    (rulesText("class smoke_alarm ship cutoff=0\ntree\nl 1\n"), "line 3: smoke_alarm is decided by its own detector, not a learned rule"),
    (rulesText("class speech ship cutoff=0\ntree\ns loudness@0 1 0\nl 1\nl 2\n"), "line 5: unknown input 'loudness@0'"),
    (rulesText("class speech ship cutoff=0\ntree\ns voiced@0 1 0\nl 1\n"), "line 6: class speech: its last tree is incomplete"),
    (rulesText("class speech maybe cutoff=0\n"), "line 3: 'maybe' must be 'ship' or 'hand'"),
    (rulesText("class speech ship\ntree\nl 1\n"), "line 3: class speech needs cutoff=<number>"),
    (rulesText("class speech ship cutoff=0\ntree\nl 1\nclass speech ship cutoff=0\n"), "line 6: class speech appears twice"),
    ("", "line 1: no 'inputs' line: not a file of learned rules"),
    (rulesText("l 1\n"), "line 3: a node outside a tree"),
    (rulesText("class speech ship cutoff=0\ntree\n" + String(repeating: "s voiced@0 1 0\n", count: 9)),
     "line 13: a tree deeper than 8 splits"),
])
func aFileOfLearnedRulesThatIsWrongIsRefusedNamingTheLineAndTheProblem(text: String, message: String) {
    #expect(throws: LearnedRules.ParseError.self) { try LearnedRules(text: text) }
    do { _ = try LearnedRules(text: text) } catch { #expect(error.description == message) }
}

@Test func theRulesBuiltIntoSomniqParseAndEachUseDecidesItsClasses() throws {
    let builtin = try #require(LearnedRules.builtin)
    var rules = builtin
    rules.use = .hand
    #expect(!rules.decidesAny)
    rules.use = .learned
    #expect(LearnedRules.candidates.allSatisfy { rules.decides($0) == (rules.rule(for: $0) != nil) })
    rules.use = .shipped
    #expect(LearnedRules.candidates.allSatisfy { rules.decides($0) == (rules.rule(for: $0)?.ships == true) })
    #expect(!rules.decides(.smokeAlarm) && !rules.decides(.snoring) && !rules.decides(.breathing))
}

@Test func theBuiltInRulesFormTheBuildMadeIsTheTextReadBitForBit() throws {
    let text = try LearnedRules(text: LearnedRules.builtinText)
    let form = try #require(LearnedRules.builtin)
    #expect(form.header.map { "\($0.key)=\($0.value)" } == text.header.map { "\($0.key)=\($0.value)" })
    #expect(form.use == text.use && form.rules.count == text.rules.count)
    for (a, b) in zip(form.rules, text.rules) {
        #expect((a == nil) == (b == nil))
        guard let a, let b else { continue }
        #expect(a.soundClass == b.soundClass && a.ships == b.ships && a.cutoff.bitPattern == b.cutoff.bitPattern)
        #expect(a.figures.map { "\($0.key)=\($0.value)" } == b.figures.map { "\($0.key)=\($0.value)" })
        #expect(a.roots == b.roots)
        #expect(a.nodes.map { [UInt32(bitPattern: $0.feature), UInt32(bitPattern: $0.right), $0.threshold.bitPattern, $0.value.bitPattern] }
                == b.nodes.map { [UInt32(bitPattern: $0.feature), UInt32(bitPattern: $0.right), $0.threshold.bitPattern, $0.value.bitPattern] })
    }
    let net = try #require(form.network), textNet = try #require(text.network)
    #expect(net.classes == textNet.classes && net.convs.count == textNet.convs.count)
    for (a, b) in zip(net.convs, textNet.convs) {
        #expect([a.inputs, a.outputs, a.kernel, a.dilation, a.pool] == [b.inputs, b.outputs, b.kernel, b.dilation, b.pool])
        #expect(a.weights.map(\.bitPattern) == b.weights.map(\.bitPattern) && a.bias.map(\.bitPattern) == b.bias.map(\.bitPattern))
    }
    #expect(net.head.map(\.bitPattern) == textNet.head.map(\.bitPattern) && net.headBias.map(\.bitPattern) == textNet.headBias.map(\.bitPattern))
}

/// A loud voiced window that stands out of the last 30 s.
private func loud(_ i: Int, snr: Float = 30, novelty: Float = 20) -> WindowFeatures {
    var f = WindowFeatures()
    f.index = i; f.startSeconds = Double(i) * 0.5
    f.floorDbfs = -60; f.peakDbfs = -60 + snr; f.levelDbfs = -63 + snr
    f.recentPeakDbfs = f.peakDbfs - novelty
    f.activeFraction = 0.9; f.voicedFraction = 0.8; f.f0Hz = 180; f.harmonicity = 0.8
    return f
}

@Test func aLearnedScoreStillNeedsTheWindowToStandOutOfTheFloor() throws {
    // A rule that says "speech" of every window.
    let always = try LearnedRules(text: rulesText("class speech ship cutoff=0\ntree\nl 5\n"))
    let heard = decide((0..<8).map { loud($0) }, learned: always)
    #expect(heard.allSatisfy { $0[.speech] > 0.9 })
    // 4 dB over the floor is under `Cues.audibleDb`: nothing, whatever the rule says.
    let faint = decide((0..<8).map { loud($0, snr: 4) }, learned: always)
    #expect(faint.allSatisfy { $0[.speech] == 0 })
}

@Test func aShortSoundALearnedRuleFindsMustStandOutOfWhatTheRoomHasBeenDoing() throws {
    let always = try LearnedRules(text: rulesText("class door ship cutoff=0\ntree\nl 5\n"))
    // Its first window's loudest frame only 1 dB over the recent peaks: a tick among ticks.
    let familiar = decide((0..<8).map { loud($0, novelty: 1) }, learned: always)
    #expect(familiar.allSatisfy { $0[.door] == 0 })
    let new = decide((0..<8).map { loud($0, novelty: 20) }, learned: always)
    #expect(new[0][.door] > 0.9)
}

@Test func withTheHandRulesTheLearnedOnesChangeNothing() throws {
    let always = try LearnedRules(text: rulesText("class speech ship cutoff=0\ntree\nl 5\n"), use: .hand)
    let windows = (0..<12).map { loud($0) }
    #expect(decide(windows, learned: always) == decide(windows, learned: nil))
}

@Test func blankLinesCarriageReturnsAndRunsOfSpacesAreReadAsTheTrainerMeantThem() throws {
    // A line of spaces alone, CRLF line ends, two spaces between words; a split whose left
    // subtree is itself a split.
    let text = rulesText("   \nclass speech ship cutoff=0\r\ntree\r\ns  voiced@0 0.5 0\r\ns f0@0 300 0\r\nl 1\r\nl 2\r\nl 3\r\n \r\n")
    let rule = try #require(try LearnedRules(text: text).rule(for: .speech))
    func margin(_ v: [String: Float]) -> Float { inputs(v).withUnsafeBufferPointer { rule.margin($0) } }
    #expect(margin(["voiced@0": 0.1, "f0@0": 100]) == 1)
    #expect(margin(["voiced@0": 0.1, "f0@0": 400]) == 2)
    #expect(margin(["voiced@0": 0.9]) == 3)
}

@Test func aLearnedRuleChangesTheScoresOfItsOwnClassAlone() throws {
    let always = try LearnedRules(text: rulesText("class speech ship cutoff=0\ntree\nl 5\n"))
    let windows = (0..<12).map { loud($0) }
    let learned = decide(windows, learned: always), hand = decide(windows, learned: nil)
    for (l, h) in zip(learned, hand) {
        for c in SoundClass.allCases where c != .speech { #expect(l[c] == h[c], "\(c.rawValue)") }
    }
    #expect(learned.contains { $0[.speech] != 0 })
}

/// A network of one layer: 32 bands into one channel by their mean (kernel 1), and a head
/// that adds the channel's mean and maximum over the decided window's steps, minus 1.
private let meanNetwork = rulesText("""
    class speech ship cutoff=0
    tree
    l 0
    network classes=speech,cough
    conv 32 1 1 1 1 \(Array(repeating: "0.03125", count: 32).joined(separator: " ")) 0
    head 1 1 0 0 -1 0

    """)

@Test func theNetworkSeesTwoSecondsRelativeToTheirLoudestLevelAndPoolsTheDecidedWindow() throws {
    let net = try #require(try LearnedRules(text: meanNetwork).network)
    #expect(net.classes == [.speech, .cough] && net.parameters == 32 + 1 + 4 + 2)
    var runner = SpectrogramNet.Runner(net)
    var loud = InlineArray<512, Float>(repeating: -30)
    // The first window: the 1.5 s before it are silence, 90 dB below it, clipped to 60 dB
    // below (-1 after scaling); the window's rows are the loudest (+1). The decided window's
    // last second is half silence: the ReLU'd channel's mean is 0.5, its maximum 1.
    runner.push(loud)
    runner.evaluate()
    #expect(runner.outputs == [1 / (1 + Float.exp(-0.5)), 0.5])
    // Four windows at one level fill the context: every input is +1.
    for _ in 0..<3 { runner.push(loud) }
    runner.evaluate()
    #expect(runner.outputs == [1 / (1 + Float.exp(-1)), 0.5])
    // Levels are relative: 40 dB quieter throughout changes nothing.
    loud = InlineArray(repeating: -70)
    for _ in 0..<4 { runner.push(loud) }
    runner.evaluate()
    #expect(runner.outputs == [1 / (1 + Float.exp(-1)), 0.5])
}

@Test func aNetworkWhoseShapeDoesNotHoldIsRefusedNamingTheLine() throws {
    func refusal(_ body: String) -> String {
        do { _ = try LearnedRules(text: rulesText(body)); return "" } catch { return error.description }
    }
    let tree = "class speech ship cutoff=0\ntree\nl 0\n"
    #expect(refusal(tree + "network classes=speech\nconv 32 1 1 1 1 1 2\n") == "line 7: 2 numbers where the layer's shape needs 33")
    #expect(refusal(tree + "conv 32 1 1 1 1 1\n") == "line 6: a 'conv' layer outside a network, or after its head")
    #expect(refusal(tree + "network classes=speech,smoke_alarm\n") == "line 6: the network's class 'smoke_alarm' is not one a learned rule decides")
    #expect(refusal(tree + "network classes=speech\nconv 16 1 1 1 1 \(Array(repeating: "1", count: 17).joined(separator: " "))\nhead 1 1 0\n")
            == "line 8: the network: the first layer must take 32 mel bands")
    #expect(refusal(tree + "network classes=speech\nconv 32 1 1 1 1 \(Array(repeating: "1", count: 33).joined(separator: " "))\n")
            == "line 7: the network has no 'head' line")
    #expect(refusal("network classes=speech\nclass speech ship cutoff=0\ntree\nl 0\n") == "line 4: the classes come before the network")
    // A damaged file cannot ask for buffers of gigabytes.
    #expect(refusal(tree + "network classes=speech\nconv 32 1 17 1 1 \(Array(repeating: "1", count: 545).joined(separator: " "))\nhead 1 1 0\n")
            == "line 8: the network: layer 1 is larger than 512 channels, a kernel of 15, a dilation of 64 or a pool of 8")
}
