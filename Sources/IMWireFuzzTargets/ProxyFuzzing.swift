import IMWireProxy
import NIOCore
import NIOEmbedded

enum ProxyFuzzing {
    /// The first bytes of a client of `imwire proxy --explicit` (an HTTP CONNECT, a plain-HTTP
    /// request in absolute form and the requests after it, SOCKS5, then a ClientHello), read by
    /// `ClientOpening` on an EmbeddedChannel, fed whole or in chunks (the variant), with TLS
    /// sniffed or not (flag bit 4) and the server found or not (bit 5).
    ///
    /// Invariants: never traps; at most one server is asked for, with a host and a port in
    /// 1...65535, and nothing is passed on before it is answered; at most one ClientHello is
    /// reported; a refused opening closes the connection; nothing holds the channel once the
    /// input is done (a cycle left 3.6 KB an input behind, and ran the target out of memory).
    static func opening(_ input: FuzzInput) -> [String] {
        weak var channel: EmbeddedChannel?
        var violations = opening(input) { channel = $0 }
        if channel != nil { violations.append("the channel outlived its input") }
        return violations
    }

    private static func opening(_ input: FuzzInput, made: (EmbeddedChannel) -> Void) -> [String] {
        let sniffsTLS = input.flags & 0x10 != 0
        let reachable = input.flags & 0x20 == 0
        let channel = EmbeddedChannel()
        made(channel)
        let opening = ClientOpening(explicit: true, sniffsTLS: sniffsTLS)
        var targets: [(String, Int)] = []
        var hellos = 0
        var refused = false
        var answered = false
        var violations: [String] = []
        opening.onTarget = { targets.append(($0, $1)) }
        opening.onHello = { _ in hellos += 1 }
        opening.onRefused = { _ in refused = true }
        guard (try? channel.pipeline.syncOperations.addHandler(opening)) != nil,
            let address = try? SocketAddress(ipAddress: "127.0.0.1", port: 9),
            (try? channel.connect(to: address).wait()) != nil
        else { return ["the embedded channel did not connect"] }
        let chunk = [input.payload.count, 1, 7, 64][input.variant]
        var offset = 0
        while offset < input.payload.count, channel.isActive {
            let end = min(input.payload.count, offset + max(1, chunk))
            _ = try? channel.writeInbound(ByteBuffer(bytes: input.payload[offset..<end]))
            offset = end
            if !answered, !targets.isEmpty {
                if (try? channel.readInbound(as: ByteBuffer.self)) != nil {
                    violations.append("bytes passed on before the answer")
                }
                answered = true
                opening.answer(connected: reachable)
            }
            while (try? channel.readInbound(as: ByteBuffer.self)) != nil {}
            while (try? channel.readOutbound(as: ByteBuffer.self)) != nil {}
        }
        if targets.count > 1 { violations.append("\(targets.count) servers asked for") }
        for (host, port) in targets where host.isEmpty || !(1...65_535).contains(port) {
            violations.append("a server \(host):\(port)")
        }
        if hellos > 1 { violations.append("\(hellos) ClientHellos") }
        if refused, channel.isActive { violations.append("refused, and the connection still open") }
        // A refused opening has closed the channel: finish() would throw before it runs the
        // loop's last tasks, and those hold the channel.
        _ = try? channel.finish(acceptAlreadyClosed: true)
        return violations
    }
}
