// swift-tools-version:6.1
// IMWire: wire codecs, status registries, reconnect model and a conformance checker
// for four instant-messaging cloud protocols. One module per layer or dialect;
// data flows from IMWireCore (bytes) up to the imwire CLI, never the other way.
import PackageDescription

let package = Package(
    name: "IMWire",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "IMWire", targets: ["IMWire"]),
        // WebSocket framing and permessage-deflate alone (no protobuf), e.g. for Benchmarks/
        .library(name: "IMWireWebSocket", targets: ["IMWireWebSocket", "IMWireCompression"]),
        .executable(name: "imwire", targets: ["imwire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // bytes: cursor, writer, varints, findings, limits, strict JSON
        .target(name: "IMWireCore"),

        // compression: system zlib (Debian zlib1g-dev) and a streaming, capped Swift layer over it
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "IMWireCompression", dependencies: ["IMWireCore", "CZlib"]),

        // transport framing: WebSocket (RFC 6455 handshake and frames, RFC 7692 permessage-deflate)
        .target(
            name: "IMWireWebSocket",
            dependencies: ["IMWireCore", "IMWireCompression", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // dialect: LeanCloud realtime (protobuf2 GenericCommand, base64, flat JSON)
        .target(
            name: "IMWireLeanCloud",
            dependencies: [
                "IMWireCore",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Generated/README.md"]
        ),

        // capture: transcript readers (JSONL today; pcap, pcapng, HAR plug in here)
        .target(name: "IMWireCapture", dependencies: ["IMWireCore"]),

        // conformance: pipeline, rule catalogue, reports, fixture verification, spec generation
        .target(
            name: "IMWireConformance",
            dependencies: ["IMWireCore", "IMWireCapture", "IMWireCompression", "IMWireLeanCloud", "IMWireWebSocket"]
        ),

        // surface: umbrella module and CLI
        .target(
            name: "IMWire",
            dependencies: [
                "IMWireCore", "IMWireCompression", "IMWireWebSocket", "IMWireLeanCloud", "IMWireCapture", "IMWireConformance",
            ]
        ),
        .executableTarget(
            name: "imwire",
            dependencies: [
                "IMWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .testTarget(name: "IMWireCoreTests", dependencies: ["IMWireCore"]),
        .testTarget(name: "IMWireCompressionTests", dependencies: ["IMWireCompression"]),
        .testTarget(name: "IMWireWebSocketTests", dependencies: ["IMWireWebSocket", "IMWireCompression", "IMWireLeanCloud"]),
        .testTarget(name: "IMWireLeanCloudTests", dependencies: ["IMWireLeanCloud"]),
        .testTarget(
            name: "IMWireConformanceTests",
            dependencies: ["IMWireConformance", "IMWire"]
        ),
    ]
)
