import Foundation
import IMWireCore
import IMWireWebSocket
import Testing

/// Every frame/message fixture in Fixtures/websocket lists, in `decoded.frames`, the frames a
/// conforming peer accepts before it fails the connection (or up to the close frame): opcode,
/// FIN, RSV bits and the payload after unmasking (not inflated). The fixture verifier compares
/// messages and close codes; this compares IMWire's frames one by one. Tests/CrossCheck/websocket.py
/// compares the same lists with wsproto's and websockets' frames, so the three agree frame by frame.
@Suite struct FixtureFramesTests {
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/IMWireWebSocketTests/<file>
        return parts.joined(separator: "/") + "/Fixtures/websocket"
    }()

    static func streamFixtures() throws -> [String] {
        var paths: [String] = []
        for layer in ["frame", "message"] {
            let folder = directory + "/" + layer
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".json") {
                paths.append(folder + "/" + name)
            }
        }
        return paths.sorted()
    }

    @Test func everyStreamFixtureListsTheFramesIMWireAccepts() throws {
        let paths = try Self.streamFixtures()
        #expect(paths.count >= 150)
        var checkedFrames = 0
        for path in paths {
            let name = String(path.split(separator: "/").suffix(2).joined(separator: "/"))
            guard let data = FileManager.default.contents(atPath: path) else {
                Issue.record("\(name): unreadable")
                continue
            }
            let fixture = try JSONParser.parse([UInt8](data), maxDepth: 64)
            guard let input = fixture["input"], let clientHex = input["client_hex"]?.stringValue,
                  let expected = fixture["decoded"]?["frames"]?.arrayValue
            else {
                Issue.record("\(name): needs input.client_hex and decoded.frames")
                continue
            }
            let deflate = input["permessage_deflate"]?.stringValue.flatMap(PerMessageDeflateParameters.init(responseHeader:))
            if input["permessage_deflate"] != nil, deflate == nil {
                Issue.record("\(name): permessage_deflate does not parse")
                continue
            }
            var limits = Limits.default
            for member in input["limits"]?.objectValue?.members ?? [] {
                guard let value = member.value.int64Value.flatMap({ Int(exactly: $0) }) else { continue }
                switch member.key {
                case "max_frame_size": limits.maxFrameSize = value
                case "max_message_size": limits.maxMessageSize = value
                case "max_fragments": limits.maxFragments = value
                case "max_decompressed_size": limits.maxDecompressedSize = value
                case "max_expansion_ratio": limits.maxExpansionRatio = value
                default: Issue.record("\(name): unknown limit \(member.key)")
                }
            }
            let actual = Self.acceptedFrames(try Hex.decode(clientHex), deflate: deflate, limits: limits).map(Self.json)
            checkedFrames += actual.count
            let first = (0..<min(actual.count, expected.count)).first { !actual[$0].semanticallyEquals(expected[$0]) }
            if actual.count != expected.count || first != nil {
                let at = first ?? min(actual.count, expected.count)
                let mine = at < actual.count ? String(actual[at].description.prefix(200)) : "none"
                let theirs = at < expected.count ? String(expected[at].description.prefix(200)) : "none"
                Issue.record(
                    "\(name): IMWire accepts \(actual.count) frames, the fixture lists \(expected.count); frame \(at): \(mine) vs \(theirs)")
            }
        }
        #expect(checkedFrames > 1000)
    }

    /// The frames a conforming peer accepts: each frame the frame decoder completes and the
    /// assembler takes without a connection-failing finding, up to the first such finding (from
    /// either: a header the decoder refuses never becomes a frame) or the close frame. The same
    /// loop as `WebSocketStreamDecoder.feed`, with the frame each assembler finding belongs to known.
    static func acceptedFrames(_ bytes: [UInt8], deflate: PerMessageDeflateParameters?, limits: Limits) -> [WebSocketFrame] {
        var decoder = WebSocketFrameDecoder(direction: .send, limits: limits, rsv1Negotiated: deflate != nil)
        var assembler = WebSocketMessageAssembler(direction: .send, limits: limits, deflate: deflate)
        var accepted: [WebSocketFrame] = []
        var stopped = false
        func fails(_ event: WebSocketEvent) -> Bool {
            guard case .finding(let finding) = event else { return false }
            return finding.severity == .error && WebSocketRules.closeCode(for: finding.ruleID) != nil
        }
        let outputs = decoder.feed(bytes)
        for output in outputs where !stopped {
            switch output {
            case .finding(let finding):
                stopped = fails(.finding(finding))
            case .frame(let frame):
                var failed = false
                assembler.consume(frame) { event in failed = failed || fails(event) }
                if failed {
                    stopped = true
                } else {
                    accepted.append(frame)
                    stopped = frame.opcode == .close
                }
            }
        }
        return accepted
    }

    /// A frame as the fixtures spell it.
    static func json(_ frame: WebSocketFrame) -> JSONValue {
        let header = frame.header
        let rsv = (header.rsv1 ? 4 : 0) | (header.rsv2 ? 2 : 0) | (header.rsv3 ? 1 : 0)
        return [
            "opcode": .number(JSONNumber(Int(header.opcode.rawValue))), "fin": .bool(header.fin), "rsv": .number(JSONNumber(rsv)),
            "payload_hex": .string(Hex.encode(frame.payload)),
        ]
    }
}
