/// Which alerted events (and events this home's memory held back) keep their sound
/// (`"clips"` in config.json), and how much of it.
public struct ClipPolicy: Sendable, Equatable {
    /// Events at this tier or above (more urgent) keep a clip.
    public var minTier: Tier = .high
    /// Seconds kept before the event's onset and after its end.
    public var preSeconds = 5.0
    public var postSeconds = 3.0
    /// The longest clip: a longer event keeps its first half of this and, after it, its
    /// loudest stretch of the same length.
    public var maxSeconds = 60.0
    /// The classes that keep clips; nil: every class but the private ones.
    public var classes: Set<SoundClass>?
    /// The quota, the same for the daemon and a replay: after each clip written, the oldest
    /// are deleted until they take at most `maxMB` megabytes (10^6 bytes) and none is older
    /// than `maxAgeDays`; past `maxMB`, those whose labelled events the home memory already
    /// remembers go first (`ClipStore.enforce`).
    public var maxMB = 500.0
    public var maxAgeDays = 14.0
    public var maxBytes: Int64 { Int64(maxMB * 1_000_000) }

    /// What people say and how they laugh is theirs: never kept unless named in `classes`.
    public static let privateClasses: Set<SoundClass> = [.speech, .laughter]

    public init() {}

    /// Whether an event is kept: it alerted, or this home's memory held its alert back
    /// (`"suppressed": "home"`: the event a listener most needs to hear to say the memory
    /// was wrong, `somniq label --as right`), at `minTier` or above, of a class kept. An
    /// event held back by its cooldown or logged by the profile without alerting keeps none.
    public func keeps(_ e: EventStart) -> Bool {
        guard e.alert || e.suppressed == .home, e.tier <= minTier else { return false }
        if let classes { return classes.contains(e.soundClass) }
        return !Self.privateClasses.contains(e.soundClass)
    }
}

/// Cuts the clips of alerted events out of the 16 kHz stream: from `preSeconds` before an
/// event's onset to `postSeconds` after its end, at most `maxSeconds`.
///
/// An event starts in the log only once the classifier has decided it, seconds after its
/// onset, so the recorder keeps the last seconds of the stream in a ring (`pre_s` plus
/// that delay) and starts each clip from there. Samples go into the ring and into open
/// clips, whose buffers are allocated once per clip at its full length: nothing is
/// allocated per block. Pure: it knows stream time only; naming and writing the files
/// is the caller's.
public final class ClipRecorder {
    /// A finished clip: the event's, and its samples from `startSeconds` of the stream.
    public struct Clip: Sendable {
        public var eventID: String
        public var soundClass: SoundClass
        public var name: String
        public var startSeconds: Double
        public var samples: [Float]
    }

    public let policy: ClipPolicy
    private var ring: [Float]
    /// Samples pushed so far: the stream frame after the newest in the ring.
    private var frames: Int64 = 0
    private struct Open {
        var start: EventStart
        var name: String
        var startFrame: Int64
        var samples: [Float]
        /// The frame after which the clip is complete (its end plus `postSeconds`), once the
        /// event has ended.
        var endFrame: Int64?
        /// Once the clip is full and its event goes on: the search for its loudest stretch.
        var loudest: Loudest?
    }

    /// A long event (a snoring train) keeps its first half-clip and, after it, its loudest
    /// stretch of the same length: the last half-clip heard is held in a ring, its energy a
    /// sum of whole seconds, and copied over the clip's second half whenever it is louder
    /// than what is there. Allocated once, when the clip fills.
    private struct Loudest {
        var ring: [Float]
        var filled = 0, at = 0
        /// Energy of each of the ring's whole seconds, oldest first, and of the second under way.
        var seconds: [Double] = []
        var second = 0.0, inSecond = 0
        /// Energy of what the clip's second half holds now.
        var best: Double
    }
    private var open: [Open] = []
    private let maxFrames: Int

    /// `delaySeconds`: the longest an event's onset can precede its `event_start`.
    public init(policy: ClipPolicy, delaySeconds: Double) {
        self.policy = policy
        let ringFrames = Int(((policy.preSeconds + delaySeconds) * Double(StreamClock.sampleRate)).rounded(.up))
        ring = [Float](repeating: 0, count: max(1, ringFrames))
        maxFrames = Int(policy.maxSeconds * Double(StreamClock.sampleRate))
    }

    /// The longest an onset precedes its `event_start` under `profile`: the classifier's
    /// lookahead and the trains' further wait, the longest debounce of a class kept, and
    /// 5 s for smoothing to climb to `on` (an EMA of τ = 2 s reaches 0.9 of a step in 4.6 s).
    public static func delaySeconds(policy: ClipPolicy, profile: Profile) -> Double {
        let hop = Double(StreamClock.hop) / Double(StreamClock.sampleRate)
        let decision = Double(Classifier.lookahead + Classifier.trainDelay + 2) * hop
        let debounce = SoundClass.allCases.filter { c in
            policy.classes?.contains(c) ?? !ClipPolicy.privateClasses.contains(c)
        }.map { profile.rule(for: $0).debounce }.max() ?? 0
        return decision + debounce + 5
    }

    /// Seconds of sound the ring holds.
    public var ringSeconds: Double { Double(ring.count) / Double(StreamClock.sampleRate) }

