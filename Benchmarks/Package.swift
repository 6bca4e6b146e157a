// swift-tools-version:6.1
// IMWire benchmarks, kept out of the main package so it has no benchmark dependency.
// Run: swift package --disable-sandbox benchmark --target WebSocketBenchmarks   (release build; see README.md)
import PackageDescription

let package = Package(
    name: "IMWireBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "IMWire", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", "2.101.2"..<"2.102.0"),
        // the other WebSocket implementation with permessage-deflate (its WSCore and WSCompression)
        .package(url: "https://github.com/hummingbird-project/swift-websocket", exact: "1.6.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // writes the pcapng the capture benchmark reads (capture-benchmark.sh)
        .executableTarget(
            name: "CaptureGenerator",
            dependencies: [.product(name: "IMWire", package: "IMWire")],
            path: "CaptureGenerator"
        ),

        // baseline: raw system zlib, for the permessage-deflate comparison
        .systemLibrary(name: "CZlibBaseline", path: "CZlibBaseline"),

        // transport framing: IMWire's WebSocket decoder, IMWireNIO's handler and the inflater against
        // swift-nio, hummingbird's swift-websocket and raw zlib
        .executableTarget(
            name: "WebSocketBenchmarks",
            dependencies: [
                .product(name: "IMWireWebSocket", package: "IMWire"),
                .product(name: "IMWireNIO", package: "IMWire"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "WSCore", package: "swift-websocket"),
                .product(name: "WSCompression", package: "swift-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                "CZlibBaseline",
            ],
            path: "Benchmarks/WebSocketBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
