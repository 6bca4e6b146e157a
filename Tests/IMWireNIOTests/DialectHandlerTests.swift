import IMWireCore
import IMWireLeanCloud
import IMWireNIM
import IMWireNIO
import IMWireWebSocket
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing

/// A clock that moves 10 ms per reading: dialect session checks see ordered times, and no test
/// depends on the real clock.
func steppingClock() -> @Sendable () -> Int64 {
    let readings = NIOLockedValueBox<Int64>(0)
    return {
        readings.withLockedValue { count in
            count += 1
            return 1_700_000_000_000_000 + count * 10_000
        }
    }
}

func dialectChannel(_ dialect: Dialect, role: WebSocketRole) throws -> EmbeddedChannel {
    try messageChannel(DialectMessageHandler(dialect: dialect, role: role, now: steppingClock()))
}

func dialectEvents(_ channel: EmbeddedChannel) throws -> [DialectEvent] {
    var events: [DialectEvent] = []
    while let event = try channel.readInbound(as: DialectEvent.self) { events.append(event) }
    return events
}

func dialectMessages(_ events: [DialectEvent]) -> [DialectMessage] {
    events.compactMap { if case .message(let message) = $0 { message } else { nil } }
}

@Suite("IMWireNIO dialect handler")
struct DialectHandlerTests {
    static let eioOpen = #"0{"sid":"s1","upgrades":[],"pingInterval":25000,"pingTimeout":5000}"#
    static let nimLogin =
        #"""
        3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"3":16,"4":"Chrome","6":190,\#
        "9":1,"13":"dev-1","18":"app-key-1","19":"alice","40":"8.5.0","1000":"token-1"}}]}
        """#

    @Test func aJMessageResponseWithoutRequestIsReported() throws {
        let channel = try dialectChannel(.jmessage, role: .client)
        for text in [Self.eioOpen, "40", #"42["get_groups_list",{"rid":998,"code":0}]"#] {
            try channel.writeInbound(wsMessage(text))
        }
        let read = dialectMessages(try dialectEvents(channel))
        try #require(read.count == 3)
        #expect(read.map(\.frameIndex) == [1, 2, 3])
        #expect(read.allSatisfy { $0.direction == .receive })
        #expect(read[0].findings.isEmpty)
        #expect(read[1].findings.isEmpty)
        let response = read[2]
        #expect(response.findings.map(\.ruleID).contains("JM.RESPONSE-WITHOUT-REQUEST"))
        #expect(response.findings.allSatisfy { $0.location.frameIndex == 3 && $0.location.direction == .receive })
        #expect(response.summary?.contains("get_groups_list") == true)
        #expect(response.canonicalJSON != nil)
        #expect(response.message.payload == Array(#"42["get_groups_list",{"rid":998,"code":0}]"#.utf8))
        #expect(channel.isActive)
    }

    /// The same response after the request this end wrote: no finding, and the request passes on unchanged.
    @Test func aRequestWrittenThroughTheHandlerIsObserved() throws {
        let channel = try dialectChannel(.jmessage, role: .client)
        for text in [Self.eioOpen, "40"] { try channel.writeInbound(wsMessage(text)) }
        let request = WebSocketOutbound.message(.text, Array(#"42["get_groups_list",{"rid":130}]"#.utf8))
        try channel.writeOutbound(request)
        #expect(try outboundValues(channel) == [request])
        for text in [#"42["ack",{"rid":130}]"#, #"42["get_groups_list",{"rid":130,"code":0}]"#] {
            try channel.writeInbound(wsMessage(text))
        }
        let read = dialectMessages(try dialectEvents(channel))
        try #require(read.count == 5)
        #expect(read.map(\.direction) == [.receive, .receive, .send, .receive, .receive])
        // Only the request has a finding (no init before it), the response none: it answers the request.
        #expect(read.map { $0.findings.map(\.ruleID) } == [[], [], ["JM.BEFORE-INIT"], [], []])
    }

    @Test func aNIMUnknownCodeIsReportedAndThePendingRequestAtTheEnd() throws {
        let channel = try dialectChannel(.nim, role: .client)
        try channel.writeInbound(wsMessage("1::"))
        try channel.writeOutbound(WebSocketOutbound.message(.text, Array(Self.nimLogin.utf8)))
        try channel.writeInbound(wsMessage(#"3:::{"sid":2,"cid":3,"ser":1,"code":4242}"#))
        // A second request, never answered.
        try channel.writeOutbound(
            WebSocketOutbound.message(
                .text, Array(Self.nimLogin.replacingOccurrences(of: #""SER":1"#, with: #""SER":2"#).utf8)))
        try channel.close().wait()
        let events = try dialectEvents(channel)
        let read = dialectMessages(events)
        try #require(read.count == 4)
        #expect(read.map(\.direction) == [.receive, .send, .receive, .send])
        #expect(read[2].findings.map(\.ruleID).contains("NIM.CODE-UNKNOWN"))
        #expect(read[0].findings.map(\.ruleID) == ["NIM.LOGIN-STEP"])  // info: the link is up
        // Typed: the response as NIM's codec reads it.
        guard case .nim(let response)? = read[2].decoded, case .response(let answer)? = response.items.first?.nim else {
            Issue.record("no typed NIM response: \(String(describing: read[2].decoded))")
            return
        }
        #expect((answer.ser, answer.code) == (1, 4242))
        guard case .finished(let atEnd) = events.last else {
            Issue.record("no finished event: \(events)")
            return
        }
        #expect(atEnd.map(\.ruleID).contains("NIM.PENDING-AT-END"))
    }

    /// A LeanCloud client's messages come with their typed `GenericCommand`, both the request it
    /// wrote and the server's answer; the JSON heartbeat `{}` has none.
    @Test func leanCloudMessagesCarryTheirTypedCommand() throws {
        let channel = try dialectChannel(.leancloud, role: .client)
        var open = LCGenericCommand()
        (open.cmd, open.op, open.peerID, open.i) = (.session, .open, "alice", 1)
        var opened = LCGenericCommand()
        (opened.cmd, opened.op, opened.i) = (.session, .opened, 1)
        let codec = LeanCloudCodec(encoding: .protobuf)
        try channel.writeOutbound(WebSocketOutbound.message(.binary, codec.encode(open)))
        try channel.writeInbound(WebSocketEvent.message(WebSocketMessage(kind: .binary, payload: codec.encode(opened))))
        try channel.writeInbound(wsMessage("{}"))
        let read = dialectMessages(try dialectEvents(channel))
        #expect(read.map(\.decoded) == [.leancloud(open), .leancloud(opened), nil])
        #expect(read.map(\.summary) == ["session/open i=1", "session/opened i=1", "heartbeat {}"])
        #expect(read.flatMap(\.findings).isEmpty)
    }

    /// A server pipeline over WebSocket frames: the client's masked frames in, the dialect's view out.
    @Test func overWebSocketFramesAsTheServer() throws {
        let channel = try webSocketChannel(WebSocketChannelConfiguration(role: .server))
        try channel.pipeline.syncOperations.addHandler(
            DialectMessageHandler(dialect: .nim, role: .server, now: steppingClock()))
        try channel.writeOutbound(WebSocketOutbound.message(.text, Array("1::".utf8)))
        let client = try WebSocketMessageEncoder(direction: .send, maskingKey: { 0x0a0b_0c0d })
        try channel.writeInbound(ByteBuffer(bytes: try client.message(.text, Array(Self.nimLogin.utf8))))
        let read = dialectMessages(try dialectEvents(channel))
        #expect(read.map(\.direction) == [.receive, .send])
        #expect(read.last?.summary?.isEmpty == false)
        #expect(read.flatMap(\.findings).map(\.severity) == [.info, .info])  // the login steps
        // The server's connect went out as a frame.
        var decoder = WebSocketStreamDecoder(WebSocketStreamConfiguration(direction: .receive, emitsFrames: false))
        #expect(messages(decoder.feed(try written(channel))) == [Array("1::".utf8)])
    }

    /// NIO's request/reply pattern: a handler after the dialect handler answers each request from
    /// its `channelRead`. The reply comes back through the dialect handler's `write` while it is
    /// still delivering the request (this trapped: "Simultaneous accesses" to its observer).
    @Test func aReplyWrittenFromALaterHandlersReadIsObserved() throws {
        let channel = try dialectChannel(.jmessage, role: .server)
        let replier = Replier()
        try channel.pipeline.syncOperations.addHandler(replier)
        try channel.writeOutbound(WebSocketOutbound.message(.text, Array(Self.eioOpen.utf8)))
        try channel.writeOutbound(WebSocketOutbound.message(.text, Array("40".utf8)))
        try channel.writeInbound(
            wsMessage(
                #"""
                42["c_init",{"rid":1,"appkey":"4f7aef34fb361292c566a1cd","random_str":"r",\#
                "timestamp":1,"signature":"0123456789abcdef0123456789abcdef","flag":0}]
                """#
            ))
        let read = replier.seen
        #expect(read.map(\.direction) == [.receive, .receive, .send, .receive])
        #expect(read.map(\.frameIndex) == [1, 2, 3, 4])
        // The ack answered the request: no finding names a missing or unrequested ack.
        #expect(!read.flatMap(\.findings).map(\.ruleID.rawValue).contains { $0.hasPrefix("JM.ACK") })
        #expect(try outboundValues(channel).count == 3)
    }
}

/// Answers every client request it reads with its ack, from inside `channelRead`.
private final class Replier: ChannelInboundHandler {
    typealias InboundIn = DialectEvent
    typealias OutboundOut = WebSocketOutbound
    private(set) var seen: [DialectMessage] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .message(let message) = unwrapInboundIn(data) else { return }
        seen.append(message)
        guard message.direction == .send, let text = String(validating: message.message.payload, as: UTF8.self),
            let rid = text.firstRange(of: #""rid":"#).map({ text[$0.upperBound...].prefix { $0.isNumber } })
        else { return }
        context.writeAndFlush(wrapOutboundOut(.message(.text, Array(#"42["ack",{"rid":\#(rid)}]"#.utf8))), promise: nil)
    }
}
