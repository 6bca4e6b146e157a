import IMWireCore
import IMWireMQTT
import IMWireNIO
import NIOCore
import NIOPosix
import Testing

/// The handlers under `NIOAsyncChannel`: a server on 127.0.0.1 reads `MQTTDecodedPacket`s as an
/// async sequence and writes `MQTTPacket`s, and a plain TCP client sees the bytes.
@Suite("IMWireNIO handlers in NIOAsyncChannel")
struct AsyncChannelTests {
    @Test(.timeLimit(.minutes(1))) func anMQTTServerAnswersOverAsyncSequences() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(MQTTPacketReader())
                    try channel.pipeline.syncOperations.addHandler(MQTTPacketWriter())
                    return try NIOAsyncChannel<MQTTDecodedPacket, MQTTPacket>(wrappingChannelSynchronously: channel)
                }
            }
        let port = try #require(server.channel.localAddress?.port)

        // The server: CONNECT → CONNACK 0, PINGREQ → PINGRESP, then it closes; it returns what it read.
        async let served: [MQTTPacket] = server.executeThenClose { connections in
            var read: [MQTTPacket] = []
            for try await connection in connections {
                try await connection.executeThenClose { inbound, outbound in
                    for try await decoded in inbound {
                        guard let packet = decoded.packet else { continue }
                        read.append(packet)
                        switch packet {
                        case .connect:
                            try await outbound.write(.connack(MQTTConnack(sessionPresent: false, returnCode: 0)))
                        case .pingreq: try await outbound.write(.pingresp)
                        case .disconnect: return
                        default: break
                        }
                    }
                }
                return read
            }
            return read
        }

        // The client: raw bytes out, raw bytes back.
        let client = try await ClientBootstrap(group: group).connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        let sent: [MQTTPacket] = [.connect(MQTTConnect(keepAlive: 30, clientID: "async")), .pingreq, .disconnect]
        let received: [UInt8] = try await client.executeThenClose { inbound, outbound in
            // Split mid-packet, as a network may.
            let bytes = sent.flatMap(MQTTPacketEncoder.encode)
            try await outbound.write(ByteBuffer(bytes: bytes[..<5]))
            try await outbound.write(ByteBuffer(bytes: bytes[5...]))
            var received: [UInt8] = []
            for try await buffer in inbound {
                received += Array(buffer.readableBytesView)
                if received.count >= 6 { break }
            }
            return received
        }
        #expect(received == [0x20, 0x02, 0x00, 0x00, 0xd0, 0x00])  // CONNACK 0, PINGRESP
        #expect(try await served == sent)
        try await group.shutdownGracefully()
    }
}
