import IMWireCapture
import IMWireCore
import IMWireDialect
import IMWireRegistry
import IMWireTLS
import IMWireTransport
import IMWireWebSocket

/// Converts captures between formats (`imwire convert`, `imwire check --annotate`).
public enum CaptureConverter {
    /// The application messages of any capture as a JSONL transcript (Spec/capture-jsonl.md): an
    /// `open` line per connection (a socket.io session spanning TCP connections is one), then one
    /// `message` line per message as the transport layer read it (TCP reassembled, HTTP bodies and
    /// long-poll payloads split into packets, WebSocket frames joined and inflated, MQTT packets),
    /// and a `close` line (with the WebSocket close code) when the connection closed before the
    /// capture ended. TLS connections are decrypted with `keyLog` and the capture's own secrets.
    /// With `hidingSecrets`, each message is read by its connection's dialect and the credentials
    /// it carries are replaced as `imwire check` replaces them (`SecretRedaction`: same length,
    /// `*`); otherwise no dialect is decoded. Lines go to `write` as they come.
    public static func transcript(
        from source: any CaptureSource, limits: Limits = .default, keyLog: TLSKeyLog = TLSKeyLog(),
        hidingSecrets: Bool = false,
        write: @escaping (String) -> Void
    ) {
        let assembler = ConnectionAssembler(limits: limits, keyLog: keyLog)
        let writer = TranscriptWriter(
            credentials: hidingSecrets ? MessageCredentials(limits: limits) : nil, write: write)
        var numbers = ConnectionNumbers()
        source.forEachItem { item in
            switch item {
            case .event(let event): assembler.consume(event, number: numbers.number(of: event), to: writer)
            case .secrets(let secrets) where secrets.type == DecryptionSecrets.tlsKeyLog:
                assembler.add(keyLog: secrets.data)
            case .secrets: break
            case .problem: break
            }
        }
        assembler.finish(to: writer)
    }

    /// Writes the lines of a transcript as the transport layer reads messages.
    private final class TranscriptWriter: ConnectionEvents {
        let write: (String) -> Void
        /// Reads each message's credentials, when they are hidden.
        let credentials: MessageCredentials?
        var opened = Set<String>()
        /// Close lines of connections with no message yet: written before their first message
        /// (a message after a close is then one in the transcript too), never without one.
        var pendingCloses: [String: String] = [:]

        init(credentials: MessageCredentials?, write: @escaping (String) -> Void) {
            self.credentials = credentials
            self.write = write
        }

        func message(
            _ message: WireMessage, of connection: LogicalConnection, at place: InputPlace, frame: Int, via: String?
        ) {
            if opened.insert(connection.id).inserted {
                write(CaptureConverter.openLine(connection, time: place.time))
                if let close = pendingCloses.removeValue(forKey: connection.id) { write(close) }
            }
            var shown = message
            if let read = credentials?.read(message, in: connection, time: place.time, frame: frame) {
                shown.payload =
                    read.unreadLogin
                    ? SecretRedaction.withhold(json: read.json, payload: message.payload).payload
                    : SecretRedaction.redact(json: read.json, payload: message.payload).payload
            }
            write(CaptureConverter.messageLine(connection.id, shown, time: place.time))
        }

        func closed(_ connection: LogicalConnection, at place: InputPlace) {
            var line = JSONObject()
            line.append("type", "close")
            line.append("conn", .string(connection.id))
            line.append("t", CaptureConverter.transcriptTime(place.time))
            if let code = connection.closeCode { line.append("code", .number(JSONNumber(Int64(code)))) }
            if opened.contains(connection.id) {
                write(JSONWriter.string(.object(line)))
            } else {
                pendingCloses[connection.id] = JSONWriter.string(.object(line))
            }
        }

        func ended(_ connection: LogicalConnection) {
            pendingCloses[connection.id] = nil
            credentials?.ended(connection)
        }
    }

    fileprivate static func openLine(_ connection: LogicalConnection, time: Int64) -> String {
        let info = connection.info
        var open = JSONObject()
        open.append("type", "open")
        open.append("conn", .string(connection.id))
        open.append("t", transcriptTime(time))
        if let subprotocol = info.subprotocol
            ?? info.dialect.flatMap({ Dialects.standard.definition($0)?.namingSubprotocol })
        {
            open.append("subprotocol", .string(subprotocol))
        }
        // The dialect the capture named, else the one that speaks over the framing the transport
        // found (a long-polled session has no URL or subprotocol in the transcript to show it).
        if let dialect = info.dialect ?? connection.framing.flatMap(Dialects.standard.dialect(for:)) {
            open.append("dialect", .string(dialect.rawValue))
        }
        if let url = info.url { open.append("url", .string(url)) }
        if let client = info.client { open.append("client", .string(client)) }
        if let server = info.server { open.append("server", .string(server)) }
        return JSONWriter.string(.object(open))
    }

