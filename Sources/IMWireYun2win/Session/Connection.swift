import IMWireCore
import IMWireMQTT

/// One yun2win connection as a checker sees it: the bytes of each direction, in any chunking
/// (TCP segments, WebSocket binary messages), go through their own MQTT stream, and every packet
/// through the session tracker. The server's stream is read under the version of the client's
/// CONNECT. Codec findings get their frame, time and direction here.
public struct Yun2winConnection: Sendable {
    private var client: Yun2winCodec
    private var server: Yun2winCodec
    public private(set) var tracker: Yun2winSessionTracker

    public init(options: Yun2winSessionOptions = Yun2winSessionOptions(), limits: Limits = .default,
                kickedUIDs: Set<String> = []) {
        client = Yun2winCodec(limits: limits)
        server = Yun2winCodec(limits: limits)
        tracker = Yun2winSessionTracker(options: options, kickedUIDs: kickedUIDs)
    }

    /// Uids kicked so far, for the tracker of the client's next connection.
    public var kickedUIDs: Set<String> { tracker.kickedUIDs }

    /// Decodes and checks the next bytes of one direction: the packets they complete, and every
    /// finding (codec and session).
    public mutating func observe(_ bytes: [UInt8], direction: Direction, time: Int64, frameIndex: Int)
        -> (packets: [Yun2winDecodedPacket], findings: [Finding])
    {
        let packets: [Yun2winDecodedPacket]
        switch direction {
        case .send:
            packets = client.feed(bytes, direction: .send)
            server.assume(client.version)
        case .receive:
            packets = server.feed(bytes, direction: .receive)
        }
        return (packets, check(packets, direction: direction, time: time, frameIndex: frameIndex))
    }

    private mutating func check(_ packets: [Yun2winDecodedPacket], direction: Direction, time: Int64?, frameIndex: Int) -> [Finding] {
        var findings: [Finding] = []
        for packet in packets {
            for var finding in packet.findings {
                finding.location = Location(frameIndex: frameIndex, time: time, direction: direction)
                finding.subject = packet.summary
                findings.append(finding)
            }
            findings += tracker.observe(packet, direction: direction, time: time ?? 0, frameIndex: frameIndex)
        }
        return findings
    }

    /// The connection ended: packets cut short in either direction, and commands still waiting.
    public mutating func finish(at time: Int64?, frameIndex: Int) -> [Finding] {
        var findings = check(client.finish(direction: .send), direction: .send, time: time, frameIndex: frameIndex)
        findings += check(server.finish(direction: .receive), direction: .receive, time: time, frameIndex: frameIndex)
        return findings + tracker.finish(at: time)
    }
}
