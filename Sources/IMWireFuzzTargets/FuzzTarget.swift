import IMWireCore

/// Every fuzz target, as a function from input bytes to the invariants it broke (empty: none).
/// The libFuzzer executables in `Fuzz/` trap on a non-empty result; `swift test` replays
/// `Fuzz/FailCases/<target>/` through the same functions.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case leancloudBinary = "LeanCloudBinary"
    case leancloudText = "LeanCloudText"
    case leancloudDifferential = "LeanCloudDifferential"
    case transcript = "Transcript"
    case checker = "Checker"
    case webSocket = "WebSocket"
    case webSocketHandshake = "WebSocketHandshake"
    /// IMWire's side only: swift-nio's side runs in the libFuzzer binary (see `WebSocketDifferential`).
    case webSocketDifferential = "WebSocketDifferential"
    case compression = "Compression"
    case mqtt = "MQTT"
    case socketIO = "SocketIO"
    case pcap = "Pcap"
    case pcapng = "Pcapng"
    case har = "HAR"
    case captureChecker = "CaptureChecker"
    case reconnectEvents = "ReconnectEvents"
    case tls = "TLS"
    case keyLog = "KeyLog"
    case scenario = "Scenario"
    case serve = "Serve"
    case mergeReports = "MergeReports"
    case testeeResponses = "TesteeResponses"
    case nioHandlers = "NIOHandlers"
    case proxyOpening = "ProxyOpening"

    public func run(_ data: [UInt8]) -> [String] {
        let input = FuzzInput(data)
        switch self {
        case .leancloudBinary: return LeanCloudFuzzing.binary(input)
        case .leancloudText: return LeanCloudFuzzing.text(input)
        case .leancloudDifferential: return LeanCloudFuzzing.differential(input)
        case .transcript: return CaptureFuzzing.transcriptLine(input)
        case .checker: return CaptureFuzzing.checker(input)
        case .webSocket: return WebSocketFuzzing.stream(input)
        case .webSocketHandshake: return WebSocketFuzzing.handshake(input)
        case .webSocketDifferential: return WebSocketDifferential.replay(input)
        case .compression: return CompressionFuzzing.inflate(input)
        case .mqtt: return MQTTFuzzing.stream(input)
        case .socketIO: return SocketIOFuzzing.message(input)
        case .pcap, .pcapng: return CaptureFuzzing.packetCapture(input)
        case .har: return CaptureFuzzing.har(input)
        case .captureChecker: return CaptureFuzzing.captureChecker(input)
        case .reconnectEvents: return ReconnectFuzzing.events(input)
        case .tls: return TLSFuzzing.connection(input)
        case .keyLog: return KeyLogFuzzing.parse(input)
        case .scenario: return ScenarioFuzzing.parse(input)
        case .serve: return ServeFuzzing.connections(input)
        case .mergeReports: return MergeFuzzing.reports(input)
        case .testeeResponses: return TesteeFuzzing.responses(input)
        case .nioHandlers: return NIOFuzzing.handlers(input)
        case .proxyOpening: return ProxyFuzzing.opening(input)
        }
    }
}

/// Two runs of a decoder over the same bytes must report the same findings.
func sameFindings(_ first: [Finding], _ second: [Finding]) -> Bool {
    first.map(\.description) == second.map(\.description)
}