    /// Adds the next samples of the stream; returns the clips they complete.
    public func append(_ samples: UnsafeBufferPointer<Float>) -> [Clip] {
        for i in open.indices {
            let room = maxFrames - open[i].samples.count
            var take = min(room, samples.count)
            if let end = open[i].endFrame { take = min(take, Int(max(0, end - frames))) }
            if take > 0 { open[i].samples.append(contentsOf: UnsafeBufferPointer(rebasing: samples[0..<take])) }
            if open[i].endFrame == nil, take < samples.count, open[i].samples.count == maxFrames {
                keepLoudest(&open[i], UnsafeBufferPointer(rebasing: samples[take...]))
            }
        }
        // Into the ring, which keeps the newest samples; its oldest sample is frame
        // `frames - ring.count` (after the push), at index `frames % ring.count`.
        let n = ring.count
        ring.withUnsafeMutableBufferPointer { r in
            var src = samples.count > n ? samples.count - n : 0
            var at = Int((frames + Int64(src)) % Int64(n))
            while src < samples.count {
                let k = min(n - at, samples.count - src)
                r.baseAddress!.advanced(by: at).update(from: samples.baseAddress!.advanced(by: src), count: k)
                src += k
                at = (at + k) % n
            }
        }
        frames += Int64(samples.count)
        return takeFinished(atEnd: false)
    }

    /// Feeds a full clip's loudest-stretch search with the samples past its end.
    private func keepLoudest(_ o: inout Open, _ samples: UnsafeBufferPointer<Float>) {
        let half = maxFrames / 2, length = maxFrames - half
        let rate = StreamClock.sampleRate, wholeSeconds = length / rate
        var l = o.loudest ?? Loudest(ring: [Float](repeating: 0, count: length),
                                     best: o.samples[half...].reduce(0.0) { $0 + Double($1 * $1) })
        o.loudest = nil
        var ring = l.ring
        l.ring = []
        ring.withUnsafeMutableBufferPointer { ring in
            for x in samples {
                ring[l.at] = x
                l.at = l.at + 1 == length ? 0 : l.at + 1
                l.filled = min(length, l.filled + 1)
                l.second += Double(x * x)
                l.inSecond += 1
                guard l.inSecond == rate else { continue }
                l.seconds.append(l.second)
                if l.seconds.count > wholeSeconds { l.seconds.removeFirst() }
                l.second = 0
                l.inSecond = 0
                // The ring's whole seconds: louder than the stretch the clip keeps?
                let energy = l.seconds.reduce(0, +)
                guard l.filled == length, l.seconds.count == wholeSeconds, energy > l.best else { continue }
                l.best = energy
                o.samples.withUnsafeMutableBufferPointer { clip in
                    // The ring's oldest sample is at `at`: copied out in order.
                    let first = length - l.at
                    (clip.baseAddress! + half).update(from: ring.baseAddress! + l.at, count: first)
                    (clip.baseAddress! + half + first).update(from: ring.baseAddress!, count: l.at)
                }
            }
        }
        l.ring = ring
        o.loudest = l
    }

    /// An event started; true when its clip is kept. The clip starts `preSeconds` before
    /// its onset, or at the oldest sample the ring still holds.
    @discardableResult
    public func started(_ e: EventStart, name: String) -> Bool {
        guard policy.keeps(e) else { return false }
        let want = Int64(((e.onset - policy.preSeconds) * Double(StreamClock.sampleRate)).rounded())
        let oldest = max(0, frames - Int64(ring.count))
        let from = min(max(want, oldest), frames)
        var samples = [Float]()
        samples.reserveCapacity(maxFrames)
        let n = Int64(ring.count)
        var f = from
        while f < frames, samples.count < maxFrames {
            let at = Int(f % n)
            let k = min(Int(n) - at, Int(frames - f), maxFrames - samples.count)
            samples.append(contentsOf: ring[at..<at + k])
            f += Int64(k)
        }
        open.append(Open(start: e, name: name, startFrame: from, samples: samples))
        return true
    }

    /// An event ended: its clip goes on `postSeconds` past the end, then is complete. The
    /// name its clip was given, or nil when it keeps none.
    public func ended(_ e: EventEnd) -> String? {
        guard let i = open.firstIndex(where: { $0.start.id == e.id }) else { return nil }
        let end = Int64(((e.offset + policy.postSeconds) * Double(StreamClock.sampleRate)).rounded())
        open[i].endFrame = end
        // The end is decided late (a train waits 8 s for its next snore): what the clip took
        // past its end and `postSeconds` is dropped.
        let keep = Int(max(0, end - open[i].startFrame))
        if open[i].samples.count > keep { open[i].samples.removeSubrange(keep...) }
        return open[i].name
    }

    /// The stream ended: every open clip is complete with what was heard.
    public func finish() -> [Clip] { takeFinished(atEnd: true) }

    private func takeFinished(atEnd: Bool) -> [Clip] {
        var done: [Clip] = []
        open.removeAll { o in
            let heard = o.startFrame + Int64(o.samples.count)
            guard atEnd || (o.endFrame.map { heard >= $0 || frames >= $0 } ?? false) else { return false }
            done.append(Clip(eventID: o.start.id, soundClass: o.start.soundClass, name: o.name,
                             startSeconds: StreamClock.seconds(o.startFrame), samples: o.samples))
            return true
        }
        return done
    }
}
