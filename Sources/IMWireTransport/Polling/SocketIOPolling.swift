import IMWireCore
import IMWireSocketIO

/// What socket.io's HTTP exchanges carry (the Spec's socketio.md): the socket.io 0.9 handshake
/// (`GET /socket.io/1/` answered `sid:heartbeat:close:transports`), 0.9 xhr-polling bodies (one
/// payload, `\u{fffd}<length>\u{fffd}`-framed when it holds several packets, read whole by the
/// NIM codec), and engine.io 3 polling bodies (length-prefixed packets, one message each).
enum SocketIOPolling {
    /// The messages, session and findings of one exchange; nil when its URL is not socket.io's.
    struct Reading {
        var framing: Framing
        var session: SessionKey?
        var messages: [WireMessage] = []
        var findings: [Finding] = []
    }

    static func read(_ request: HTTPMessage, _ response: HTTPMessage?, limits: Limits) -> Reading? {
        guard let target = request.target else { return nil }
        let (transport, urlFindings) = SocketIOTransport.from(url: target, overWebSocket: false)
        guard let transport else { return nil }
        var reading: Reading
        switch transport {
        case .v09Handshake:
            reading = Reading(framing: .socketIO09)
            if let response, response.status == 200, !response.bodyIncomplete {
                let (handshake, findings) = SocketIO09Handshake.decode(response.body)
                reading.findings += findings.map { shifted($0, by: response.bodyOffset, .receive) }
                reading.session = handshake.map { SessionKey(framing: .socketIO09, sid: $0.sid) }
            }
        case .v09(let name, let sid):
            reading = Reading(
                framing: .socketIO09, session: sid.isEmpty ? nil : SessionKey(framing: .socketIO09, sid: sid))
            guard SocketIOTransport.v09PollingTransports.contains(name) else { break }
            // A POST carries the client's payload (answered `1`); a GET's response the server's.
            if request.method == "POST", !request.body.isEmpty, !request.bodyIncomplete {
                reading.messages.append(WireMessage(direction: .send, frameType: .text, payload: request.body))
            }
            if request.method == "GET", let response, response.status == 200, !response.body.isEmpty,
                !response.bodyIncomplete
            {
                reading.messages.append(WireMessage(direction: .receive, frameType: .text, payload: response.body))
            }
        case .engineIO(let version, _, let sid):
            reading = Reading(
                framing: .engineIO(version: version),
                session: sid.map { SessionKey(framing: .engineIO(version: version), sid: $0) })
            if request.method == "POST", !request.bodyIncomplete {
                payload(request.body, offset: request.bodyOffset, direction: .send, into: &reading)
            }
            if request.method == "GET", let response, response.status == 200, !response.bodyIncomplete {
                payload(response.body, offset: response.bodyOffset, direction: .receive, into: &reading)
                // The handshake's answer opens with the open packet, which names the session.
                if reading.session == nil, let first = reading.messages.first(where: { $0.direction == .receive }),
                    case (let packet?, _) = EngineIOPacket.decode(
                        first.payload, binaryFrame: first.frameType == .binary, limits: limits),
                    let handshake = packet.handshake
                {
                    reading.session = SessionKey(framing: .engineIO(version: version), sid: handshake.sid)
                }
            }
        }
        reading.findings = urlFindings.map { located($0, .send) } + reading.findings
        return reading
    }

    private static func payload(_ body: [UInt8], offset: Int, direction: Direction, into reading: inout Reading) {
        let (packets, findings) = EngineIOPayload.decode(body)
        for packet in packets {
            reading.messages.append(
                WireMessage(
                    direction: direction, frameType: packet.binaryFrame ? .binary : .text, payload: packet.bytes))
        }
        reading.findings += findings.map { shifted($0, by: offset, direction) }
    }

    private static func shifted(_ finding: Finding, by offset: Int, _ direction: Direction) -> Finding {
        located(finding.shifted(by: offset), direction)
    }

    private static func located(_ finding: Finding, _ direction: Direction) -> Finding {
        var copy = finding
        copy.location.direction = direction
        return copy
    }
}
