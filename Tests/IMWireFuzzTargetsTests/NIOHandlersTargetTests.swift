import IMWire
import Testing

@testable import IMWireFuzzTargets

/// The NIOHandlers target on the fixtures and the genuine SDKs' recordings, as `Fuzz/seeds.py`
/// gives them to the fuzzer (the same option bytes): the pipelines deliver what they hold, and
/// the invariants hold.
@Suite struct NIOHandlersTargetTests {
    static let root = FailCaseReplayTests.root

    /// A WebSocket frame, FIN set, masked with the key 0 when `masked` (as `Fuzz/seeds.py` writes them).
    static func frame(_ opcode: UInt8, _ payload: [UInt8], masked: Bool) -> [UInt8] {
        let mask: UInt8 = masked ? 0x80 : 0
        var head: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            head.append(mask | UInt8(payload.count))
        } else {
            head += [mask | 126, UInt8(payload.count >> 8 & 0xff), UInt8(payload.count & 0xff)]
        }
        return head + (masked ? [0, 0, 0, 0] : []) + payload
    }

    /// Events at a pipeline's end from the whole input (the target compares them with its pieces').
    static func events(_ data: [UInt8]) -> [NIOFuzzing.Event] {
        let input = FuzzInput(data)
        return NIOFuzzing.run(NIOFuzzing.Pipeline(input: input), [input.payload[...]])?.events ?? []
    }

    /// Every WebSocket fixture's streams through the reader (both roles, as negotiated, tight limits
    /// too), MQTT and yun2win packets on TCP and in a binary frame, engine.io and socket.io 0.9
    /// fixtures in frames: the invariants hold, and the pipelines deliver what the fixtures hold.
    @Test func fixturesThroughTheHandlers() throws {
        var count = 0
        var delivered = 0
        for path in Directory.files(under: "\(Self.root)/Fixtures/websocket", suffix: ".json") {
            let fixture = try Fixture(path: path)
            let given = fixture.object["input"]
            guard fixture.layer != "handshake" else { continue }
            let offer = given?["permessage_deflate"]?.stringValue ?? ""
            let deflate: UInt8 = offer.isEmpty ? 0 : offer.contains("no_context_takeover") ? 2 : 1
            for (role, key) in [(UInt8(0), "client_hex"), (1, "server_hex")] {
                let bytes = try Hex.decode(given?[key]?.stringValue ?? "")
                guard !bytes.isEmpty else { continue }
                for flags: UInt8 in [role << 4 | deflate << 5, 0b1000_0010 | role << 4 | deflate << 5] {
                    #expect(FuzzTarget.nioHandlers.run([0, flags] + bytes).isEmpty, "\(path) \(key) \(flags)")
                }
                delivered += Self.events([0, role << 4 | deflate << 5] + bytes).count {
                    if case .webSocket = $0 { true } else { false }
                }
            }
            count += 1
        }
        for folder in ["mqtt/packet", "yun2win/packet"] {
            for path in Directory.files(under: "\(Self.root)/Fixtures/\(folder)", suffix: ".json") {
                let fixture = try Fixture(path: path)
                let version: UInt8 = folder.hasPrefix("yun2win") ? 3 : fixture.encoding == "3.1" ? 1 : 2
                let bytes = try fixture.input()
                #expect(FuzzTarget.nioHandlers.run([0, 0b0100 | version << 5] + bytes).isEmpty, "\(path)")
                #expect(
                    FuzzTarget.nioHandlers.run([0, 0b1000_0100 | version << 5] + Self.frame(2, bytes, masked: true))
                        .isEmpty, "\(path)")
                delivered += Self.events([0, 0b0100 | version << 5] + bytes).count {
                    if case .mqtt = $0 { true } else { false }
                }
                count += 1
            }
        }
        for (folder, kind) in [
            ("jmessage/engineio", UInt8(0)), ("jmessage/event", 0), ("nim/socketio", 1), ("nim/packet", 1),
        ] {
            for path in Directory.files(under: "\(Self.root)/Fixtures/\(folder)", suffix: ".json") {
                let fixture = try Fixture(path: path)
                let role: UInt8 = fixture.object["direction"]?.stringValue == "receive" ? 1 : 0
                let opcode: UInt8 = fixture.object["bytes_hex"] != nil && kind == 0 ? 2 : 1
                let data =
                    [0, 0b1000 | role << 4 | kind << 5] + Self.frame(opcode, try fixture.input(), masked: role == 0)
                #expect(FuzzTarget.nioHandlers.run(data).isEmpty, "\(path)")
                delivered += Self.events(data).count {
                    switch $0 {
                    case .engineIO, .socketIO09: true
                    default: false
                    }
                }
                count += 1
            }
        }
        #expect(count > 700)
        #expect(delivered > 700)
    }

    /// The genuine SDKs' recordings (Fixtures/captures/vendor-sdk) through each dialect's handler,
    /// each side as the other end reads it, and yun2win's MQTT on the raw stream too; every
    /// message reaches the dialect, and the invariants hold.
    @Test func vendorRecordingsThroughTheDialectHandlers() throws {
        var recordings = 0
        for (dialect, index) in [("leancloud", UInt8(0)), ("nim", 1), ("jmessage", 2), ("yun2win", 3)] {
            for path in Directory.files(under: "\(Self.root)/Fixtures/captures/vendor-sdk/\(dialect)", suffix: ".jsonl")
            {
                let lines = try String(decoding: FileByteSource.readAll(path: path), as: UTF8.self).split(
                    separator: "\n")
                let events = lines.compactMap { try? JSONParser.parse(String($0)) }
                guard let link = events.first(where: { $0["type"]?.stringValue == "open" && $0["url"] != nil })?["conn"]
                else { continue }
                for (role, direction) in [(UInt8(0), "send"), (1, "receive")] {
                    var messages: [(UInt8, [UInt8])] = []
                    for event in events where event["conn"] == link && event["dir"]?.stringValue == direction {
                        if let text = event["text"]?.stringValue {
                            messages.append((1, Array(text.utf8)))
                        } else if let hex = event["hex"]?.stringValue {
                            messages.append((2, try Hex.decode(hex)))
                        }
                    }
                    messages = Array(messages.prefix(30))
                    guard !messages.isEmpty else { continue }
                    let frames: [UInt8] = messages.flatMap { Self.frame($0.0, $0.1, masked: role == 0) }
                    let data: [UInt8] = [0, 0b1100 | role << 4 | index << 5] + frames
                    #expect(FuzzTarget.nioHandlers.run(data).isEmpty, "\(path) \(direction)")
                    let read = Self.events(data).count { if case .dialect = $0 { true } else { false } }
                    #expect(
                        read == messages.count + 1,
                        "\(path) \(direction): \(read) events for \(messages.count) messages")
                    if dialect == "yun2win" {
                        let stream: [UInt8] = messages.flatMap(\.1)
                        #expect(
                            FuzzTarget.nioHandlers.run([0, 0b1000_1100 | role << 4 | index << 5] + stream).isEmpty,
                            "\(path)")
                    }
                }
                recordings += 1
            }
        }
        #expect(recordings >= 8)
    }

    /// Fuzz/FailCases/NIOHandlers/crash-402aeff7…: engine.io refuses a message and closes the
    /// channel while the WebSocket reader still holds frames of the same read; the reader read on,
    /// and a frame with a reserved opcode after it fired a WebSocket violation once the channel
    /// was inactive (or before, when the read was cut there). Now a close this end asks for ends
    /// the reading.
    @Test func aCloseByAnotherHandlerEndsTheReading() {
        let bytes = Self.frame(1, Array("\u{1e}".utf8), masked: true) + [0x84, 0x80, 0, 0, 0, 0]
        for data in [[0, 0b1000] + bytes, [0, 0b1000] + bytes + bytes] {
            let events = Self.events(data)
            #expect(events.count == 2 && events.last == .inactive, "\(events)")
            #expect(!events.contains { "\($0)".contains("WS.RESERVED-OPCODE") }, "\(events)")
            #expect(FuzzTarget.nioHandlers.run(data).isEmpty)
        }
    }

    /// The checks of written frames and of the raw stream can fail: a frame written after the
    /// close frame, a stream missing a byte.
    @Test func handlerChecksCanFail() {
        let pipeline = NIOFuzzing.Pipeline(input: FuzzInput([0, 0]))
        let closeThenPong = Self.frame(8, [0x03, 0xe8], masked: false) + Self.frame(10, [], masked: false)
        #expect(
            NIOFuzzing.writtenFrames(closeThenPong, pipeline).violations.contains {
                $0.contains("after the close frame")
            })
        #expect(NIOFuzzing.writtenFrames(Self.frame(8, [0x03, 0xe8], masked: false), pipeline).violations.isEmpty)
        // a server does not mask
        #expect(NIOFuzzing.writtenFrames(Self.frame(1, [0x41], masked: true), pipeline).violations.count == 1)
        let stream: [UInt8] = [0, 0b1110_1100, 0x30, 0x03, 0x00, 0x01, 0x61]
        #expect(NIOFuzzing.streamed(Self.events(stream)) != NIOFuzzing.streamed(Self.events(Array(stream.dropLast()))))
    }
}
