import FoundationEssentials
import Glibc
import SomniqAudio
import SomniqCore
import SomniqSupport

/// `somniq eval`: replays labelled recordings and scores the detections the way
/// sed_eval does (segment-based at 1 s, event-based with a 1 s onset collar), plus
/// onset latency and false alerts per hour on background-only recordings.
public struct Evaluator {
    /// The classes scored: every class with labels (`breathing_pause` is derived and has none).
    public static let labels = SoundClass.allCases.filter { !$0.descriptor.derived }.map(\.rawValue)

    /// A recording and its labels (an empty label file: background only).
    public struct Item: Sendable {
        public var audio: String
        public var labels: [LabeledEvent]
        public var background: Bool { labels.isEmpty }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public struct ClassResult: Sendable {
        public var label: String
        public var segment: ClassCounts
        public var event: ClassCounts
        /// Median of (detected onset − labelled onset) over the labels detected, seconds.
        public var medianLatency: Double?
    }

    public struct Result: Sendable {
        public var profile: String
        public var classes: [ClassResult]
        public var segmentAverage: EvalScores
        public var eventAverage: EvalScores
        public var segmentOverall: ClassCounts
        public var eventOverall: ClassCounts
        public var labelledFiles: Int
        public var backgroundFiles: Int
        public var backgroundHours: Double
        /// Alerted events on background-only recordings (any tier / critical tier).
        public var falseAlerts: Int
        public var falseCriticalAlerts: Int
        public var falseAlertsPerHour: Double { backgroundHours > 0 ? Double(falseAlerts) / backgroundHours : .nan }
    }

    /// Audio files among `paths` (directories searched recursively) that have a sibling
    /// `.tsv` label file. Files without labels are reported in `skipped`.
    public static func collect(_ paths: [String]) throws -> (items: [Item], skipped: [String]) {
        let audioExtensions: Set<String> = ["wav", "flac", "ogg", "oga", "opus", "aif", "aiff", "au", "caf", "w64"]
        var audio: [String] = []
        for path in paths {
            var isDirectory = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Failure(description: "\(path): no such file or directory")
            }
            if isDirectory {
                // Everything under it, not following links to directories (as FileManager's
                // enumerator); an unreadable folder in it is searched no further.
                for relative in subpaths(path) {
                    if audioExtensions.contains(PathText.pathExtension(relative).lowercased()) {
                        audio.append(PathText.appending(path, relative))
                    }
                }
            } else {
                audio.append(path)
            }
        }
        var items: [Item] = [], skipped: [String] = []
        for file in audio.sorted() {
            let labelPath = PathText.deletingExtension(file) + ".tsv"
            var st = stat()
            guard lstat(labelPath, &st) == 0 else { skipped.append(file); continue }
            let text: [UInt8]
            switch TextFile.read(labelPath, what: "a label file (.tsv)") {
            case let .success(t): text = t
            case let .failure(e): throw Failure(description: "\(LogText.escape(labelPath)): \(e.problem)")
            }
            let seconds: Double
            do { seconds = try AudioFileReader(path: file).durationSeconds } catch { throw Failure(description: "\(error)") }
            let events: [LabeledEvent]
            do { events = try LabelFile.parse(String(decoding: text, as: UTF8.self), name: labelPath, audioSeconds: seconds) } catch {
                throw Failure(description: LogText.escape("\(error)"))
            }
            for e in events where !labels.contains(e.label) {
                throw Failure(description: "\(labelPath): unknown class \"\(e.label)\" (classes: \(labels.joined(separator: ", ")))")
            }
            items.append(Item(audio: file, labels: events))
        }
        return (items, skipped)
    }

