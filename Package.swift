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
        .plugin(name: "EmbedData", capability: .buildTool(), dependencies: ["learned-rules-form"]),
        // Reads rules/learned.txt into the Swift source of its binary form, for EmbedData:
        // the build's own tool, built for the host (Swift's standard library alone).
        .executableTarget(name: "learned-rules-form"),

        // The event log's one schema: every record as a type, encoded and decoded here alone.
        .target(name: "SomniqLog", dependencies: ["SomniqCore"]),

        // The world around the core: files, FFTW, the event log, the sinks, the reports, the
        // daemon's service (given its device by the command). No ALSA: capture is SomniqCapture.
        .target(name: "SomniqIO", dependencies: [
            "SomniqCore", "SomniqLog", "CFFTW", "CSndFile", "CSoxr", "CNetLibs", "CSupport",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
        ]),

        // ALSA capture: the device, its reader thread, `CaptureSource`, device listing. Its
        // own module, so that what reads logs and reports (the web page, the fuzz build of
        // SomniqIO) neither builds nor links ALSA; only `somniq` (run, devices) depends on it.
        .target(name: "SomniqCapture", dependencies: ["SomniqIO", "SomniqLog", "SomniqCore", "CALSA"]),

        // The web page (`run` with "http", `serve`): routes, the token, clips over HTTP.
        // Its own module, so that the fuzz build of SomniqIO does not build the server. It
        // does not depend on SomniqCapture: serving the page needs no microphone.
        .target(name: "SomniqWeb", dependencies: [
            "SomniqIO", "SomniqLog", "SomniqCore",
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
            "SomniqIO", "SomniqCapture", "SomniqLog", "SomniqCore", "SomniqWeb",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
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
            .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                          "-Xlinker", "-z", "-Xlinker", "now", "-Xlinker", "--no-export-dynamic"],
                         .when(configuration: .release)),
        ]),

        // A deterministic battery of synthetic smoke/CO alarms and look-alikes, and the
        // scoring of a case through the pipeline (pure, as the core: no files, no C, no Foundation).
        .target(name: "AlarmBattery", dependencies: [
            "SomniqCore", .product(name: "RealModule", package: "swift-numerics"),
        ]),

        .executableTarget(name: "somniq-battery", dependencies: [
            "AlarmBattery", "SomniqIO", "SomniqCore",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "SomniqCoreTests", dependencies: ["SomniqCore"]),
        .testTarget(name: "SomniqLogTests", dependencies: ["SomniqLog", "SomniqCore"]),
        .testTarget(name: "SomniqIOTests", dependencies: ["SomniqIO", "SomniqCapture", "SomniqLog", "SomniqCore", "SomniqWeb", "AlarmBattery",
                                                          .product(name: "NIOCore", package: "swift-nio")],
                    resources: []),
    ],
    swiftLanguageModes: [.v6]
)