    fileprivate static func messageLine(_ connection: String, _ message: WireMessage, time: Int64) -> String {
        var line = JSONObject()
        line.append("conn", .string(connection))
        line.append("t", transcriptTime(time))
        line.append("dir", .string(message.direction.rawValue))
        if message.frameType == .text, let text = String(validating: message.payload, as: UTF8.self) {
            line.append("text", .string(text))
        } else {
            line.append("hex", .string(Hex.encode(message.payload)))
            if message.frameType == .text { line.append("frame", "text") }
        }
        return JSONWriter.string(.object(line))
    }

    static func transcriptTime(_ micros: Int64) -> JSONValue {
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        let fraction = String(magnitude % 1_000_000)
        let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
        return (try? JSONParser.parse("\(sign)\(magnitude / 1_000_000).\(padded)")) ?? .null
    }

    /// A message-level capture (JSONL, HAR) as pcapng with synthesized IPv4/TCP packets: per
    /// connection a TCP handshake, the HTTP upgrade (when the capture has messages rather than
    /// raw bytes), each message as WebSocket frames (client frames masked, no compression), the
    /// raw `stream` bytes as they are, gaps as missing sequence numbers, and at a close the
    /// WebSocket close frame (when the capture gives its code) and FINs.
    /// `comments(connection, frameIndex)` gives the packet comments of a message (findings).
    /// With `hidingSecrets`, the credentials each message or `stream` line carries are replaced
    /// as in `transcript` (`EventCredentials`).
    public static func pcapng(
        from source: any CaptureSource, hidingSecrets: Bool = false,
        comments: (_ connection: String, _ frameIndex: Int) -> [String] = { _, _ in [] }
    ) -> [UInt8] {
        let hiding = hidingSecrets ? EventCredentials(limits: .default) : nil
        var writer = PcapngWriter()
        var connections: [String: SynthesizedConnection] = [:]
        var order: [String] = []
        var lastTime: Int64 = 0
        func emit(_ packets: [(Direction, [UInt8])], time: Int64, comments: [String] = []) {
            for (index, packet) in packets.enumerated() {
                writer.packet(
                    packet.1, linkType: TCPSynthesizer.linkType, time: time, inbound: packet.0 == .receive,
                    comments: index == 0 ? comments : [])
            }
        }
        func write(_ event: ConnectionInput) {
            let time = event.time ?? lastTime
            lastTime = time
            if connections[event.connection] == nil {
                connections[event.connection] = SynthesizedConnection(index: order.count + 1)
                order.append(event.connection)
                emit(connections[event.connection]?.tcp.open() ?? [], time: time)
            }
            guard var connection = connections[event.connection] else { return }
            connections[event.connection] = nil  // keep it uniquely referenced while it changes
            switch event.kind {
            case .open(let info):
                connection.info = info
            case .stream(let direction, let bytes):
                connection.raw = true
                emit(connection.tcp.data(bytes, direction: direction).map { (direction, $0) }, time: time)
            case .gap(let direction, let count):
                connection.tcp.skip(count, direction: direction)
            case .streamEnd:
                break  // the close writes both FINs
            case .message(let message):
                if !connection.raw, !connection.upgraded {
                    emit(connection.upgrade(), time: time)
                }
                connection.messages += 1
                let frames = connection.frame(message)
                emit(
                    connection.tcp.data(frames, direction: message.direction).map { (message.direction, $0) },
                    time: time,
                    comments: comments(event.connection, connection.messages))
            case .close(let info):
                if connection.upgraded, let code = info.code {
                    let direction = info.initiator ?? .receive
                    emit(
                        connection.tcp.data(
                            connection.closeFrame(code: code, reason: info.reason, direction: direction),
                            direction: direction
                        ).map { (direction, $0) }, time: time)
                }
                if !info.captureEnded { emit(connection.tcp.close(), time: time) }
                connection.closed = true
            }
            connections[event.connection] = connection
        }
        source.forEachEvent { read in
            if let hiding {
                for event in hiding.hidden(read) { write(event) }
            } else {
                write(read)
            }
        }
        for event in hiding?.finish() ?? [] { write(event) }
        // A connection the capture leaves open gets no FIN: it stays open in the pcapng too.
        return writer.bytes
    }