    /// The paths under `directory`, relative to it, depth first; links are listed but not
    /// followed, and a folder that cannot be read is left out with what it holds.
    private static func subpaths(_ directory: String) -> [String] {
        var out: [String] = []
        func walk(_ relative: String) {
            let here = relative.isEmpty ? directory : PathText.appending(directory, relative)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: here) else { return }
            for name in names.sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                out.append(path)
                var st = stat()
                if lstat(PathText.appending(directory, path), &st) == 0, st.st_mode & S_IFMT == S_IFDIR { walk(path) }
            }
        }
        walk("")
        return out
    }

    /// What a replay of one file detected.
    public struct Detections: Sendable {
        public var events: [LabeledEvent]
        public var alerts: [(label: String, tier: Tier)]
        public var seconds: Double
    }

    /// `learned`: the learned rules and which classes they decide (`Classifier.init`).
    public static func detect(_ path: String, profile: Profile, learned: LearnedRules? = LearnedRules.builtin,
                              home: HomeMemory? = nil, fit: HomeFit? = nil) async throws -> Detections {
        let found = EventCollector()
        let replayer = Replayer(profile: profile)
        replayer.factory.learned = learned
        replayer.factory.home = home
        replayer.factory.fit = fit
        let summary = try await replayer.replay(path: path, to: [found])
        let events = found.ends.map { LabeledEvent(onset: $0.onset, offset: $0.offset, label: $0.soundClass.rawValue) }
        return Detections(events: events.sorted { ($0.onset, $0.label) < ($1.onset, $1.label) },
                          alerts: found.starts.filter(\.alert).map { ($0.soundClass.rawValue, $0.tier) },
                          seconds: summary.streamSeconds)
    }

    /// Scores `items` under `profile`; `estimates` receives each file's scored detections.
    public static func evaluate(_ items: [Item], profile: Profile, learned: LearnedRules? = LearnedRules.builtin, home: HomeMemory? = nil,
                                fit: HomeFit? = nil, estimates: ((Item, [LabeledEvent]) throws -> Void)? = nil) async throws -> Result {
        var segment = try SegmentBasedMetrics(labels: labels)
        var event = try EventBasedMetrics(labels: labels)
        var latencies: [String: [Double]] = [:]
        var result = Result(profile: profile.name, classes: [], segmentAverage: .init(precision: 0, recall: 0, f1: 0),
                            eventAverage: .init(precision: 0, recall: 0, f1: 0), segmentOverall: ClassCounts(),
                            eventOverall: ClassCounts(), labelledFiles: 0, backgroundFiles: 0, backgroundHours: 0,
                            falseAlerts: 0, falseCriticalAlerts: 0)
        for item in items {
            let found = try await detect(item.audio, profile: profile, learned: learned, home: home, fit: fit)
            let scored = found.events.filter { labels.contains($0.label) }
            try estimates?(item, scored)
            try segment.add(reference: item.labels, estimated: scored)
            try event.add(reference: item.labels, estimated: scored)
            if item.background {
                result.backgroundFiles += 1
                result.backgroundHours += found.seconds / 3600
                result.falseAlerts += found.alerts.count
                result.falseCriticalAlerts += found.alerts.filter { $0.tier == .critical }.count
            } else {
                result.labelledFiles += 1
            }
            // Latency: the first detection of the class that starts within the collar
            // before the label or while it lasts.
            for ref in item.labels {
                if let hit = scored.first(where: { $0.label == ref.label && $0.onset >= ref.onset - event.collar && $0.onset <= ref.offset }) {
                    latencies[ref.label, default: []].append(hit.onset - ref.onset)
                }
            }
        }
        result.classes = labels.map { label in
            let l = (latencies[label] ?? []).sorted()
            let median: Double? = l.isEmpty ? nil : (l.count % 2 == 1 ? l[l.count / 2] : (l[l.count / 2 - 1] + l[l.count / 2]) / 2)
            return ClassResult(label: label, segment: segment.classWise[label]!, event: event.classWise[label]!, medianLatency: median)
        }
        result.segmentAverage = segment.classWiseAverage
        result.eventAverage = event.classWiseAverage
        result.segmentOverall = segment.overall
        result.eventOverall = event.overall
        return result
    }
}
