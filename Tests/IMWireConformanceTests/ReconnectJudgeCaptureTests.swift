import IMWire
import Testing

/// The reconnect judge on real transcripts, with the observations made the way Spec/reconnect.md
/// §6 tells the checker to make them for yun2win (a worked example of the wiring; the checker
/// itself calls the judge once it collects observations per client).
@Suite struct ReconnectJudgeCaptureTests {
    /// One observation per connection of a yun2win transcript, and the client id's platform digit.
    func observations(_ lines: [String]) -> (connections: [ConnectionObservation], platform: Character?) {
        var order: [String] = []
        var found: [String: ConnectionObservation] = [:]
        var codecs: [String: (client: Yun2winCodec, server: Yun2winCodec)] = [:]
        var platform: Character?
        for (index, line) in lines.enumerated() {
            guard case .event(let event)? = TranscriptLine.parse(Array(line.utf8), line: index + 1, limits: .default),
                  let time = event.time else { continue }
            let id = event.connection
            if found[id] == nil {
                order.append(id)
                found[id] = ConnectionObservation(connection: id, opened: time, login: nil, ended: nil, end: .open)
                codecs[id] = (Yun2winCodec(), Yun2winCodec())
            }
            guard var observation = found[id], var pair = codecs[id] else { continue }
            switch event.kind {
            case .message(let message):
                let packets = message.direction == .send ? pair.client.feed(message.payload, direction: .send)
                                                         : pair.server.feed(message.payload, direction: .receive)
                for packet in packets {
                    if message.direction == .send { observation.keepAlive.record(time) }
                    switch packet.message {
                    case .connect(let connect)?:
                        observation.login = LoginObservation(sent: time, reconnectFlag: connect.parsedClientID?.isReconnect, accepted: nil)
                        platform = connect.parsedClientID?.platform.digit ?? platform
                    case .connack(let code)? where code != 0:
                        observation.end = .loginRejected(code: Int64(code), waitMicros: nil)
                    case .server(.connectionReturn(11), _)?:
                        observation.login?.accepted = time
                    case .server(.connectionReturn(10), _)?:
                        observation.end = .kicked(code: 10)
                    default:
                        if case .disconnect? = packet.packet { observation.end = .clientLogout }
                    }
                }
            case .close:
                observation.ended = time
                if case .open = observation.end { observation.end = .closed(code: nil) }
            default:
                break
            }
            found[id] = observation
            codecs[id] = pair
        }
        return (order.compactMap { found[$0] }, platform)
    }

    func judge(_ lines: [String]) -> [String] {
        let (connections, platform) = observations(lines)
        let policy = platform.flatMap(Yun2winPolicies.policy(forClientIDPlatformDigit:)) ?? CheckOptions().reconnectPolicy(for: .yun2win)
        return ReconnectJudge(policy: policy).judge(connections).map { "\($0.location.connection ?? "") \($0.ruleID)" }
    }

    @Test func aReconnectAfterAKickIsReported() throws {
        let lines = try readText("Fixtures/captures/yun2win-kicked-reconnect.jsonl").split(separator: "\n").map(String.init)
        #expect(judge(lines) == ["y2 RECONNECT.AFTER-TERMINAL"])
        #expect(judge(try readText("Fixtures/captures/yun2win-clean.jsonl").split(separator: "\n").map(String.init)).isEmpty)
    }

    @Test func aReconnectStormIsReported() throws {
        let lines = try readText("Fixtures/captures/yun2win-kicked-reconnect.jsonl").split(separator: "\n").map(String.init)
        // The reconnect's CONNECT (client id prefix 1), replayed every 200 ms after a dropped session.
        let connect = try #require(lines.first { $0.contains("\"conn\": \"y2\"") && $0.contains("\"send\"") })
        var storm = Array(lines.prefix(7)) + ["{\"type\": \"close\", \"conn\": \"y1\", \"t\": 60.1}"]
        for index in 0..<5 {
            let id = "s\(index)"
            let start = 60.3 + Double(index) * 0.2
            storm.append("{\"type\": \"open\", \"conn\": \"\(id)\", \"t\": \(start), \"dialect\": \"yun2win\"}")
            storm.append(connect.replacing("\"conn\": \"y2\"", with: "\"conn\": \"\(id)\"").replacing("\"t\": 61.0", with: "\"t\": \(start)"))
            storm.append("{\"type\": \"close\", \"conn\": \"\(id)\", \"t\": \(start + 0.05)}")
        }
        // y1's kick is dropped from this transcript: its session simply ends.
        storm = storm.filter { !$0.contains("7b2272657475726e436f6465223a31307d") }
        #expect(judge(storm) == ["s0 RECONNECT.STORM"])
    }

    @Test func thePolicyOptionPicksTheDialectsPolicy() {
        var options = CheckOptions()
        #expect(options.reconnectPolicy(for: .leancloud).name == "leancloud-swift")
        options.reconnectPolicy = ReconnectPolicies.named("leancloud-js")
        #expect(options.reconnectPolicy(for: .leancloud).name == "leancloud-js")
        #expect(options.reconnectPolicy(for: .nim).name == "nim-web")
    }
}
