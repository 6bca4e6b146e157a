import Dispatch
import IMWireCheck
import IMWireCore
import IMWireIO
import IMWireLeanCloud
import IMWireMQTT
import IMWireServe
import IMWireWebSocket
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// Collects what it reads until the server closes or `enough` says so.
private final class Collect: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let done: EventLoopPromise<[UInt8]>
    let enough: ([UInt8]) -> Bool
    /// Sent in turn, each once the server's messages so far (`count`) reach its `after`.
    let steps: [(after: Int, bytes: [UInt8])]
    let count: ([UInt8]) -> Int
    var sent = 0
    var bytes: [UInt8] = []
    var finished = false
    init(
        steps: [(after: Int, bytes: [UInt8])], count: @escaping ([UInt8]) -> Int, done: EventLoopPromise<[UInt8]>,
        enough: @escaping ([UInt8]) -> Bool
    ) {
        self.steps = steps
        self.count = count
        self.done = done
        self.enough = enough
    }
    func channelActive(context: ChannelHandlerContext) { next(context: context, answered: 0) }
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        bytes += Array(unwrapInboundIn(data).readableBytesView)
        next(context: context, answered: count(bytes))
        if !finished, enough(bytes) { finish() }
    }
    func channelInactive(context: ChannelHandlerContext) { if !finished { finish() } }
    private func next(context: ChannelHandlerContext, answered: Int) {
        while sent < steps.count, answered >= steps[sent].after {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: steps[sent].bytes)), promise: nil)
            sent += 1
        }
    }
    private func finish() {
        finished = true
        done.succeed(bytes)
    }
}

@Suite struct ServeTests {
    static let root = PackageRoot.locate() ?? "."

    /// Sends `steps` to the server on 127.0.0.1:`port` (each after the answer to the one before);
    /// what it answered until `enough`, or its close.
    static func exchange(
        port: Int, _ steps: [[UInt8]], group: EventLoopGroup, enough: @escaping @Sendable ([UInt8]) -> Bool
    ) throws -> [UInt8] {
        try exchange(
            port: port, steps.enumerated().map { ($0.offset, $0.element) }, count: { commands($0).count }, group: group,
            enough: enough)
    }

