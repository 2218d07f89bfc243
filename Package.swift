// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "somniq",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "somniq", targets: ["somniq"]),
        .library(name: "SomniqCore", targets: ["SomniqCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The web page's HTTP server (SwiftNIO's parser under it). No traits: its
        // "FullFoundation" would link Foundation and ICU's data (35 MB) back in, and its
        // swift-configuration support is not used.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // SwiftNIO, which Hummingbird is built on: the web server's own channel handler (the
        // limits on connections, the deadline for a request's head).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
    ],
    targets: [
        .systemLibrary(name: "CALSA", pkgConfig: "alsa",
                       providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f",
                       providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr",
                       providers: [.apt(["libsoxr-dev"])]),
        // libcurl and libmosquitto (libcurl4-openssl-dev, libmosquitto-dev), opened with
        // dlopen only when a webhook or MQTT sink is configured: not linked.
        .target(name: "CNetLibs"),
        // Header-only wrappers of C library calls Swift cannot make (variadic ones).
        .systemLibrary(name: "CSupport"),

        // Pure, deterministic signal processing, classification and alert logic. Its data
        // (the built-in profiles, the learned rules) is embedded from the repository's one
        // copy at build time.
        .target(name: "SomniqCore", dependencies: [
            .product(name: "RealModule", package: "swift-numerics"),
        ], plugins: ["EmbedData"]),
        .plugin(name: "EmbedData", capability: .buildTool()),

        // The event log's one schema: every record as a type, encoded and decoded here alone.
        .target(name: "SomniqLog", dependencies: ["SomniqCore"]),

        // What the I/O modules share in place of full Foundation: escaping outside text, raw
        // paths, stderr, columns, ISO 8601, the clock (`IOClock`), the workers, threads.
        .target(name: "SomniqSupport", dependencies: ["CSupport"]),

        // Audio in: files (libsndfile), resampling (libsoxr), the FFT (FFTW), the sources.
        .target(name: "SomniqAudio", dependencies: [
            "SomniqCore", "SomniqLog", "SomniqSupport", "CFFTW", "CSndFile", "CSoxr",
        ]),

        // What somniq is told: the daemon's configuration and its parts (HTTP, sinks, clips,
        // night audio, home), profile lookup, files of learned rules and home memory, and
        // the clips directory.
        .target(name: "SomniqConfig", dependencies: ["SomniqCore", "SomniqSupport"]),

        // What a log is read into: nights, episodes, the log's index, the night report (text,
        // HTML), history, the morning summary, labels and home learning, the nights' folders.
        .target(name: "SomniqReports", dependencies: ["SomniqCore", "SomniqLog", "SomniqSupport", "SomniqConfig"],
                plugins: ["EmbedData"]),

        // Where records go: the durable event log, the sink protocol, the notification hub
        // and its notifiers (ntfy, webhook, exec, MQTT), metrics, the journal, the night
        // recorder, the live state the web page reads. No audio library.
        .target(name: "SomniqSinks", dependencies: [
            "SomniqCore", "SomniqLog", "SomniqSupport", "SomniqConfig", "SomniqReports", "CNetLibs",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // One stream through the pipeline: the session and its factory, replay, clips and the
        // night audio (libsndfile), the record writers (JSONL, TSV, table), eval and bench.
        .target(name: "SomniqSession", dependencies: [
            "SomniqCore", "SomniqLog", "SomniqSupport", "SomniqAudio", "SomniqConfig", "SomniqReports",
            "SomniqSinks", "CSndFile",
        ]),

        // The daemon's service (given its device by the command): its session, reloads,
        // daily learning, the live clock, sd_notify, the journal's log handler.
        .target(name: "SomniqDaemon", dependencies: [
            "SomniqCore", "SomniqLog", "SomniqSupport", "SomniqAudio", "SomniqConfig", "SomniqReports",
            "SomniqSinks", "SomniqSession",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // ALSA capture: the device, its reader thread, `CaptureSource`, device listing. Its
        // own module, so that what reads logs and reports (the web page, the fuzz build)
        // neither builds nor links ALSA; only `somniq` (run, devices) depends on it.
        .target(name: "SomniqCapture", dependencies: ["SomniqAudio", "SomniqSupport", "SomniqLog", "SomniqCore", "CALSA"]),

        // The web page (`run` with "http", `serve`): routes, the token, clips over HTTP.
        // Its own module, so that the fuzz build does not build the server. It depends on
        // neither SomniqCapture nor SomniqAudio: serving the page needs no microphone, and
        // links no audio library.
        .target(name: "SomniqWeb", dependencies: [
            "SomniqReports", "SomniqSinks", "SomniqConfig", "SomniqSupport", "SomniqLog", "SomniqCore",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        .executableTarget(name: "somniq", dependencies: [
            "SomniqDaemon", "SomniqSession", "SomniqSinks", "SomniqReports", "SomniqConfig", "SomniqAudio",
            "SomniqSupport", "SomniqCapture", "SomniqLog", "SomniqCore", "SomniqWeb",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], linkerSettings: [
            // lld packs the release binary's 80,000 relative relocations into a few KB (RELR,
            // glibc ≥ 2.36) instead of a 1.9 MB table the loader reads, and writes over, at
            // every start: 1.5 MB less resident memory. lld ships with the toolchain.
            // -z now: every symbol is bound at start, so the GOT is read-only (full RELRO,
            // as Debian's hardening has it).
            // --no-export-dynamic: the driver exports every symbol (-rdynamic), a 2.4 MB table
            // of names nothing looks up; without it the binary is 25.4 MiB stripped, not 27.8,
            // and 1.3-2 MB less is resident. (A crash's backtrace from a stripped binary then
            // names no functions: symbolicate it against the unstripped build.)
            // --symbol-ordering-file: the functions listening and replaying run, laid out
            // together (packaging/somniq.order, made by scripts/symbol-order.sh), so that the
            // 64 kB the kernel maps around each first touch of the code hold little else: a
            // listening somniq peaks at 22.6 MB resident, not 27.1 with the sections unordered
            // (make live-bench). It orders each function where the code is compiled a function
            // to a section (Makefile's RELEASE_FLAGS); a name the binary no longer has is
            // passed over.
            .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                          "-Xlinker", "-z", "-Xlinker", "now", "-Xlinker", "--no-export-dynamic",
                          "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/packaging/somniq.order",
                          "-Xlinker", "--no-warn-symbol-ordering"],
                         .when(configuration: .release)),
        ]),

        // A deterministic battery of synthetic smoke/CO alarms and look-alikes, and the
        // scoring of a case through the pipeline (pure, as the core: no files, no C, no Foundation).
        .target(name: "AlarmBattery", dependencies: [
            "SomniqCore", .product(name: "RealModule", package: "swift-numerics"),
        ]),

        .executableTarget(name: "somniq-battery", dependencies: [
            "AlarmBattery", "SomniqAudio", "SomniqConfig", "SomniqSupport", "SomniqCore",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "SomniqCoreTests", dependencies: ["SomniqCore"]),
        .testTarget(name: "SomniqLogTests", dependencies: ["SomniqLog", "SomniqCore"]),
        // What the I/O test targets share: the paths of fixtures and of the somniq under test,
        // running programs, the live rig (ALSA's file plugin, PulseAudio), brokers and
        // servers on loopback, the web page's client, the test clock.
        .target(name: "SomniqTestSupport", dependencies: [
            "SomniqDaemon", "SomniqSession", "SomniqAudio", "SomniqConfig", "SomniqSupport", "SomniqLog", "SomniqCore",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/SomniqTestSupport"),
        .testTarget(name: "SomniqSupportTests", dependencies: ["SomniqSupport", "SomniqTestSupport"]),
        .testTarget(name: "SomniqAudioTests", dependencies: [
            "SomniqAudio", "SomniqConfig", "SomniqCore", "AlarmBattery", "SomniqTestSupport",
        ]),
        .testTarget(name: "SomniqConfigTests", dependencies: [
            "SomniqConfig", "SomniqSupport", "SomniqCore", "SomniqTestSupport",
        ]),
        .testTarget(name: "SomniqReportsTests", dependencies: [
            "SomniqReports", "SomniqConfig", "SomniqSupport", "SomniqLog", "SomniqCore", "SomniqTestSupport",
        ]),
        .testTarget(name: "SomniqSinksTests", dependencies: [
            "SomniqSinks", "SomniqConfig", "SomniqSupport", "SomniqLog", "SomniqCore", "SomniqTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "SomniqSessionTests", dependencies: [
            "SomniqSession", "SomniqSinks", "SomniqReports", "SomniqConfig", "SomniqAudio", "SomniqSupport",
            "SomniqLog", "SomniqCore", "SomniqTestSupport",
        ]),
        .testTarget(name: "SomniqDaemonTests", dependencies: [
            "SomniqDaemon", "SomniqSession", "SomniqSinks", "SomniqReports", "SomniqConfig", "SomniqAudio",
            "SomniqSupport", "SomniqLog", "SomniqCore", "SomniqTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "SomniqWebTests", dependencies: [
            "SomniqWeb", "SomniqSinks", "SomniqReports", "SomniqConfig", "SomniqSupport", "SomniqCore",
            "SomniqTestSupport", .product(name: "NIOCore", package: "swift-nio"),
            // The connections' deadlines on a loop whose time the test moves.
            .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
        .testTarget(name: "SomniqCaptureTests", dependencies: [
            "SomniqCapture", "SomniqAudio", "SomniqSupport", "SomniqLog", "SomniqCore", "SomniqTestSupport",
        ]),
        // The program as a whole, as installed: hostile input and signals, `make install`,
        // the systemd unit, shell completion, the places a class is named.
        .testTarget(name: "SomniqCommandTests", dependencies: [
            "SomniqSinks", "SomniqConfig", "SomniqCore", "SomniqTestSupport",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