    /// A pcap or pcapng file copied to pcapng with packet comments (`imwire check --annotate`).
    public static func annotate(
        path: String, limits: Limits = .default,
        comments: (_ packetNumber: Int) -> [String]
    ) throws(IMWireError) -> [UInt8] {
        let packets = try PacketCaptureReader.packets(path: path, limits: limits)
        var writer = PcapngWriter()
        while let item = packets.next() {
            guard case .packet(let packet) = item else { continue }
            writer.packet(
                packet.data, linkType: packet.linkType, time: packet.time, originalLength: packet.originalLength,
                inbound: packet.inbound, comments: packet.comments + comments(packet.number))
        }
        return writer.bytes
    }

    /// The capture at `path` again, as pcapng, with each finding of `report` (its check) as a
    /// comment on the packet it is about (`imwire check --annotate`; Wireshark shows them): a
    /// packet capture's own packets, or a transcript's messages as synthesized packets.
    public static func annotated(_ report: CheckReport, capture path: String, limits: Limits = .default)
        throws(IMWireError) -> [UInt8]
    {
        func comment(_ finding: Finding) -> String {
            "imwire [\(finding.ruleID)] \(finding.severity): \(finding.message)"
                + (finding.offset.map { " (offset \($0))" } ?? "")
        }
        switch try CaptureFile.format(of: path) {
        case .pcap?, .pcapng?:
            // Findings of packet captures are located by packet number.
            var byPacket: [Int: [String]] = [:]
            for finding in report.allFindings {
                if let packet = finding.location.frameIndex { byPacket[packet, default: []].append(comment(finding)) }
            }
            return try annotate(path: path, limits: limits) { byPacket[$0] ?? [] }
        default:
            var byMessage: [String: [Int: [String]]] = [:]
            for finding in report.allFindings {
                guard let connection = finding.location.connection, let frame = finding.location.frameIndex else {
                    continue
                }
                byMessage[connection, default: [:]][frame, default: []].append(comment(finding))
            }
            return pcapng(from: try CaptureFile.open(path, limits: limits)) { byMessage[$0]?[$1] ?? [] }
        }
    }
}

/// The credentials in messages, read by each connection's dialect as `imwire check` reads them
/// (`SecretRedaction` finds them in the canonical JSON): what `imwire convert` hides unless
/// `--show-secrets`.
final class MessageCredentials {
    private let options: CheckOptions
    /// Each connection's dialect session, nil for one no dialect reads.
    private var sessions: [String: (any DialectConnection)?] = [:]

    init(limits: Limits) {
        var options = CheckOptions()
        options.limits = limits
        options.describesMessages = true
        self.options = options
    }

    /// `message` as its connection's dialect reads it (the dialect found as the checker finds
    /// it: named, from the framing, else guessed from the first message): its canonical JSON, and
    /// whether it is a login the dialect could not read (`DialectDefinition.recognisesUnreadLogin`);
    /// nil when no dialect reads it.
    func read(
        _ message: WireMessage, in connection: LogicalConnection, time: Int64, frame: Int
    ) -> (json: JSONValue?, unreadLogin: Bool)? {
        let session: (any DialectConnection)?
        if let known = sessions[connection.id] {
            session = known
        } else {
            let dialect =
                DialectSessions.dialect(forInfo: connection.info, in: options.dialects)
                ?? connection.framing.flatMap(options.dialects.dialect(for:))
                ?? options.dialects.recognise(message, limits: options.limits)
            session = dialect.flatMap { DialectSessions.make($0, info: connection.info, options: options) }
            sessions[connection.id] = session
        }
        guard let session else { return nil }
        let json = session.observe(message, timeMicros: time, frameIndex: frame).canonicalJSON
        return (json, options.dialects.definition(session.dialect)?.recognisesUnreadLogin(message, json) == true)
    }

    func ended(_ connection: LogicalConnection) { sessions[connection.id] = nil }
}

