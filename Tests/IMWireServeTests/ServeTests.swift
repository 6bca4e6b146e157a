import IMWireCheck
import IMWireCore
import IMWireIO
import IMWireLeanCloud
import IMWireServe
import IMWireWebSocket
import NIOCore
import NIOPosix
import Testing

/// Collects what it reads until the server closes or `enough` says so.
private final class Collect: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let done: EventLoopPromise<[UInt8]>
    let enough: ([UInt8]) -> Bool
    /// Sent in turn: the first once connected, each next one once as many commands came.
    let steps: [[UInt8]]
    var sent = 0
    var bytes: [UInt8] = []
    var finished = false
    init(steps: [[UInt8]], done: EventLoopPromise<[UInt8]>, enough: @escaping ([UInt8]) -> Bool) {
        self.steps = steps
        self.done = done
        self.enough = enough
    }
    func channelActive(context: ChannelHandlerContext) { next(context: context, answered: 0) }
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        bytes += Array(unwrapInboundIn(data).readableBytesView)
        next(context: context, answered: ServeTests.commands(bytes).count)
        if !finished, enough(bytes) { finish() }
    }
    func channelInactive(context: ChannelHandlerContext) { if !finished { finish() } }
    private func next(context: ChannelHandlerContext, answered: Int) {
        while sent < steps.count, answered >= sent {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: steps[sent])), promise: nil)
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
    static func exchange(port: Int, _ steps: [[UInt8]], group: EventLoopGroup, enough: @escaping @Sendable ([UInt8]) -> Bool) throws -> [UInt8] {
        let done = group.next().makePromise(of: [UInt8].self)
        let client = try ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collect(steps: steps, done: done, enough: enough))
                }
            }
            .connect(host: "127.0.0.1", port: port).wait()
        let answer = try done.futureResult.wait()
        try? client.close().wait()
        return answer
    }

    /// The commands in the server's frames after the 101 head.
    static func commands(_ answer: [UInt8]) -> [LCGenericCommand] {
        guard let end = HTTPHead.endOfHead(answer) else { return [] }
        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive, emitsFrames: false))
        var commands: [LCGenericCommand] = []
        Array(answer[end...]).withUnsafeBytes { raw in
            decoder.feed(raw) { event in
                if case .message(let message) = event, let command = LeanCloudCodec().decode(message.payload).command { commands.append(command) }
            }
        }
        return commands
    }

    @Test func aClientLogsInSendsIsKickedAndGradedOK() throws {
        let scenario = try Scenario.parse(
            Array(
                """
                {"dialect": "leancloud", "summary": "kick after the send",
                 "actions": [{"on": "send", "do": "kick", "afterMs": 100}], "expect": {"reconnect": false, "waive": ["LC.ERROR-REPLY"]}}
                """.utf8), name: "kick-now", file: "inline")
        let run = try ServeRun(configuration: ServeConfiguration(listenPort: 0, scenario: scenario), check: CheckOptions())
        let port = try run.start()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }

        // The router names the server.
        let route = try Self.exchange(
            port: port, [Array("GET /v1/route?appId=a HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)], group: group, enough: { _ in false })
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
        #expect(commands.map { "\($0.cmd)/\($0.hasOp ? "\($0.op)" : "")" } == ["session/opened", "conv/started", "ack/", "session/closed"])
        #expect(commands.last?.sessionMessage.code == 4111)
        #expect(commands.dropFirst().first?.convMessage.cid == direct.directMessage.cid)

        run.server.stop()
        let outcome = try run.finish()
        // Two connections: the router's, then alice's link.
        #expect(outcome.results.map(\.client) == ["alice"])
        #expect(outcome.results.first?.connections == [1, 2])
        #expect(outcome.results.first?.grade == .ok, "\(outcome.results.first?.reasons ?? [])")
    }

    @Test func aLoginAfterAKickFailsBehaviour() throws {
        let scenario = Scenario(
            name: "kick", dialect: .leancloud, summary: "",
            actions: [ScenarioAction(on: .login, act: .kick, connections: [1])], expectation: ScenarioExpectation(reconnect: false))
        let report = Checker(options: CheckOptions()).finish(source: "test")
        let events: [ServeEvent] = [
            .accepted(connection: 1, client: "127.0.0.1:5000", timeMs: 0), .login(connection: 1, user: "alice", reconnect: false, timeMs: 1),
            .acted(connection: 1, act: .kick, trigger: .login, timeMs: 2), .closed(connection: 1, timeMs: 3),
            .accepted(connection: 2, client: "127.0.0.1:5001", timeMs: 4), .login(connection: 2, user: "alice", reconnect: true, timeMs: 5),
            .closed(connection: 2, timeMs: 6),
        ]
        let result = try #require(ServeGrading.grade(scenario: scenario, report: report, events: events).first)
        #expect((result.grade, result.protocolGrade, result.behaviourGrade) == (.failed, .ok, .failed))
        #expect(result.reasons == ["connection 2: the client logged in again after the server's kick on connection 1, which its policy forbids"])
        // A login again on the connection the kick left open counts too.
        let inPlace: [ServeEvent] = Array(events.prefix(3)) + [.login(connection: 1, user: "alice", reconnect: true, timeMs: 3)]
        let again = try #require(ServeGrading.grade(scenario: scenario, report: report, events: inPlace).first)
        #expect(again.behaviourGrade == .failed)
        #expect(again.reasons.first?.hasPrefix("connection 1: the client logged in again after the server's kick") == true)
        // Not acted on at all: UNIMPLEMENTED.
        let idle = ServeGrading.grade(scenario: scenario, report: report, events: Array(events.prefix(2)) + [events[3]])
        #expect(idle.first?.grade == .unimplemented)
    }

    @Test(arguments: [
        (#"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "login", "do": "explode"}]}"#, "actions[0].do: expected one of"),
        (#"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "login", "do": "drop", "when": 1}]}"#, "actions[0]: unknown member \"when\""),
        (#"{"dialect": "nim", "summary": "s"}"#, "\"dialect\": nim is not served yet"),
        (
            #"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "login", "do": "drop", "afterMs": -1}]}"#,
            "actions[0].afterMs: expected an integer"
        ),
        (#"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "login", "do": "drop", "connections": [0]}]}"#, "actions[0].connections"),
        (#"{"dialect": "leancloud", "summary": "s", "expect": {"reconnect": "yes"}}"#, "\"expect.reconnect\": expected true, false or null"),
        (#"{"dialect": "leancloud""#, "f.json: invalid JSON at offset"),
        (#"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "accept", "do": "kick"}]}"#, "on accept, only drop"),
        (#"{"dialect": "leancloud", "summary": "s", "actions": [{"on": "login", "do": "kick", "reason": 4}]}"#, "reason: expected a string"),
        (#"{"dialect": "leancloud", "summary": "s", "actions": {"on": "login"}}"#, "\"actions\": expected an array"),
    ])
    func aBadScenarioIsRefusedWithWhereAndWhy(json: String, reason: String) {
        #expect {
            _ = try Scenario.parse(Array(json.utf8), name: "f", file: "f.json")
        } throws: { error in
            (error as? ScenarioError)?.description.contains(reason) == true
        }
    }

    @Test func everyShippedScenarioLoadsAndSpecListsItAsItIs() throws {
        let names = Scenario.shipped(root: Self.root)
        #expect(names.count >= 12)
        var rows = ["| scenario | what the server does | the client must reconnect |", "|---|---|---|"]
        for name in names {
            let scenario = try Scenario.load(path: "\(Self.root)/Fixtures/serve/\(name).json")
            let reconnect = scenario.expectation.reconnect.map { $0 ? "yes" : "no" } ?? "either"
            rows.append("| `\(name)` | \(scenario.summary) | \(reconnect) |")
        }
        let spec = String(decoding: try FileByteSource.readAll(path: "\(Self.root)/Spec/serve.md"), as: UTF8.self)
        let block = "<!-- BEGIN GENERATED: serve-scenarios -->\n" + rows.joined(separator: "\n") + "\n<!-- END GENERATED: serve-scenarios -->"
        #expect(spec.contains(block), "Spec/serve.md §3 should list:\n\(block)")
        // Every trigger and act is documented.
        for word in ScenarioAction.Trigger.allCases.map(\.rawValue) + ScenarioAction.Act.allCases.map(\.rawValue) {
            #expect(spec.contains("| `\(word)` |"), "Spec/serve.md has no row for \(word)")
        }
    }
}
