import IMWireCore
import IMWireDialect
import IMWireLeanCloud
import IMWireNIO
import IMWireWebSocket
import NIOCore
import NIOPosix

/// What the server refused: its `error`, `session/closed` or an `ack` with a code.
struct LeanCloudRefusal: Error {
    var command: LCGenericCommand
}

/// Logs `peer` in to the LeanCloud realtime server at `host`:`port`, starts a conversation with
/// `member`, sends it `text` and closes. Returns the id the server gave the message, and what
/// IMWire found wrong on the connection, both ways.
func sendOneMessage(
    host: String, port: Int, appID: String, peer: String, to member: String, text: String
) async throws -> (messageID: String, findings: [Finding]) {
    // Connect, and upgrade to WebSocket with the subprotocol of protobuf commands in binary frames.
    let handshake = try WebSocketClientHandshake(host: "\(host):\(port)", protocols: ["lc.protobuf2.3"])
    let upgraded = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addWebSocketClientUpgrade(handshake) { channel, negotiation in
                    // Every command, read or written, is decoded and checked as `imwire check` does.
                    let context = DialectContext(subprotocol: negotiation.subprotocol, namesMessages: true)
                    let dialect = DialectMessageHandler(dialect: .leancloud, role: .client, context: context)
                    try channel.pipeline.syncOperations.addHandler(dialect)
                    return try NIOAsyncChannel<DialectEvent, WebSocketOutbound>(wrappingChannelSynchronously: channel)
                }
            }
        }
    let connection = try await upgraded.get()

    return try await connection.executeThenClose { inbound, outbound in
        let codec = LeanCloudCodec(encoding: .protobuf)
        func send(_ command: LCGenericCommand) async throws {
            try await outbound.write(.message(.binary, codec.encode(command)))
        }

        var open = LCGenericCommand()
        (open.cmd, open.op, open.appID, open.peerID, open.i) = (.session, .open, appID, peer, 1)
        try await send(open)

        var messageID: String?
        var findings: [Finding] = []
        for try await event in inbound {
            guard case .message(let message) = event else { continue }  // .finished: the end
            findings += message.findings
            // The server's commands; this end's come back too, with their findings.
            guard message.direction == .receive, case .leancloud(let command)? = message.decoded else { continue }
            switch (command.cmd, command.op) {
            case (.session, .opened):
                var start = LCGenericCommand()
                (start.cmd, start.op, start.peerID, start.i) = (.conv, .start, peer, 2)
                start.convMessage.m = [member]
                try await send(start)
            case (.conv, .started):
                var direct = LCGenericCommand()
                (direct.cmd, direct.peerID, direct.i) = (.direct, peer, 3)
                direct.directMessage.cid = command.convMessage.cid
                direct.directMessage.msg = LeanCloudRichMessage(kind: .text, text: text).json.description
                try await send(direct)
            case (.ack, _) where command.i == 3 && !command.ackMessage.hasCode:
                messageID = command.ackMessage.uid
                // The close handshake: the server answers, and the connection ends.
                try await outbound.write(.close(.normalClosure))
            case (.error, _), (.session, .closed), (.ack, _):
                throw LeanCloudRefusal(command: command)
            default:
                break  // pushes, other peers' messages
            }
        }
        guard let messageID else { throw ChannelError.eof }
        return (messageID, findings)
    }
}