/// A capture's events with the credentials their bytes carry replaced: each event goes through
/// the transport layer, and the messages it completes through their dialects, before it is
/// written. A `stream` line is held back (and every event after it, to keep their order) until a
/// later line of its direction completes a message, its direction breaks (a gap), its connection
/// closes or the capture ends: the lines held are then masked together with the credentials of
/// the messages completed, so that a credential a writer cut across lines is masked in each of
/// them. A credential the held lines do not hold as it is (compressed) makes all of them `*`, as
/// `SecretRedaction` does for a payload.
final class EventCredentials: ConnectionEvents {
    private let assembler: ConnectionAssembler
    private let credentials: MessageCredentials
    private var numbers = ConnectionNumbers()
    /// One direction of one connection of the capture (the TCP connection that carried the messages).
    private struct Side: Hashable {
        var connection: String
        var direction: Direction
    }
    /// The messages the event being read completed, by the side that carried them, with their
    /// JSON when a dialect read them and whether each is a login the dialect could not read.
    private var read: [(side: Side, json: JSONValue?, unreadLogin: Bool)] = []
    /// Events not yet handed out, in capture order, from `first` on; `open`: a `stream` line
    /// still to be masked with what a later line of its side completes.
    private var held: [(event: ConnectionInput, open: Bool)] = []
    private var first = 0
    /// The places in `held` of each side's open lines, in order.
    private var openLines: [Side: [Int]] = [:]

    init(limits: Limits) {
        assembler = ConnectionAssembler(limits: limits)
        credentials = MessageCredentials(limits: limits)
    }

    /// The events `event` lets out, in capture order, the credentials of the messages they
    /// complete replaced in their bytes.
    func hidden(_ event: ConnectionInput) -> [ConnectionInput] {
        read = []
        assembler.consume(event, number: numbers.number(of: event), to: self)
        var shown = event
        if case .message(var message) = event.kind, !read.isEmpty {
            message.payload = Self.hidden(message.payload, read[...])
            shown.kind = .message(message)
        }
        var current: Side? = nil
        // Sides nothing more will complete a message of, once what this event completed is masked.
        var ending: [Side] = []
        switch event.kind {
        case .stream(let direction, _):
            current = Side(connection: event.connection, direction: direction)
        case .gap(let direction, _):
            ending = [Side(connection: event.connection, direction: direction)]
        case .close:
            ending = [Direction.send, .receive].map { Side(connection: event.connection, direction: $0) }
        default:
            break
        }
        if let current { openLines[current, default: []].append(held.count) }
        held.append((shown, current != nil))
        maskRead(keepingOpen: current)
        for side in ending { close(side) }
        var out: [ConnectionInput] = []
        while first < held.count, !held[first].open {
            out.append(held[first].event)
            first += 1
        }
        if first == held.count || first > 4096 {
            held.removeFirst(first)
            for side in openLines.keys { openLines[side] = openLines[side]?.map { $0 - first } }
            first = 0
        }
        return out
    }

    /// The capture has ended: what the transport still held goes through the dialects, and every
    /// event held is handed out.
    func finish() -> [ConnectionInput] {
        read = []
        assembler.finish(to: self)
        maskRead(keepingOpen: nil)
        for side in Array(openLines.keys) { close(side) }
        defer {
            held = []
            first = 0
        }
        return held[first...].map(\.event)
    }

    /// The open lines of each side the messages just read came by, masked together with their
    /// credentials; then done with, but for the line just read (`keepingOpen`'s last), which may
    /// hold the start of the next message.
    private func maskRead(keepingOpen current: Side?) {
        for side in Set(read.map(\.side)) {
            let lines = openLines[side] ?? []
            if !lines.isEmpty {
                var joined: [UInt8] = []
                for index in lines { if case .stream(_, let bytes) = held[index].event.kind { joined += bytes } }
                var masked = Self.hidden(joined, read.filter { $0.side == side }[...])[...]
                for index in lines {
                    guard case .stream(let direction, let bytes) = held[index].event.kind else { continue }
                    held[index].event.kind = .stream(direction, Array(masked.prefix(bytes.count)))
                    masked = masked.dropFirst(bytes.count)
                }
            }
            let kept = side == current ? lines.suffix(1) : []
            for index in lines.dropLast(kept.count) { held[index].open = false }
            openLines[side] = kept.isEmpty ? nil : Array(kept)
        }
    }

    /// `bytes` with the credentials of the messages `read` replaced; all `*` when one of them is a
    /// login its dialect could not read.
    private static func hidden(_ bytes: [UInt8], _ read: ArraySlice<(side: Side, json: JSONValue?, unreadLogin: Bool)>)
        -> [UInt8]
    {
        if read.contains(where: \.unreadLogin) { return SecretRedaction.withhold(json: nil, payload: bytes).payload }
        let jsons = read.compactMap(\.json)
        return jsons.isEmpty ? bytes : SecretRedaction.redact(json: .array(jsons), payload: bytes).payload
    }

    /// Nothing more will complete a message `side` began: its lines are done with.
    private func close(_ side: Side) {
        for index in openLines.removeValue(forKey: side) ?? [] { held[index].open = false }
    }

