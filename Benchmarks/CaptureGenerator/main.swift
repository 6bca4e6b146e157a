import IMWire

// Writes a pcapng of LeanCloud traffic over WebSocket for the capture benchmark: connections
// one after another, each a TCP handshake, the HTTP upgrade (lc.protobuf2.3, permessage-deflate
// on every other connection), a session (open, then direct messages with acks and pushes with
// client acks), and FINs. Usage: CaptureGenerator OUT.pcapng MEGABYTES
let arguments = CommandLine.arguments
guard arguments.count == 3, let megabytes = Int(arguments[2]) else {
    print("usage: CaptureGenerator OUT.pcapng MEGABYTES")
    exit(2)
}
let target = megabytes << 20
let file = fopen(arguments[1], "wb")
guard let file else {
    print("cannot write \(arguments[1])")
    exit(2)
}

func command(_ json: String) -> [UInt8] {
    LeanCloudBinary.encode((try? LeanCloudCanonicalJSON.decode(JSONParser.parse(json))) ?? LCGenericCommand())
}

var written = 0
var connectionIndex = 0
var time: Int64 = 1_700_000_000_000_000
while written < target {
    connectionIndex += 1
    let compressed = connectionIndex % 2 == 0
    var writer = PcapngWriter()
    if connectionIndex > 1 { writer = PcapngWriter.continuation() }
    var tcp = TCPSynthesizer(index: connectionIndex)
    func emit(_ packets: [(Direction, [UInt8])]) {
        for (direction, packet) in packets {
            time += 200
            writer.packet(packet, linkType: TCPSynthesizer.linkType, time: time, inbound: direction == .receive)
        }
    }
    func send(_ bytes: [UInt8], _ direction: Direction) {
        emit(tcp.data(bytes, direction: direction).map { (direction, $0) })
    }
    emit(tcp.open())
    let key = "dGhlIHNhbXBsZSBub25jZQ=="
    let deflate = compressed ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : ""
    send(
        Array(
            ("""
            GET / HTTP/1.1\r\nHost: rtm.example\r\nUpgrade: websocket\r\n\
            Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\
            Sec-WebSocket-Protocol: lc.protobuf2.3\r\n\(deflate)\r\n
            """).utf8), .send)
    send(
        Array(
            ("""
            HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
            Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(forKey: key))\r\n\
            Sec-WebSocket-Protocol: lc.protobuf2.3\r\n\(deflate)\r\n
            """).utf8), .receive)
    let parameters = compressed ? PerMessageDeflateParameters() : nil
    var mask: UInt32 = UInt32(truncatingIfNeeded: connectionIndex) &* 2_654_435_761
    guard
        let client = try? WebSocketMessageEncoder(
            direction: .send, permessageDeflate: parameters,
            maskingKey: {
                mask = mask &* 1_103_515_245 &+ 12_345
                return mask
            }),
        let server = try? WebSocketMessageEncoder(direction: .receive, permessageDeflate: parameters)
    else { exit(3) }
    func message(_ json: String, _ direction: Direction) {
        let encoder = direction == .send ? client : server
        guard let frames = try? encoder.message(.binary, command(json)) else { exit(4) }
        send(frames, direction)
    }
    let peer = "user\(connectionIndex)"
    message(
        #"""
        {"cmd":"session","op":"open","appId":"bench","peerId":"\#(peer)",\#
        "i":1,"sessionMessage":{"ua":"bench/1","configBitmap":"187"}}
        """#, .send)
    message(
        #"{"cmd":"session","op":"opened","peerId":"\#(peer)","i":1,"sessionMessage":{"st":"TOKEN","stTtl":172800}}"#,
        .receive)
    for n in 0..<200 {
        let text = "message \(n) from \(peer): " + String(repeating: "lorem ipsum dolor sit amet ", count: 1 + n % 12)
        let i = n + 2
        message(
            #"""
            {"cmd":"direct","peerId":"\#(peer)","i":\#(i),"directMessage":{"cid":"C\#(connectionIndex)",\#
            "msg":"{\"_lctype\":-1,\"_lctext\":\"\#(text)\"}"}}
            """#,
            .send)
        message(
            #"{"cmd":"ack","peerId":"\#(peer)","i":\#(i),"ackMessage":{"uid":"M\#(n)","t":"1700000000000"}}"#, .receive)
        if n % 4 == 0 {
            message(
                #"""
                {"cmd":"direct","peerId":"\#(peer)","directMessage":{"id":"P\#(n)","cid":"C\#(connectionIndex)",\#
                "fromPeerId":"bob","timestamp":"1700000000000","msg":"{\"_lctype\":-1,\"_lctext\":\"\#(text)\"}"}}
                """#,
                .receive)
            message(
                #"{"cmd":"ack","peerId":"\#(peer)","ackMessage":{"cid":"C\#(connectionIndex)","mid":"P\#(n)"}}"#, .send)
        }
    }
    emit(tcp.close())
    let bytes = writer.bytes
    bytes.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
    written += bytes.count
}
fclose(file)
print(
    """
    wrote \(arguments[1]): \(written >> 20) MiB, \(connectionIndex) \
    connections (every other one with permessage-deflate)
    """)

#if canImport(Glibc)
    import Glibc
#endif
