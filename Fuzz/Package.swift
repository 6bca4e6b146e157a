// swift-tools-version:6.1
// libFuzzer targets for IMWire's decoders: one executable per target, each a thin entry point
// over IMWireFuzzTargets (whose invariants `swift test` also replays on FailCases/).
// Build and run with ./run.sh TARGET [SECONDS]; see README.md.
// swift-nio is a dependency of this package only, for the WebSocket differential target.
import PackageDescription

let targets = [
    "LeanCloudBinary", "LeanCloudText", "LeanCloudDifferential", "Transcript", "Checker",
    "WebSocket", "WebSocketHandshake", "Compression", "MQTT", "SocketIO", "Pcap", "Pcapng", "HAR", "CaptureChecker",
    "ReconnectEvents",
    "TLS", "KeyLog", "Scenario", "Serve", "MergeReports", "TesteeResponses", "NIOHandlers", "ProxyOpening",
]

let package = Package(
    name: "IMWireFuzz",
    dependencies: [
        .package(name: "IMWire", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", "2.101.0"..<"2.102.0"),
    ],
    targets: targets.map { name in
        .executableTarget(
            name: "Fuzz\(name)",
            dependencies: [.product(name: "IMWireFuzzTargets", package: "IMWire")],
            path: "Sources/Fuzz\(name)"
        )
    } + [
        .executableTarget(
            name: "FuzzWebSocketDifferential",
            dependencies: [
                .product(name: "IMWireFuzzTargets", package: "IMWire"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Sources/FuzzWebSocketDifferential"
        )
    ]
)