    func message(
        _ message: WireMessage, of connection: LogicalConnection, at place: InputPlace, frame: Int, via: String?
    ) {
        let side = Side(connection: via ?? connection.id, direction: message.direction)
        let shown = credentials.read(message, in: connection, time: place.time, frame: frame)
        read.append((side, shown?.json, shown?.unreadLogin ?? false))
    }

    func ended(_ connection: LogicalConnection) { credentials.ended(connection) }
}

/// One connection being synthesized: its TCP numbers and, for message-level captures, the
/// WebSocket upgrade and framing.
struct SynthesizedConnection {
    var tcp: TCPSynthesizer
    var info = ConnectionInfo()
    var raw = false
    var upgraded = false
    var closed = false
    var messages = 0
    private var maskCounter: UInt32

    init(index: Int) {
        tcp = TCPSynthesizer(index: index)
        maskCounter = UInt32(truncatingIfNeeded: index) &* 0x9e37_79b9
    }

    /// The HTTP/1.1 upgrade both ways (a fixed key; its accept value computed as RFC 6455 says).
    mutating func upgrade() -> [(Direction, [UInt8])] {
        upgraded = true
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        var request = "GET \(info.url.flatMap(path(of:)).map(Self.visible) ?? "/") HTTP/1.1\r\n"
        request += "Host: \(info.url.flatMap(host(of:)).map(Self.visible) ?? "imwire.invalid")\r\n"
        request +=
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        response += "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n"
        // A transcript that names its dialect but no subprotocol (yun2win's) gets the subprotocol
        // that names the dialect ("mqtt", MQTT 3.1.1 §6): in the pcapng the handshake is the only place for it.
        // Only a subprotocol that is one HTTP token goes in: a comma would make it a list the
        // server cannot choose, a space or CR/LF would break the head, and either would lose the
        // connection's messages (found by the HAR fuzz target).
        if let subprotocol = info.subprotocol
            ?? info.dialect.flatMap({ Dialects.standard.definition($0)?.namingSubprotocol }),
            Self.isToken(subprotocol)
        {
            request += "Sec-WebSocket-Protocol: \(subprotocol)\r\n"
            response += "Sec-WebSocket-Protocol: \(subprotocol)\r\n"
        }
        request += "\r\n"
        response += "\r\n"
        return tcp.data(Array(request.utf8), direction: .send).map { (.send, $0) }
            + tcp.data(Array(response.utf8), direction: .receive).map { (.receive, $0) }
    }

    /// One message as a single WebSocket frame (masked from the client).
    mutating func frame(_ message: WireMessage, opcode: WebSocketOpcode? = nil) -> [UInt8] {
        let opcode = opcode ?? (message.frameType == .text ? .text : .binary)
        var mask: UInt32? = nil
        if message.direction == .send {
            maskCounter = maskCounter &* 1_103_515_245 &+ 12_345
            mask = maskCounter
        }
        let header = WebSocketFrameHeader(
            fin: true, opcode: opcode, maskingKey: mask, payloadLength: message.payload.count)
        return WebSocketFrameEncoder.frame(header, payload: message.payload)
    }

    /// A close frame with its code and reason (masked from the client).
    mutating func closeFrame(code: Int, reason: String?, direction: Direction) -> [UInt8] {
        let payload =
            [UInt8(truncatingIfNeeded: code >> 8), UInt8(truncatingIfNeeded: code)] + Array((reason ?? "").utf8)
        return frame(WireMessage(direction: direction, frameType: .binary, payload: payload), opcode: .close)
    }

    /// `host` and `/path` of `scheme://host/path` (no Foundation URL parsing needed for this).
    private func parts(of url: String) -> (host: Substring, path: String)? {
        let characters = Array(url)
        guard
            let slashes = (0..<max(0, characters.count - 1)).first(where: {
                characters[$0] == "/" && characters[$0 + 1] == "/"
            })
        else {
            return nil
        }
        let rest = url.dropFirst(slashes + 2)
        let host = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(host.count)
        return (host, path.isEmpty ? "/" : String(path))
    }

    /// RFC 9110 §5.6.2: `token = 1*tchar`.
    static func isToken(_ value: String) -> Bool {
        !value.isEmpty
            && value.utf8.allSatisfy { byte in
                (0x21...0x7e).contains(byte) && !#"()<>@,;:\"/[]?={}"#.utf8.contains(byte)
            }
    }

    /// A URL part for the request line or Host: bytes outside visible ASCII percent-encoded.
    static func visible(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            if (0x21...0x7e).contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    private func path(of url: String) -> String? { parts(of: url)?.path }
    private func host(of url: String) -> String? { parts(of: url).map { String($0.host) } }
}
