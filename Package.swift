// swift-tools-version:6.2
// IMWire: wire codecs, status registries, reconnect model and a conformance checker
// for four instant-messaging cloud protocols. One module per layer or dialect;
// data flows from IMWireCore (bytes) up to the imwire CLI, never the other way.
import PackageDescription

/// The project's own targets are built with warnings as errors when `IMWIRE_STRICT=1`
/// (scripts/test.sh sets it, so CI does); dependencies never are.
let strict: [SwiftSetting] = Context.environment["IMWIRE_STRICT"] == "1" ? [.treatAllWarnings(as: .error)] : []

let package = Package(
    name: "IMWire",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "IMWire", targets: ["IMWire"]),
        // WebSocket framing and permessage-deflate alone (no protobuf), e.g. for Benchmarks/
        .library(name: "IMWireWebSocket", targets: ["IMWireWebSocket", "IMWireCompression"]),
        // SwiftNIO channel handlers over the codecs (kept apart so the IMWire product stays free
        // of NIO; they link no checker)
        .library(name: "IMWireNIO", targets: ["IMWireNIO"]),
        // `imwire proxy`'s forwarding, TLS interception and live check, on SwiftNIO (and swift-nio-ssl)
        // and the checker (not on IMWireNIO's handlers)
        .library(name: "IMWireProxy", targets: ["IMWireProxy"]),
        // `imwire serve`: an offline IM cloud that plays scenarios and grades the clients that use it
        .library(name: "IMWireServe", targets: ["IMWireServe"]),
        .executable(name: "imwire", targets: ["imwire"]),
        // The fuzz targets' bodies, for the libFuzzer package in Fuzz/ and the FailCases replay.
        .library(name: "IMWireFuzzTargets", targets: ["IMWireFuzzTargets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `swift package generate-documentation` for the DocC catalogue in Sources/IMWire/IMWire.docc
        // (no code of it is linked)
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `imwire proxy --tls`: TLS termination (BoringSSL) and the leaf certificates it mints
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    ],
    targets: [
        // bytes: cursor, writer, varints, findings, limits, strict JSON, status-table rows
        .target(name: "IMWireCore", swiftSettings: strict),

        // compression: system zlib (Debian zlib1g-dev) and a streaming, capped Swift layer over it
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "IMWireCompression", dependencies: ["IMWireCore", "CZlib"], swiftSettings: strict),

        // transport framing: WebSocket (RFC 6455 handshake and frames, RFC 7692 permessage-deflate)
        .target(
            name: "IMWireWebSocket",
            dependencies: ["IMWireCore", "IMWireCompression", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),

        // transport framing: MQTT 3.1/3.1.1 packets (streaming decoder, encoder, canonical JSON)
        .target(name: "IMWireMQTT", dependencies: ["IMWireCore"], swiftSettings: strict),

        // transport framing: socket.io 0.9 (protocol 1) and engine.io 3 / socket.io protocol 4, text of one
        // WebSocket message
        .target(name: "IMWireSocketIO", dependencies: ["IMWireCore"], swiftSettings: strict),

        // session: the reconnect state machine, the policy type, and the judge of a client's
        // consecutive connections (depends on Core only: each dialect defines its own policies)
        .target(name: "IMWireReconnect", dependencies: ["IMWireCore"], swiftSettings: strict),

        // the dialect contract: what each dialect module implements (a connection that reads
        // messages into findings and session facts) and registers (`DialectDefinition`)
        .target(
            name: "IMWireDialect", dependencies: ["IMWireCore", "IMWireIO", "IMWireReconnect"], swiftSettings: strict),

        // tls: TLS 1.2/1.3 records of a connection's two byte streams → its plaintext streams, given
        // key-log secrets (NSS key log, pcapng Decryption Secrets Blocks); handshake facts
        // (CBoringAEAD: an AEAD context kept across records, in the BoringSSL swift-crypto links)
        .target(name: "CBoringAEAD"),
        .target(
            name: "IMWireTLS",
            dependencies: ["IMWireCore", "CBoringAEAD", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),

        // transport: one TCP connection's two byte streams → messages: HTTP/1.1 (socket.io's
        // handshakes and long-polls), the WebSocket upgrade and its frames, MQTT packets on raw TCP
        .target(
            name: "IMWireTransport",
            dependencies: [
                "IMWireCore", "IMWireCompression", "IMWireWebSocket", "IMWireMQTT", "IMWireSocketIO", "IMWireTLS",
            ],
            swiftSettings: strict),

        // dialect: LeanCloud realtime (protobuf2 GenericCommand, base64, flat JSON)
        .target(
            name: "IMWireLeanCloud",
            dependencies: [
                "IMWireCore", "IMWireReconnect", "IMWireDialect",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Generated/README.md"], swiftSettings: strict),

        // dialect: yun2win (MQTT push: CONNECT conventions, topics, JSON commands, return codes, session)
        .target(
            name: "IMWireYun2win", dependencies: ["IMWireCore", "IMWireMQTT", "IMWireReconnect", "IMWireDialect"],
            swiftSettings: strict),

        // dialect: NetEase YunXin / NIM web link (JSON over socket.io 0.9): commands, tag maps, session, status codes
        .target(
            name: "IMWireNIM", dependencies: ["IMWireCore", "IMWireSocketIO", "IMWireReconnect", "IMWireDialect"],
            swiftSettings: strict),

        // dialect: JPush JMessage web (events over engine.io 3 / socket.io 4): events, rid, signature, session,
        // status codes
        .target(
            name: "IMWireJMessage",
            dependencies: [
                "IMWireCore", "IMWireSocketIO", "IMWireReconnect", "IMWireDialect",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),

        // registry: every vendor's status-code and enum tables and reconnect policies, in one place
        .target(
            name: "IMWireRegistry",
            dependencies: [
                "IMWireCore", "IMWireReconnect", "IMWireDialect", "IMWireMQTT", "IMWireSocketIO", "IMWireLeanCloud",
                "IMWireNIM", "IMWireJMessage",
                "IMWireYun2win",
            ],
            swiftSettings: strict),

        // files: buffered reading, writing whole or streamed, scratch files, sorted runs on disk; and
        // whether an address a server listens on is loopback
        .target(name: "IMWireIO", dependencies: ["IMWireCore"], swiftSettings: strict),

        // capture: JSONL transcripts, pcap and pcapng with TCP reassembly, HAR
        .target(name: "IMWireCapture", dependencies: ["IMWireCore", "IMWireIO"], swiftSettings: strict),

        // check: the pipeline (`Checker`: capture items → connections → dialect sessions → findings,
        // the judgement across connections), the live check (`LiveCheck`: the checker fed as bytes
        // cross a proxy or a server), conversion, the report model (`CheckReport`, what a shard
        // keeps for a merge) and the rule catalogue; no report writer, merge or tooling
        .target(
            name: "IMWireCheck",
            dependencies: [
                "IMWireCore", "IMWireCapture", "IMWireCompression", "IMWireWebSocket", "IMWireMQTT", "IMWireSocketIO",
                "IMWireReconnect", "IMWireDialect", "IMWireRegistry", "IMWireTransport", "IMWireIO", "IMWireTLS",
            ], swiftSettings: strict),

        // reports: a `CheckReport` as text, JSON, JUnit, SARIF or HTML
        .target(
            name: "IMWireReport", dependencies: ["IMWireCore", "IMWireRegistry", "IMWireCheck"], swiftSettings: strict),

        // merge: the JSON reports of a capture's shards put back together, judged across connections
        .target(
            name: "IMWireMerge",
            dependencies: ["IMWireCore", "IMWireCapture", "IMWireRegistry", "IMWireCheck", "IMWireReport", "IMWireIO"],
            swiftSettings: strict),

        // conformance tooling: Spec generation, rule descriptions, fixture verification, vectors,
        // the conformance runner and IMWire's own testee
        .target(
            name: "IMWireConformance",
            dependencies: [
                "IMWireCore", "IMWireCapture", "IMWireCompression", "IMWireWebSocket", "IMWireMQTT", "IMWireLeanCloud",
                "IMWireYun2win", "IMWireRegistry", "IMWireSocketIO", "IMWireNIM", "IMWireJMessage", "IMWireReconnect",
                "IMWireTransport", "IMWireIO", "IMWireCheck", "IMWireTLS",
            ], swiftSettings: strict),

        // surface: umbrella module, CLI, and the fuzz targets' bodies
        .target(
            name: "IMWire",
            dependencies: [
                "IMWireCore", "IMWireCompression", "IMWireWebSocket", "IMWireMQTT", "IMWireSocketIO", "IMWireLeanCloud",
                "IMWireYun2win", "IMWireNIM", "IMWireJMessage", "IMWireRegistry", "IMWireReconnect", "IMWireCapture",
                "IMWireCheck",
                "IMWireReport", "IMWireMerge", "IMWireConformance", "IMWireDialect", "IMWireTransport", "IMWireIO",
                "IMWireTLS",
            ], swiftSettings: strict),
        // NIO: ChannelHandlers over the WebSocket, MQTT and socket.io codecs and the dialects (no checker)
        .target(
            name: "IMWireNIO",
            dependencies: [
                "IMWireCore", "IMWireCompression", "IMWireWebSocket", "IMWireMQTT", "IMWireSocketIO", "IMWireDialect",
                "IMWireRegistry",
                // the dialects' typed values (`DialectMessage.Decoded`); IMWireRegistry links them already
                "IMWireLeanCloud", "IMWireNIM", "IMWireJMessage", "IMWireYun2win",
                .product(name: "NIOCore", package: "swift-nio"),
            ], swiftSettings: strict),
        // proxy: `imwire proxy`'s forwarding (NIO), explicit mode (HTTP CONNECT, SOCKS5) and TLS
        // interception (a CA, leaves minted per SNI); its live check is IMWireCheck's `LiveCheck`
        .target(
            name: "IMWireProxy",
            dependencies: [
                "IMWireCore", "IMWireCapture", "IMWireIO", "IMWireCheck", "IMWireTLS",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ], swiftSettings: strict),
        // serve: `imwire serve`, an offline IM cloud (today LeanCloud's router and RTM WebSocket) on
        // IMWireNIO's handlers that plays a scenario and grades each client with the checker
        .target(
            name: "IMWireServe",
            dependencies: [
                "IMWireCore", "IMWireIO", "IMWireCheck", "IMWireReport", "IMWireWebSocket", "IMWireSocketIO",
                "IMWireMQTT", "IMWireNIO",
                "IMWireLeanCloud", "IMWireJMessage",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ], swiftSettings: strict),
        .executableTarget(
            name: "imwire",
            dependencies: [
                "IMWire", "IMWireProxy", "IMWireServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], swiftSettings: strict),
        // A WebSocket echo server on IMWireNIO for the Autobahn|Testsuite (Tests/Autobahn/run.sh)
        .executableTarget(
            name: "imwire-echo",
            dependencies: [
                "IMWireCore", "IMWireWebSocket", "IMWireNIO",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ], swiftSettings: strict),
        .target(
            name: "IMWireFuzzTargets",
            dependencies: [
                "IMWire", "IMWireServe", "IMWireProxy", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                // the Serve target: a connection of the server on an EmbeddedChannel
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ], swiftSettings: strict),

        .testTarget(name: "IMWireCoreTests", dependencies: ["IMWireCore"], swiftSettings: strict),
        .testTarget(name: "IMWireMQTTTests", dependencies: ["IMWireMQTT"], swiftSettings: strict),
        .testTarget(name: "IMWireCompressionTests", dependencies: ["IMWireCompression"], swiftSettings: strict),
        .testTarget(
            name: "IMWireWebSocketTests", dependencies: ["IMWireWebSocket", "IMWireCompression", "IMWireLeanCloud"],
            swiftSettings: strict),
        .testTarget(
            name: "IMWireLeanCloudTests",
            dependencies: ["IMWireLeanCloud", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            swiftSettings: strict),
        .testTarget(name: "IMWireYun2winTests", dependencies: ["IMWireYun2win", "IMWireMQTT"], swiftSettings: strict),
        .testTarget(name: "IMWireSocketIOTests", dependencies: ["IMWireSocketIO"], swiftSettings: strict),
        .testTarget(name: "IMWireNIMTests", dependencies: ["IMWireNIM", "IMWireSocketIO"], swiftSettings: strict),
        .testTarget(
            name: "IMWireJMessageTests", dependencies: ["IMWireJMessage", "IMWireSocketIO"], swiftSettings: strict),
        .testTarget(
            name: "IMWireRegistryTests", dependencies: ["IMWireRegistry", "IMWireConformance"], swiftSettings: strict),
        .testTarget(name: "IMWireCaptureTests", dependencies: ["IMWireCapture", "IMWireIO"], swiftSettings: strict),
        .testTarget(name: "IMWireIOTests", dependencies: ["IMWireIO"], swiftSettings: strict),
        .testTarget(
            name: "IMWireTransportTests", dependencies: ["IMWireTransport", "IMWireCore", "IMWireWebSocket"],
            swiftSettings: strict),
        // TLS: known answers (RFC 8448) and sessions of real peers recorded by make_fixtures.py (Resources/)
        .testTarget(
            name: "IMWireTLSTests",
            dependencies: ["IMWireTLS", "IMWireCore", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["make_fixtures.py"],
            resources: [.copy("Resources")], swiftSettings: strict),
        .testTarget(
            name: "IMWireReconnectTests",
            dependencies: [
                "IMWireReconnect", "IMWireRegistry", "IMWireLeanCloud", "IMWireNIM", "IMWireJMessage", "IMWireYun2win",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "IMWireCheckTests", dependencies: ["IMWireCheck", "IMWire", "IMWireTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "IMWireReportTests", dependencies: ["IMWireReport", "IMWire", "IMWireTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "IMWireMergeTests", dependencies: ["IMWireMerge", "IMWire", "IMWireTestSupport"],
            swiftSettings: strict),
        // RuleTriggers produces the proxy's rule with a LiveCheck
        // What those four test targets share (repository paths, checking a capture or inline lines)
        .target(
            name: "IMWireTestSupport", dependencies: ["IMWire"], path: "Tests/IMWireTestSupport",
            swiftSettings: strict),
        .testTarget(
            name: "IMWireConformanceTests",
            dependencies: ["IMWireConformance", "IMWire", "IMWireProxy", "IMWireTestSupport"],
            swiftSettings: strict),
        // IMWireServe: a server in-process and a client on NIO, the scenario parser, the grading
        .testTarget(
            name: "IMWireServeTests",
            dependencies: [
                "IMWireServe", "IMWireCheck", "IMWireCore", "IMWireIO", "IMWireLeanCloud", "IMWireWebSocket",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ], swiftSettings: strict),
        .testTarget(
            name: "IMWireFuzzTargetsTests", dependencies: ["IMWireFuzzTargets", "IMWireServe"], swiftSettings: strict),
        .testTarget(name: "IMWireDialectTests", dependencies: ["IMWireDialect"], swiftSettings: strict),
        .testTarget(
            name: "IMWireNIOTests",
            dependencies: [
                "IMWireNIO", "IMWireWebSocket", "IMWireMQTT", "IMWireCore", "IMWireSocketIO", "IMWireDialect",
                "IMWireNIM",
                "IMWireJMessage", "IMWireLeanCloud",
                // the DocC article's client runs against `imwire serve`'s LeanCloud cloud
                "IMWireServe", "IMWireCheck",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ], swiftSettings: strict),
        .testTarget(
            name: "IMWireProxyTests",
            dependencies: [
                "IMWireProxy", "IMWireCheck", "IMWireCore", "IMWireMQTT", "IMWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
            ], swiftSettings: strict),
    ]
)
