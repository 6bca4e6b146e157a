import IMWireCore

/// Every rule of the socket.io layer: socket.io 0.9 (protocol 1, NIM's web SDK), engine.io
/// protocol 3 and socket.io protocol 4 (JMessage's web SDK). IDs are stable; `Spec/rules.md` is
/// generated from `SocketIORules.all`. References name the section of `Spec/socketio.md` that
/// states each requirement; the section cites the protocol documents (socket.io-spec for 0.9,
/// engine.io-protocol v3, socket.io-protocol v4) and the reference parsers (socket.io-client
/// 0.9.11 `lib/parser.js`, engine.io-parser 2.x, socket.io-parser 3.x).
package enum SocketIORules {
    private static func rule(
        _ id: RuleID, _ severity: Severity, lenient: Severity? = nil, layer: Layer = .socketio,
        _ summary: String, _ specRef: String
    ) -> Rule {
        Rule(id, severity, lenient: lenient, layer: layer, summary: summary, specRef: specRef)
    }

    // MARK: text

    package static let textNotUTF8 = rule(
        "SIO.TEXT-NOT-UTF8", .error,
        "A text message that is not valid UTF-8 (socket.io packets are JavaScript strings).",
        "Spec/socketio.md#text-utf8")

    // MARK: socket.io 0.9

    package static let v09Malformed = rule(
        "SIO.V09-PACKET-MALFORMED", .error,
        "A socket.io 0.9 packet that is not `type:[id[+]]:[endpoint][:data]` (the 0.9 client decodes it to nothing).",
        "Spec/socketio.md#v09-packet (packet syntax)")
    package static let v09TypeUnknown = rule(
        "SIO.V09-TYPE-UNKNOWN", .error,
        "A socket.io 0.9 packet type other than 0 disconnect … 8 noop.",
        "Spec/socketio.md#v09-packet (packet types)")
    package static let v09DataUnexpected = rule(
        "SIO.V09-DATA-UNEXPECTED", .warning, lenient: .info,
        "Data on a disconnect, heartbeat or noop packet (the 0.9 client ignores it).",
        "Spec/socketio.md#v09-packet-data (disconnect, heartbeat, noop)")
    package static let v09JSONInvalid = rule(
        "SIO.V09-JSON-INVALID", .error,
        "The data of a json, event or ack packet is not valid JSON (the 0.9 client drops it silently).",
        "Spec/socketio.md#v09-packet-data (json, event, ack)")
    package static let v09EventInvalid = rule(
        "SIO.V09-EVENT-INVALID", .error,
        "An event packet whose data is not {\"name\": string, \"args\"?: array}.",
        "Spec/socketio.md#v09-packet-data (event)")
    package static let v09AckInvalid = rule(
        "SIO.V09-ACK-INVALID", .error,
        "An ack packet whose data is not `<ack id>[+<JSON array>]`.",
        "Spec/socketio.md#v09-packet-data (ack)")
    package static let v09ErrorInvalid = rule(
        "SIO.V09-ERROR-INVALID", .warning,
        "An error packet whose data is not `[reason][+advice]` with reason 0–2 and advice 0.",
        "Spec/socketio.md#v09-packet-data (error)")
    package static let v09IDInvalid = rule(
        "SIO.V09-ID-INVALID", .error,
        "A message id or ack id that does not fit a 53-bit integer.",
        "Spec/socketio.md#v09-packet (message id), Spec/socketio.md#integer-ids")
    package static let v09FramingInvalid = rule(
        "SIO.V09-FRAMING-INVALID", .error,
        "A `\\ufffd<length>\\ufffd<packet>` payload whose length is not a number or overruns the text.",
        "Spec/socketio.md#v09-payload")
    package static let v09HandshakeInvalid = rule(
        "SIO.V09-HANDSHAKE-INVALID", .error,
        "A handshake body that is not `sid:heartbeat timeout:close timeout:transports`.",
        "Spec/socketio.md#v09-handshake (body)")
    package static let v09HandshakeNoWebSocket = rule(
        "SIO.V09-HANDSHAKE-NO-WEBSOCKET", .warning,
        "A handshake whose transports do not include websocket.",
        "Spec/socketio.md#v09-handshake (transports)")
    package static let v09URLInvalid = rule(
        "SIO.V09-URL-INVALID", .warning,
        "A socket.io 0.9 URL path that is not /socket.io/1/websocket/<sid> over WebSocket, or the handshake "
            + "/socket.io/1/ or /socket.io/1/xhr-polling/<sid> over HTTP.",
        "Spec/socketio.md#v09-urls")

    // MARK: engine.io 3

    package static let eioEmpty = rule(
        "EIO.PACKET-EMPTY", .error, "An empty engine.io message (no packet type).",
        "Spec/socketio.md#eio-packet (packet type)")
    package static let eioTypeUnknown = rule(
        "EIO.TYPE-UNKNOWN", .error,
        "An engine.io packet type other than 0 open … 6 noop (engine.io-parser returns its error packet).",
        "Spec/socketio.md#eio-packet (packet types)")
    package static let eioOpenInvalid = rule(
        "EIO.OPEN-INVALID", .error,
        """
        An open packet whose data is not {sid: string, upgrades: \
        [string], pingInterval: number, pingTimeout: number}.
        """,
        "Spec/socketio.md#eio-open (handshake data)")
    package static let eioBase64Invalid = rule(
        "EIO.BASE64-INVALID", .error, "A `b<type><base64>` packet whose base64 does not decode.",
        "Spec/socketio.md#eio-packet (base64 binary)")
    package static let eioDataUnexpected = rule(
        "EIO.DATA-UNEXPECTED", .warning, lenient: .info, "Data on a close, upgrade or noop packet.",
        "Spec/socketio.md#eio-packet (close, upgrade, noop)")
    package static let eioPayloadInvalid = rule(
        "EIO.PAYLOAD-INVALID", .error,
        """
        An HTTP long-polling body that is not a sequence of length-prefixed packets \
        (`<length>:<packet>`, or the binary form `<0|1><digits>\u{ff}<packet>`).
        """,
        "Spec/socketio.md#eio-payload (framing)")
    package static let eioPayloadLengthInBytes = rule(
        "EIO.PAYLOAD-LENGTH-IN-BYTES", .warning, lenient: .info,
        "A text polling payload whose lengths count UTF-8 bytes, where engine.io-parser counts characters (UTF-16 code "
            + "units); python-engineio 3.x writes bytes. The packets are read all the same.",
        "Spec/socketio.md#eio-payload (lengths in characters)")
    package static let eioURLInvalid = rule(
        "EIO.URL-INVALID", .warning,
        """
        An engine.io URL without `EIO=3` and `transport=websocket` (over \
        WebSocket) or `transport=polling` (over HTTP) in its query.
        """,
        "Spec/socketio.md#eio-urls")

    // MARK: socket.io 4

    package static let sioTypeUnknown = rule(
        "SIO.TYPE-UNKNOWN", .error, "A socket.io packet type other than 0 CONNECT … 6 BINARY_ACK.",
        "Spec/socketio.md#sio-packet (packet types)")
    package static let sioAttachmentsInvalid = rule(
        "SIO.ATTACHMENTS-INVALID", .error,
        "A binary packet without `<count>-`, or whose placeholders do not number 0…count-1 exactly once.",
        "Spec/socketio.md#sio-binary (attachment count and placeholders)")
    package static let sioNamespaceUnterminated = rule(
        "SIO.NAMESPACE-WITHOUT-COMMA", .warning, lenient: .info,
        "A namespace not followed by `,` (socket.io-parser always writes it; parsers read to the end).",
        "Spec/socketio.md#sio-packet (namespace)")
    package static let sioIDInvalid = rule(
        "SIO.ID-INVALID", .error, "A packet id that does not fit a 53-bit integer.",
        "Spec/socketio.md#sio-packet (id), Spec/socketio.md#integer-ids")
    package static let sioPayloadInvalid = rule(
        "SIO.PAYLOAD-INVALID", .error,
        "Packet data that is not JSON, or not an array in an EVENT/ACK (socket.io-parser: `invalid payload`).",
        "Spec/socketio.md#sio-packet-data (JSON, arrays)")
    package static let sioEventNameInvalid = rule(
        "SIO.EVENT-NAME-INVALID", .error, "An EVENT whose array is empty or does not start with a string name.",
        "Spec/socketio.md#sio-packet-data (EVENT)")
    package static let sioDataUnexpected = rule(
        "SIO.DATA-UNEXPECTED", .warning, "Data on a CONNECT or DISCONNECT (protocol 4 carries none).",
        "Spec/socketio.md#sio-packet-data (CONNECT, DISCONNECT)")
    package static let sioAckWithoutID = rule(
        "SIO.ACK-WITHOUT-ID", .error, "An ACK or BINARY_ACK without the id of the packet it answers.",
        "Spec/socketio.md#sio-packet (id)")
    package static let sioAttachmentMissing = rule(
        "SIO.ATTACHMENT-MISSING", .error,
        "A binary packet whose attachments do not follow as binary engine.io messages before the next packet.",
        "Spec/socketio.md#sio-binary (attachments follow)")
    package static let sioBinaryUnexpected = rule(
        "SIO.BINARY-UNEXPECTED", .error, "A binary engine.io message when no binary packet is waiting for attachments.",
        "Spec/socketio.md#sio-binary (attachments follow)")

    // MARK: transport sessions

    package static let eioOpenNotFirst = rule(
        "EIO.OPEN-NOT-FIRST", .error, layer: .session,
        "The server's first message on a WebSocket-only connection is not the open packet (or 3probe after polling).",
        "Spec/socketio.md#eio-open (first server message)")
    package static let eioWrongDirection = rule(
        "EIO.WRONG-DIRECTION", .error, layer: .session,
        """
        A packet sent by the side that never sends it in protocol 3 \
        (open/pong from the client, ping/upgrade from the server).
        """,
        "Spec/socketio.md#eio-packet (who sends which packet)")
    package static let eioPingUnanswered = rule(
        "EIO.PING-UNANSWERED", .warning, layer: .session,
        "A client ping without the server's pong within pingTimeout.",
        "Spec/socketio.md#eio-heartbeat (pong within pingTimeout)")
    package static let eioPingLate = rule(
        "EIO.PING-LATE", .warning, layer: .session,
        "No client ping within pingInterval + pingTimeout of the open or the last ping: the server closes.",
        "Spec/socketio.md#eio-heartbeat (ping within pingInterval + pingTimeout)")
    package static let sioEventBeforeConnect = rule(
        "SIO.EVENT-BEFORE-CONNECT", .warning, layer: .session,
        "A client EVENT before the server's CONNECT for its namespace (the client buffers until then).",
        "Spec/socketio.md#sio-connect")
    package static let v09ConnectNotFirst = rule(
        "SIO.V09-CONNECT-NOT-FIRST", .warning, layer: .session,
        "The server's first packet on a socket.io 0.9 WebSocket is not connect `1::`.",
        "Spec/socketio.md#v09-session (server's connect first)")
    package static let v09MessageBeforeConnect = rule(
        "SIO.V09-MESSAGE-BEFORE-CONNECT", .warning, layer: .session,
        "A client message before the server's connect packet.",
        "Spec/socketio.md#v09-session (no message before connect)")

    package static let all: [Rule] = [
        textNotUTF8,
        v09Malformed, v09TypeUnknown, v09DataUnexpected, v09JSONInvalid, v09EventInvalid, v09AckInvalid,
        v09ErrorInvalid,
        v09IDInvalid, v09FramingInvalid, v09HandshakeInvalid, v09HandshakeNoWebSocket, v09URLInvalid,
        eioEmpty, eioTypeUnknown, eioOpenInvalid, eioBase64Invalid, eioDataUnexpected, eioPayloadInvalid,
        eioPayloadLengthInBytes,
        eioURLInvalid,
        sioTypeUnknown, sioAttachmentsInvalid, sioNamespaceUnterminated, sioIDInvalid, sioPayloadInvalid,
        sioEventNameInvalid,
        sioDataUnexpected, sioAckWithoutID, sioAttachmentMissing, sioBinaryUnexpected,
        eioOpenNotFirst, eioWrongDirection, eioPingUnanswered, eioPingLate, sioEventBeforeConnect, v09ConnectNotFirst,
        v09MessageBeforeConnect,
    ]
}