    /// Sends each step once `count` of what the server sent reaches its `after`.
    static func exchange(
        port: Int, _ steps: [(after: Int, bytes: [UInt8])], count: @escaping @Sendable ([UInt8]) -> Int,
        group: EventLoopGroup,
        enough: @escaping @Sendable ([UInt8]) -> Bool
    ) throws -> [UInt8] {
        let done = group.next().makePromise(of: [UInt8].self)
        let client: Channel
        do {
            client = try ClientBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            Collect(steps: steps, count: count, done: done, enough: enough))
                    }
                }
                .connect(host: "127.0.0.1", port: port).wait()
        } catch {
            done.fail(error)  // refused: no promise left unfulfilled
            throw error
        }
        let answer = try done.futureResult.wait()
        try? client.close().wait()
        return answer
    }

    /// The text messages in the server's frames after the 101 head.
    static func texts(_ answer: [UInt8]) -> [String] {
        guard let end = HTTPHead.endOfHead(answer) else { return [] }
        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive, emitsFrames: false))
        var texts: [String] = []
        Array(answer[end...]).withUnsafeBytes { raw in
            decoder.feed(raw) { event in
                if case .message(let message) = event { texts.append(String(decoding: message.payload, as: UTF8.self)) }
            }
        }
        return texts
    }

    /// The commands in the server's frames after the 101 head.
    static func commands(_ answer: [UInt8]) -> [LCGenericCommand] {
        guard let end = HTTPHead.endOfHead(answer) else { return [] }
        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive, emitsFrames: false))
        var commands: [LCGenericCommand] = []
        Array(answer[end...]).withUnsafeBytes { raw in
            decoder.feed(raw) { event in
                if case .message(let message) = event, let command = LeanCloudCodec().decode(message.payload).command {
                    commands.append(command)
                }
            }
        }
        return commands
    }

    @Test func aClientLogsInSendsIsKickedAndGradedOK() throws {
        let scenario = try Scenario.parse(
            Array(
                """
                {"dialect": "leancloud", "summary": "kick after the send",
                 "actions": [{"on": "send", "do": "kick", "afterMs": 100}], \
                "expect": {"reconnect": false, "waive": ["LC.ERROR-REPLY"]}}
                """.utf8), name: "kick-now", file: "inline")
        let run = try ServeRun(
            configuration: ServeConfiguration(listenPort: 0, scenario: scenario), check: CheckOptions())
        let port = try run.start()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }

        // The router names the server.
        let route = try Self.exchange(
            port: port, [Array("GET /v1/route?appId=a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)], group: group,
            enough: { _ in false })
        #expect(
            String(decoding: route, as: UTF8.self).hasSuffix(
                "{\"server\":\"ws://127.0.0.1:\(port)/\",\"secondary\":\"ws://127.0.0.1:\(port)/\",\"ttl\":3600}"))

        // Upgrade and log in, start a conversation, send, each after the answer to the one before:
        // opened, started, ack, then the kick.
        let encoder = try WebSocketMessageEncoder(direction: .send)
        func frame(_ command: LCGenericCommand) throws -> [UInt8] {
            var bytes: [UInt8] = []
            try encoder.encodeMessage(.binary, LeanCloudCodec().encode(command), into: &bytes)
            return bytes
        }
        var open = LCGenericCommand()
        (open.cmd, open.op, open.peerID, open.i) = (.session, .open, "alice", 1)
        var start = LCGenericCommand()
        (start.cmd, start.op, start.peerID, start.i) = (.conv, .start, "alice", 2)
        start.convMessage.m = ["bob"]
        var direct = LCGenericCommand()
        (direct.cmd, direct.peerID, direct.i) = (.direct, "alice", 3)
        // The server's first conversation id with seed 1 (ids are deterministic).
        direct.directMessage.cid = "63f1ee08469ccdac9ff735ab"
        direct.directMessage.msg = "{\"_lctype\":-1,\"_lctext\":\"hi\"}"
        let upgrade = try WebSocketClientHandshake(host: "127.0.0.1", protocols: ["lc.protobuf2.3"]).request
        let answer = try Self.exchange(port: port, [upgrade + frame(open), frame(start), frame(direct)], group: group) {
            Self.commands($0).count >= 4
        }
        let commands = Self.commands(answer)
        #expect(
            commands.map { "\($0.cmd)/\($0.hasOp ? "\($0.op)" : "")" } == [
                "session/opened", "conv/started", "ack/", "session/closed",
            ])
        #expect(commands.last?.sessionMessage.code == 4111)
        #expect(commands.dropFirst().first?.convMessage.cid == direct.directMessage.cid)

        run.server.stop()
        let outcome = try run.finish()
        // Two connections: the router's, then alice's link.
        #expect(outcome.results.map(\.client) == ["alice"])
        #expect(outcome.results.first?.connections == [1, 2])
        #expect(outcome.results.first?.grade == .ok, "\(outcome.results.first?.reasons ?? [])")
        #expect(outcome.passed)
    }

    @Test func aJMessageClientInitsLogsInSendsAcknowledgesAPushAndIsGradedOK() throws {
        let scenario = try Scenario.parse(
            Array(
                #"""
                {"dialect": "jmessage", "summary": "push after the send", \#
                "actions": [{"on": "send", "do": "push", "afterMs": 50}]}
                """#.utf8),
            name: "push-now", file: "inline")
        let run = try ServeRun(
            configuration: ServeConfiguration(listenPort: 0, scenario: scenario), check: CheckOptions())
        let port = try run.start()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }

        let encoder = try WebSocketMessageEncoder(direction: .send)
        func event(_ text: String) throws -> [UInt8] {
            var bytes: [UInt8] = []
            try encoder.encodeMessage(.text, Array(("42" + text).utf8), into: &bytes)
            return bytes
        }
        let upgrade = try WebSocketClientHandshake(host: "127.0.0.1", target: "/socket.io/?EIO=3&transport=websocket")
            .request
        // The signature of the SDK's recording (jmessage-clean): MD5 over appkey, timestamp, random_str and the secret.
        let initialise = try event(
            #"""
            ["c_init",{"appkey":"4f7aef34fb361292c566a1cd","random_str":"ebb44e773d85af12",\#
            "signature":"b7499be60492fb8e268d8bc5cf5f9b21","timestamp":1795823340323,"flag":0,"rid":1}]
            """#
        )
        let send =
            #"""
            ["s_across_single_text",{"content":{"version":1,"target_type":"single","from_platform":"web",\#
            "target_id":"bob","from_id":"alice","create_time":1795823340920,"msg_type":"text",\#
            "msg_body":{"text":"hi"}},"target_id":"bob","appkey":"4f7aef34fb361292c566a1cd","rid":3}]
            """#
        // The server speaks first (open, connect); each request gets its ack and its response;
        // the push (msg_sync) comes 50 ms after the send's response, and is acknowledged.
        let steps: [(after: Int, bytes: [UInt8])] = [
            (0, upgrade), (2, initialise),
            (
                4,
                try event(
                    #"""
                    ["login",{"username":"alice","password":"dac24dcc2864a1e7f549fd6c7795c7b8",\#
                    "version":"2.5.0","rid":2}]
                    """#)
            ),
            (6, try event(send)),
            (9, try event(#"["msg_recv_v2",{"msg_id":2000002,"msg_type":3,"from_uid":20000,"from_gid":0,"rid":4}]"#)),
        ]
        let answer = try Self.exchange(
            port: port, steps, count: { Self.texts($0).count }, group: group, enough: { Self.texts($0).count >= 10 })
        let texts = Self.texts(answer)
        #expect(texts.first?.hasPrefix(#"0{"sid":""#) == true)
        #expect(
            Array(texts.dropFirst().prefix(6)) == [
                "40", #"42["ack",{"rid":1}]"#, #"42["c_init",{"rid":1,"code":0}]"#, #"42["ack",{"rid":2}]"#,
                #"42["login",{"rid":2,"code":0}]"#,
                #"42["ack",{"rid":3}]"#,
            ])
        #expect(
            texts.count > 7 && texts[7].hasPrefix(#"42["s_single_text",{"rid":3,"code":0,"msg_id":2000001,"ctime_ms":"#)
        )
        #expect(texts.last == #"42["ack",{"rid":4}]"#)
        #expect(
            texts.count > 8
                && texts[8].hasPrefix(#"42["msg_sync",{"messages":[{"msg_id":2000002,"msg_type":3,"from_uid":20000,"#))

        run.server.stop()
        let outcome = try run.finish()
        #expect(outcome.results.map(\.client) == ["alice"])
        #expect(outcome.results.first?.grade == .ok, "\(outcome.results.first?.reasons ?? [])")
    }

    @Test func aNIMClientOverXHRPollingLogsInSendsIsPushedToAndGradedOK() throws {
        let scenario = try Scenario.parse(
            Array(
                #"""
                {"dialect": "nim", "summary": "push after the send", \#
                "actions": [{"on": "send", "do": "push", "afterMs": 300}]}
                """#.utf8),
            name: "push-later", file: "inline")
        let run = try ServeRun(
            configuration: ServeConfiguration(listenPort: 0, scenario: scenario), check: CheckOptions())
        let port = try run.start()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        /// One request on a connection of its own; the answer's status line and body.
        func request(_ method: String, _ target: String, _ body: String = "") throws -> (status: String, body: String) {
            let head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            let answer = try Self.exchange(
                port: port, [Array((head + body).utf8)], group: group, enough: { _ in false })
            let end = HTTPHead.endOfHead(answer) ?? answer.count
            let text = String(decoding: answer[..<end], as: UTF8.self)
            return (String(text.prefix { $0 != "\r\n" }), String(decoding: answer[end...], as: UTF8.self))
        }
        // The handshake offers both transports; the first poll gets the connect.
        let handshake = try request("GET", "/socket.io/1/?t=1").body
        #expect(handshake.hasSuffix(":60:60:websocket,xhr-polling"))
        let sid = String(handshake.prefix { $0 != ":" })
        let url = "/socket.io/1/xhr-polling/\(sid)"
        let first = try request("GET", url + "?t=2")
        #expect(first.status == "HTTP/1.1 200 OK" && first.body == "1::", "\(first)")
        // A login in a POST (answered `1`), its reply in the next poll.
        let login = #"""
            3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"3":16,\#
            "4":"Chrome","18":"app-key-1","19":"alice","1000":"token"}}]}
            """#
        #expect(try request("POST", url + "?t=3", login).body == "1")
        #expect(
            try request("GET", url + "?t=4").body.hasPrefix(
                #"3:::{"sid":2,"cid":3,"ser":1,"code":200,"r":[{"102":"conn-"#))
        // Two packets in one POST, in the payload framing: a send, and the heartbeat 1_2.
        let send =
            #"3:::{"SID":7,"CID":1,"SER":2,"Q":[{"t":"Property","v":{"0":0,"1":"bob","8":0,"9":"hi","11":"c-1"}}]}"#
        let heartbeat = #"3:::{"SID":1,"CID":2,"SER":0,"Q":[]}"#
        let framed = [send, heartbeat].map { "\u{fffd}\($0.utf16.count)\u{fffd}\($0)" }.joined()
        #expect(try request("POST", url + "?t=5", framed).body == "1")
        // Both answers in one poll, framed; the push 300 ms later in a poll held until it comes.
        let answers = try request("GET", url + "?t=6").body
        #expect(answers.hasPrefix("\u{fffd}") && answers.contains(#""sid":7,"cid":1,"ser":2,"code":200"#))
        #expect(answers.contains(#"3:::{"sid":1,"cid":2,"ser":0,"code":200,"r":[]}"#))
        #expect(
            try request("GET", url + "?t=7").body.hasPrefix(
                #"3:::{"sid":7,"cid":2,"ser":0,"code":200,"r":[{"0":0,"1":"alice","2":"imwire""#))
        // The client leaves; the session is gone: 0.9's "client not handshaken, reconnect".
        #expect(try request("GET", url + "?t=8&disconnect").body == "0::")
        #expect(try request("GET", url + "?t=9").body == "7:::1+0")

        run.server.stop()
        let outcome = try run.finish()
        // The session is one connection for the checker, alice's over the requests' connections.
        #expect(
            outcome.report.connections.map(\.id).filter { $0.hasPrefix("socket.io 0.9 sid=") } == [
                "socket.io 0.9 sid=\(sid)"
            ])
        #expect(outcome.results.map(\.client) == ["alice"])
        #expect(outcome.results.first?.grade == .ok, "\(outcome.results.first?.reasons ?? [])")
    }

    @Test func aYun2winClientOnPlainTCPIsAcceptedAcknowledgedAndKicked() throws {
        let scenario = try Scenario.parse(
            Array(
                #"""
                {"dialect": "yun2win", "summary": "kick after the send", "actions": [{"on": \#
                "send", "do": "kick", "afterMs": 50}], "expect": {"reconnect": false}}
                """#
                .utf8),
            name: "kick-now", file: "inline")
        let run = try ServeRun(
            configuration: ServeConfiguration(listenPort: 0, scenario: scenario), check: CheckOptions())
        let port = try run.start()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }

        // Android's MQTT 3.1 CONNECT on plain TCP (no HTTP), then a sendMessage once connected ({"returnCode":11}).
        let connect = MQTTPacketEncoder.encode(
            .connect(
                MQTTConnect(
                    version: .v3_1, keepAlive: 30, clientID: "01" + "6f1b5e82-837e-2881-0082-a679ddea9dac",
                    username: "u1001",
                    password: Array("t".utf8))))
        let command =
            #"{"cmd":"sendMessage","y2wMessageId":"m-1","mts":1479460000000,"message":{"syncs":[{"type":0}]}}"#
        let publish = MQTTPacketEncoder.encode(
            .publish(MQTTPublish(topic: "y2w/session/p2p_2001", payload: Array(command.utf8))))
        @Sendable func packets(_ bytes: [UInt8]) -> [MQTTPacket] {
            var decoder = MQTTStreamDecoder(options: MQTTDecodeOptions(version: .v3_1))
            return decoder.feed(bytes).compactMap(\.packet)
        }
        let answer = try Self.exchange(
            port: port, [(0, connect), (2, publish)], count: { packets($0).count }, group: group,
            enough: { packets($0).count >= 4 })
        let payloads = packets(answer).map { packet -> String in
            guard case .publish(let publish) = packet else { return "\(packet.type)" }
            return publish.topic + " " + String(decoding: publish.payload, as: UTF8.self)
        }
        #expect(
            payloads == [
                "CONNACK", #"y2w/u1001 {"returnCode":11}"#, #"y2w/u1001 {"y2wMessageId":"m-1","returnCode":20}"#,
                #"y2w/u1001 {"returnCode":10}"#,
            ])

        run.server.stop()
        let outcome = try run.finish()
        #expect(outcome.results.map(\.client) == ["u1001"])
        #expect(outcome.results.first?.grade == .ok, "\(outcome.results.first?.reasons ?? [])")
    }

    @Test func heartbeatTimingRulesAreCatalogueRules() {
        for id in ServeGrading.heartbeatTimingRules { #expect(RuleCatalog.rule(named: id) != nil, "\(id) is no rule") }
    }

    struct NoAnswer: Error { var request: String }

    @Test func aSuiteSwitchesCasesWhenTheHarnessAsksAndNeverGradesItsRequests() throws {
        func scenario(_ name: String) throws -> Scenario {
            try Scenario.parse(
                Array(#"{"dialect": "leancloud", "summary": "\#(name)", "actions": []}"#.utf8), name: name,
                file: "inline")
        }
        let suite = ServeSuite(
            scenarios: [try scenario("first"), try scenario("second")], listenPort: 0, check: CheckOptions())
        let listening = DispatchSemaphore(value: 0)
        let port = Mutex(0)
        let outcomes = Mutex<[(ServeOutcome, ServeSuite.Ending)]>([])
        let ran = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? suite.run(idleSeconds: 30, duration: 30) { _, bound in
                port.withLock { $0 = bound }
                listening.signal()
            } finished: { outcome, ending in
                outcomes.withLock { $0.append((outcome, ending)) }
            }
            ran.signal()
        }
        listening.wait()
        let at = port.withLock { $0 }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        /// The body of the answer to `GET /imwire/REQUEST`, retried while no listener is up (30 s
        /// at most: the next case listens once the last is graded, slower beside the other tests).
        func control(_ request: String) throws -> String {
            for _ in 0..<600 {
                let answer = try? Self.exchange(
                    port: at, [Array("GET /imwire/\(request) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)], group: group,
                    enough: { _ in false })
                if let answer, let end = HTTPHead.endOfHead(answer) {
                    return String(decoding: answer[end...], as: UTF8.self)
                }
                usleep(50_000)
            }
            throw NoAnswer(request: request)
        }
        #expect(try control("cases") == #"{"cases":["leancloud/first","leancloud/second"]}"#)
        #expect(
            try control("case") == #"{"case":1,"of":2,"name":"leancloud/first","summary":"first","reconnect":null}"#)
        #expect(try control("endCase") == #"{"ended":"leancloud/first","next":"leancloud/second"}"#)
        #expect(try control("case").hasPrefix(#"{"case":2,"of":2,"name":"leancloud/second""#))
        // A client logs in in the second case.
        var open = LCGenericCommand()
        (open.cmd, open.op, open.peerID, open.i) = (.session, .open, "alice", 1)
        var frame: [UInt8] = []
        try WebSocketMessageEncoder(direction: .send).encodeMessage(
            .binary, LeanCloudCodec().encode(open), into: &frame)
        let upgrade = try WebSocketClientHandshake(host: "127.0.0.1", protocols: ["lc.protobuf2.3"]).request
        let answer = try Self.exchange(port: at, [upgrade + frame], group: group) { Self.commands($0).count >= 1 }
        #expect(Self.commands(answer).first.map { "\($0.cmd)/\($0.op)" } == "session/opened")
        #expect(try control("nope").hasPrefix(#"{"error":"no such request: GET /imwire/nope"#))
        #expect(try control("endCase") == #"{"ended":"leancloud/second","next":null}"#)
        ran.wait()

        let played = outcomes.withLock { $0 }
        #expect(played.map { "\($0.0.scenario.name) \($0.1)" } == ["first request", "second request"])
        // The harness's requests are no client's: the first case had none, the second only alice's link.
        #expect(played.first?.0.results.isEmpty == true)
        #expect(played.first?.0.passed == false, "no client came: the case did not pass")
        #expect(played.last?.0.results.map(\.client) == ["alice"])
        #expect(played.last?.0.report.connections.count == 1)
    }

    @Test func aLoginAfterAKickFailsBehaviour() throws {
        let scenario = Scenario(
            name: "kick", dialect: .leancloud, summary: "",
            actions: [ScenarioAction(on: .login, act: .kick, connections: [1])],
            expectation: ScenarioExpectation(reconnect: false))
        let report = Checker(options: CheckOptions()).finish(source: "test")
        let events: [ServeEvent] = [
            .accepted(connection: 1, client: "127.0.0.1:5000", timeMs: 0),
            .login(connection: 1, user: "alice", reconnect: false, timeMs: 1),
            .acted(connection: 1, act: .kick, trigger: .login, timeMs: 2), .closed(connection: 1, timeMs: 3),
            .accepted(connection: 2, client: "127.0.0.1:5001", timeMs: 4),
            .login(connection: 2, user: "alice", reconnect: true, timeMs: 5),
            .closed(connection: 2, timeMs: 6),
        ]
        let result = try #require(ServeGrading.grade(scenario: scenario, report: report, events: events).first)
        #expect((result.grade, result.protocolGrade, result.behaviourGrade) == (.failed, .ok, .failed))
        #expect(!ServeOutcome(scenario: scenario, report: report, events: events, results: [result]).passed)
        #expect(
            result.reasons == [
                """
                connection 2: the client logged in again after the \
                server's kick on connection 1, which its policy forbids
                """
            ])
        // A login again on the connection the kick left open counts too.
        let inPlace: [ServeEvent] =
            Array(events.prefix(3)) + [.login(connection: 1, user: "alice", reconnect: true, timeMs: 3)]
        let again = try #require(ServeGrading.grade(scenario: scenario, report: report, events: inPlace).first)
        #expect(again.behaviourGrade == .failed)
        #expect(
            again.reasons.first?.hasPrefix("connection 1: the client logged in again after the server's kick") == true)
        // Not acted on at all: UNIMPLEMENTED.
        let idle = ServeGrading.grade(scenario: scenario, report: report, events: Array(events.prefix(2)) + [events[3]])
        #expect(idle.first?.grade == .unimplemented)
    }

    @Test(arguments: [
        (
            #"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "login", "do": "explode"}]}"#,
            "actions[0].do: expected one of"
        ),
        (
            #"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "login", "do": "drop", "when": 1}]}"#,
            "actions[0]: unknown member \"when\""
        ),
        (#"{"dialect": "wechat", "summary": "s"}"#, "\"dialect\": unknown dialect wechat"),
        (
            #"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "login", "do": "drop", "afterMs": -1}]}"#,
            "actions[0].afterMs: expected an integer"
        ),
        (
            #"""
            {"dialect": "leancloud", "summary": "s", "actions": \#
            [{"on": "login", "do": "drop", "connections": [0]}]}
            """#, "actions[0].connections"
        ),
        (
            #"{"dialect": "leancloud", "summary": "s", "expect": {"reconnect": "yes"}}"#,
            "\"expect.reconnect\": expected true, false or null"
        ),
        (#"{"dialect": "leancloud""#, "f.json: invalid JSON at offset"),
        (
            #"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "accept", "do": "kick"}]}"#,
            "on accept, only drop"
        ),
        (
            #"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "login", "do": "kick", "reason": 4}]}"#,
            "reason: expected a string"
        ),
        (#"{"dialect": "leancloud", "summary": "s", "actions": {"on": "login"}}"#, "\"actions\": expected an array"),
        (
            #"{"dialect": "jmessage", "summary": "s", "actions": [{"on": "login", "do": "goaway"}]}"#,
            "goaway is LeanCloud's; jmessage has none"
        ),
    ])
    func aBadScenarioIsRefusedWithWhereAndWhy(json: String, reason: String) {
        #expect {
            _ = try Scenario.parse(Array(json.utf8), name: "f", file: "f.json")
        } throws: { error in
            let error = error as? IMWireError
            return error?.code == .serveScenario && error?.path == "f.json"
                && error?.description.hasPrefix("f.json: ") == true && error?.description.contains(reason) == true
        }
    }

    @Test func aShippedScenarioIsFoundByNameOrDialectAndName() throws {
        #expect(
            try Scenario.shippedPath("goaway", dialect: nil, root: Self.root).hasSuffix(
                "/Fixtures/serve/leancloud/goaway.json"))
        #expect(
            try Scenario.shippedPath("jmessage/clean", dialect: nil, root: Self.root).hasSuffix(
                "/Fixtures/serve/jmessage/clean.json"))
        #expect(
            try Scenario.shippedPath("clean", dialect: .leancloud, root: Self.root).hasSuffix(
                "/Fixtures/serve/leancloud/clean.json"))
        #expect {
            _ = try Scenario.shippedPath("clean", dialect: nil, root: Self.root)
        } throws: { error in
            error as? IMWireError
                == IMWireError(
                    .serveScenarioAmbiguous, "shipped for jmessage, leancloud, nim, yun2win: name the dialect",
                    field: "clean")
        }
        #expect(throws: IMWireError(.serveNoSuchScenario, "no such scenario", field: "nothing-like-it")) {
            _ = try Scenario.shippedPath("nothing-like-it", dialect: nil, root: Self.root)
        }
    }

    @Test func scenariosNamesAllOfADialectOrAList() {
        let all = Scenario.shipped(root: Self.root)
        let jmessage = Scenario.shipped("all", dialect: .jmessage, root: Self.root)
        #expect(!jmessage.isEmpty && jmessage.allSatisfy { $0.hasPrefix("jmessage/") })
        #expect(jmessage == all.filter { $0.hasPrefix("jmessage/") })
        #expect(Scenario.shipped("all", dialect: nil, root: Self.root) == all)
        #expect(
            Scenario.shipped("goaway,jmessage/clean,", dialect: .leancloud, root: Self.root) == [
                "goaway", "jmessage/clean", "",
            ])
    }

    @Test func aRunPlaysAShippedScenarioOrAFileOfTheDialectAskedFor() throws {
        let file = "\(Self.root)/Fixtures/serve/nim/clean.json"
        #expect(try Scenario.resolve(name: "goaway", path: nil, dialect: nil, root: Self.root).name == "goaway")
        #expect(try Scenario.resolve(name: nil, path: file, dialect: .nim, root: nil).dialect == .nim)
        #expect(throws: IMWireError(.serveScenarioDialect, "written for nim, not leancloud", field: "clean")) {
            _ = try Scenario.resolve(name: nil, path: file, dialect: .leancloud, root: nil)
        }
        #expect(throws: IMWireError(.serveNoFixtures, "Fixtures/serve/ not found", field: "goaway")) {
            _ = try Scenario.resolve(name: "goaway", path: nil, dialect: nil, root: nil)
        }
    }

    @Test func aSuiteIsOneDialectsScenarios() throws {
        let suite = try Scenario.suite("goaway,clean", dialect: .leancloud, root: Self.root)
        #expect(suite.map(\.name) == ["goaway", "clean"] && suite.allSatisfy { $0.dialect == .leancloud })
        let mixed = "one dialect's scenarios (these are written for jmessage, leancloud)"
        #expect(throws: IMWireError(.serveScenarioDialect, mixed)) {
            _ = try Scenario.suite("goaway,jmessage/clean", dialect: nil, root: Self.root)
        }
        #expect(throws: IMWireError(.serveScenarioDialect, "written for jmessage, not leancloud", field: "clean")) {
            _ = try Scenario.suite("goaway,jmessage/clean", dialect: .leancloud, root: Self.root)
        }
    }

    @Test func everyShippedScenarioLoadsAndSpecListsItAsItIs() throws {
        let names = Scenario.shipped(root: Self.root)
        #expect(names.count >= 12)
        var rows = ["| scenario | what the server does | the client must reconnect |", "|---|---|---|"]
        for name in names {
            let scenario = try Scenario.load(path: "\(Self.root)/Fixtures/serve/\(name).json")
            // The folder names the dialect the file is written for.
            #expect(
                name.hasPrefix(scenario.dialect.rawValue + "/"), "\(name) is written for \(scenario.dialect.rawValue)")
            let reconnect = scenario.expectation.reconnect.map { $0 ? "yes" : "no" } ?? "either"
            rows.append("| `\(name)` | \(scenario.summary) | \(reconnect) |")
        }
        let spec = String(decoding: try FileByteSource.readAll(path: "\(Self.root)/Spec/serve.md"), as: UTF8.self)
        let block =
            "<!-- BEGIN GENERATED: serve-scenarios -->\n" + rows.joined(separator: "\n")
            + "\n<!-- END GENERATED: serve-scenarios -->"
        #expect(spec.contains(block), "Spec/serve.md §3 should list:\n\(block)")
        // Every trigger and act is documented.
        for word in ScenarioAction.Trigger.allCases.map(\.rawValue) + ScenarioAction.Act.allCases.map(\.rawValue) {
            #expect(spec.contains("| `\(word)` |"), "Spec/serve.md has no row for \(word)")
        }
    }
}

/// A scenario made in code may name a dialect no cloud plays: serving it is an error, not a trap.
@Suite struct ServeUnknownDialectTests {
    @Test func aScenarioNoCloudPlaysIsRefusedAtStart() throws {
        let scenario = Scenario(
            name: "wechat-clean", dialect: Dialect("wechat"), summary: "s", actions: [],
            expectation: ScenarioExpectation())
        let server = ServeServer(
            configuration: ServeConfiguration(listenPort: 0, scenario: scenario),
            live: try LiveCheck(options: CheckOptions(), now: { 0 }),
            clock: { 0 })
        defer { server.stop() }
        #expect {
            _ = try server.start()
        } throws: { error in
            "\(error)" == "wechat-clean: no cloud plays wechat scenarios"
        }
    }
}
