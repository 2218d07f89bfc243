// libFuzzer target: the daemon's configuration file (`/etc/somniq/config.json`).
//
// `DaemonConfig.parse(_:file:)`, which `DaemonConfig.read(path:)` and a reload (SIGHUP)
// call, with its sink parsing (`SinkConfig.parse`, `nameDistinctly`). An accepted
// configuration is used as the daemon uses it: its metrics path, command-line overrides,
// and each sink's admission of every class and tier. Sinks are not started (that would
// run programs and open connections). Errors the code throws are fine; a trap, an ASan
// report, a hang or a leak is a finding.
//
// Built by scripts/fuzz.sh; not part of the package build.
import SomniqConfig
import SomniqCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let config: DaemonConfig
    do { config = try DaemonConfig.parse(text, file: "config.json") } catch {
        _ = error.description
        return 0
    }
    _ = config.metricsPath
    _ = config.watchLimits
    let overridden = config.overridden(by: .init(device: "hw:0", profile: "sensitive", log: "/tmp/x.jsonl"))
    precondition(overridden.sinks == config.sinks)
    var names = Set<String>()
    for sink in config.sinks {
        precondition(names.insert(sink.name).inserted, "two sinks are both named \(sink.name)")
        _ = sink.typeName
        for c in SoundClass.allCases {
            for t in Tier.allCases { _ = sink.admits(c, tier: t) }
        }
    }
    return 0
}
