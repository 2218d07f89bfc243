import FoundationEssentials
import Glibc

/// The corpus's background loops (`backgrounds/<kind>/*.wav`), decoded and resampled to
/// 16 kHz mono as replay reads any file: the beds of the alarm battery.
public enum BackgroundLoops {
    /// Every loop under `corpus`/backgrounds by kind (folder name), files in name order;
    /// nil when there is no such folder.
    public static func load(corpus: String) throws -> [String: [[Float]]]? {
        let root = corpus + "/backgrounds"
        let fm = FileManager.default
        guard let kinds = try? fm.contentsOfDirectory(atPath: root) else { return nil }
        var loops: [String: [[Float]]] = [:]
        for kind in kinds.sorted() {
            let files = ((try? fm.contentsOfDirectory(atPath: root + "/" + kind)) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
            for f in files {
                let source = try FileSource(path: root + "/" + kind + "/" + f)
                var samples: [Float] = []
                while let b = try source.nextBlock() { samples.append(contentsOf: b.samples) }
                loops[kind, default: []].append(samples)
            }
        }
        return loops
    }
}
