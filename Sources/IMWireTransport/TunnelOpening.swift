import IMWireCore

/// The opening of a tunnel through an explicit proxy at the start of a client's connection (a
/// recording of the client's side of `imwire proxy --explicit`, mitmproxy's regular mode, or any
/// HTTP CONNECT or SOCKS5 proxy): an HTTP CONNECT request and its 2xx answer (RFC 9110 §9.3.6),
/// or SOCKS5's greeting, method choice, CONNECT request and success reply (RFC 1928). Once both
/// sides of it are whole, it is consumed, so that what runs in the tunnel (TLS, a WebSocket
/// upgrade, MQTT) is read from its first byte; anything else, and an opening the proxy refused,
/// is passed on as it came.
struct TunnelOpening {
    enum Kind: Equatable {
        case undecided
        case connect
        case socks5
        /// Decided: nothing more is held.
        case over
    }

    private(set) var kind = Kind.undecided
    private var client: [UInt8] = []
    private var server: [UInt8] = []
    /// The opening's bytes, both directions, once consumed.
    private(set) var consumed = 0

    /// An opening longer than this is no opening.
    static let maxHeld = 16 << 10
    private static let connect = Array("CONNECT ".utf8)

    var isOver: Bool { kind == .over }

    /// Holds `bytes` while the opening is not decided; then returns what passes on, in order:
    /// empty while held.
    mutating func feed(_ bytes: [UInt8], direction: Direction) -> [(Direction, [UInt8])] {
        if direction == .send { client += bytes } else { server += bytes }
        if kind == .undecided {
            if client.isEmpty { return server.isEmpty ? [] : release() }  // the server spoke first
            if client[0] == 5 {
                kind = .socks5
            } else if client.starts(with: Self.connect.prefix(client.count)) {
                guard client.count >= Self.connect.count else { return [] }
                kind = .connect
            } else {
                return release()
            }
        }
        if client.count + server.count > Self.maxHeld { return release() }
        return kind == .connect ? readConnect() : readSOCKS5()
    }

    /// The connection ended, or lost bytes: what is held passes on as it came.
    mutating func release() -> [(Direction, [UInt8])] {
        kind = .over
        var out: [(Direction, [UInt8])] = []
        if !client.isEmpty { out.append((.send, client)) }
        if !server.isEmpty { out.append((.receive, server)) }
        (client, server) = ([], [])
        return out
    }

    private mutating func readConnect() -> [(Direction, [UInt8])] {
        guard let request = Self.headLength(client) else { return [] }
        guard let response = Self.headLength(server) else { return [] }
        // `HTTP/1.x 2xx`: anything else is an HTTP exchange the HTTP reader reads as one.
        guard server.count >= 12, server.starts(with: Array("HTTP/1.".utf8)), server[9] == UInt8(ascii: "2") else {
            return release()
        }
        return open(client: request, server: response)
    }

    /// RFC 1928 §3-§6: a greeting (5, n, n methods), the method chosen (5, 0: no
    /// authentication), a request (5, 1 CONNECT, 0, an address, a port), a reply (5, 0 success,
    /// 0, an address, a port).
    private mutating func readSOCKS5() -> [(Direction, [UInt8])] {
        guard client.count >= 2 else { return [] }
        guard client[1] > 0 else { return release() }
        let greeting = 2 + Int(client[1])
        guard server.count >= 2 else { return [] }
        guard server[0] == 5, server[1] == 0 else { return release() }
        guard client.count >= greeting + 5, server.count >= 7 else { return [] }
        guard client[greeting] == 5, client[greeting + 1] == 1, server[2] == 5, server[3] == 0,
            let request = Self.socksEnd(client, from: greeting), let reply = Self.socksEnd(server, from: 2)
        else { return release() }
        guard client.count >= request, server.count >= reply else { return [] }
        return open(client: request, server: reply)
    }

    /// Both sides' openings are whole: consumed; what follows them passes on.
    private mutating func open(client clientEnd: Int, server serverEnd: Int) -> [(Direction, [UInt8])] {
        consumed = clientEnd + serverEnd
        client.removeFirst(clientEnd)
        server.removeFirst(serverEnd)
        return release()
    }

    /// The length of an HTTP head (through its blank line), once it is whole.
    private static func headLength(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// Where a SOCKS5 request or reply that starts at `start` ends, by its address type (at
    /// `start + 3`, the name's length after it); nil for an address type RFC 1928 has not.
    private static func socksEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        let address: Int
        switch bytes[start + 3] {
        case 1: address = 4
        case 3: address = 1 + Int(bytes[start + 4])
        case 4: address = 16
        default: return nil
        }
        return start + 4 + address + 2
    }
}
