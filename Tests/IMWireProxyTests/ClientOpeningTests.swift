import NIOCore
import NIOEmbedded
import Testing

@testable import IMWireProxy

/// What a `ClientOpening` on an embedded channel reported and wrote.
private final class Opened {
    var target: (host: String, port: Int)?
    var hello: String??
    var refused: String?
    let opening: ClientOpening
    let channel = EmbeddedChannel()

    init(explicit: Bool, sniffsTLS: Bool, deadline: TimeAmount = ClientOpening.defaultDeadline) throws {
        opening = ClientOpening(explicit: explicit, sniffsTLS: sniffsTLS, deadline: deadline)
        opening.onTarget = { [unowned self] in target = ($0, $1) }
        opening.onHello = { [unowned self] in hello = .some($0?.serverName) }
        opening.onRefused = { [unowned self] in refused = $0 }
        try channel.pipeline.syncOperations.addHandler(opening)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
    }

    func send(_ bytes: [UInt8]) throws { try channel.writeInbound(ByteBuffer(bytes: bytes)) }

    /// What the opening wrote back to the client.
    func answered() throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { bytes += Array(buffer.readableBytesView) }
        return bytes
    }

    /// What it passed on to the handlers after it.
    func passedOn() throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let buffer = try channel.readInbound(as: ByteBuffer.self) { bytes += Array(buffer.readableBytesView) }
        return bytes
    }
}

/// A ClientHello record for `name` (TLS 1.3 suite, server_name and ALPN extensions).
func clientHello(serverName name: String, alpn: [String] = ["http/1.1"]) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    let host = Array(name.utf8)
    let serverName = [0] + u16(host.count) + host
    let sni = u16(0) + u16(serverName.count + 2) + u16(serverName.count) + serverName
    let protocols = alpn.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
    let alpnExtension = u16(16) + u16(protocols.count + 2) + u16(protocols.count) + protocols
    let extensions = sni + alpnExtension
    let body =
        u16(0x0303) + [UInt8](repeating: 7, count: 32) + [0] + u16(2) + u16(0x1301) + [1, 0] + u16(extensions.count)
        + extensions
    let handshake = [1, 0] + u16(body.count) + body
    return [22, 3, 1] + u16(handshake.count) + handshake
}

@Suite struct ClientOpeningTests {
    /// RFC 9110 §9.3.6: the request is consumed, the tunnel's first bytes pass on after the answer.
    @Test func anHTTPConnectRequestIsAnsweredOnceTheServerIsTried() throws {
        let opened = try Opened(explicit: true, sniffsTLS: false)
        try opened.send(Array("CONNECT rtm.example.com:443 HTTP/1.1\r\nHost: rtm.example.com:443\r\n\r\nfirst".utf8))
        #expect(opened.target?.host == "rtm.example.com" && opened.target?.port == 443)
        #expect(try opened.answered().isEmpty)  // not before the server is tried
        opened.opening.answer(connected: true)
        #expect(String(decoding: try opened.answered(), as: UTF8.self) == "HTTP/1.1 200 Connection established\r\n\r\n")
        #expect(opened.hello == .some(nil))
        #expect(try opened.passedOn() == Array("first".utf8))
    }

    /// RFC 1928: the greeting is answered at once, the request after the server is tried.
    @Test func aSOCKS5ConnectToANameIsRefusedWhenTheServerIs() throws {
        let opened = try Opened(explicit: true, sniffsTLS: true)
        try opened.send([5, 2, 2, 0])
        #expect(try opened.answered() == [5, 0])
        try opened.send([5, 1, 0, 3, 9] + Array("localhost".utf8) + [0x1F, 0x90])
        #expect(opened.target?.host == "localhost" && opened.target?.port == 8080)
        opened.opening.answer(connected: false)
        #expect(try opened.answered() == [5, 5, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(!opened.channel.isActive)
        #expect(opened.hello == nil)
    }

    @Test func aSOCKS5ConnectToAnIPv4AddressThenItsClientHello() throws {
        let opened = try Opened(explicit: true, sniffsTLS: true)
        try opened.send([5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, 0x01, 0xBB])
        #expect(opened.target?.host == "127.0.0.1" && opened.target?.port == 443)
        opened.opening.answer(connected: true)
        #expect(try opened.answered() == [5, 0, 5, 0, 0, 1, 0, 0, 0, 0, 0, 0])
        let hello = clientHello(serverName: "api.example.com")
        // Split mid-record: it waits for the rest.
        try opened.send(Array(hello[..<20]))
        #expect(opened.hello == nil)
        try opened.send(Array(hello[20...]))
        #expect(opened.hello == .some("api.example.com"))
        #expect(try opened.passedOn() == hello)  // the whole ClientHello goes on to the TLS handler
    }

    @Test func bytesThatAreNotTLSPassThrough() throws {
        let opened = try Opened(explicit: false, sniffsTLS: true)
        try opened.send(Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(opened.hello == .some(nil))
        #expect(try opened.passedOn() == Array("GET / HTTP/1.1\r\n\r\n".utf8))
    }

    /// RFC 9112 §3.2.2: requests in absolute form reach the server in origin form, bodies as they
    /// are; a request for another server closes the connection.
    @Test func plainHTTPProxyRequestsReachTheServerInOriginForm() throws {
        let opened = try Opened(explicit: true, sniffsTLS: true)
        var switched: String?
        opened.opening.onOtherServer = { switched = $0 }
        let body = "GET http://b.example/ HTTP/1.1\r\n\r\n"
        try opened.send(
            Array(
                """
                POST http://A.example:8080/lbs?k=v HTTP/1.1\r\n\
                Host: a.example:8080\r\nContent-Length: \(body.utf8.count)\r\n\r\n
                """.utf8))
        #expect(opened.target?.host == "A.example" && opened.target?.port == 8080)
        opened.opening.answer(connected: true)
        #expect(try opened.answered().isEmpty)  // the server answers, not the proxy
        try opened.send(Array(body.utf8))
        try opened.send(
            Array("GET http://a.example:8080 HTTP/1.1\r\nHost: a.example:8080\r\n\r\nGET http://b.exa".utf8))
        #expect(
            String(decoding: try opened.passedOn(), as: UTF8.self)
                == "POST /lbs?k=v HTTP/1.1\r\nHost: a.example:8080\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                + "GET / HTTP/1.1\r\nHost: a.example:8080\r\n\r\n")
        #expect(switched == nil)
        try opened.send(Array("mple/ HTTP/1.1\r\nHost: b.example\r\n\r\n".utf8))
        #expect(switched == "a request for b.example:80 on its connection to A.example:8080")
        #expect(try opened.passedOn().isEmpty)
        #expect(!opened.channel.isActive)
    }

    @Test func absoluteFormTargets() {
        func parsed(_ target: Substring) -> String? {
            AbsoluteFormRequests.absoluteForm(target).map { "\($0.host) \($0.port) \($0.origin)" }
        }
        #expect(parsed("http://example.com") == "example.com 80 /")
        #expect(parsed("HTTP://example.com:81/a?b") == "example.com 81 /a?b")
        #expect(parsed("http://example.com?q") == "example.com 80 /?q")
        #expect(parsed("http://[::1]/x") == "::1 80 /x")
        #expect(parsed("http://[::1]:8080/x") == "::1 8080 /x")
        #expect(parsed("http://user@example.com/") == nil)
        #expect(parsed("http://example.com:http/") == nil)
        #expect(parsed("https://example.com/") == nil)
        #expect(parsed("/x") == nil)
    }

    @Test(arguments: [
        (Array("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n".utf8), Array("HTTP/1.1 501".utf8)),
        ([5, 1, 2], [5, 0xFF]),  // no method without authentication
        ([5, 1, 0, 5, 2, 0, 1, 127, 0, 0, 1, 0, 80], [5, 0, 5, 7]),  // BIND
    ])
    func whatExplicitModeDoesNotServeIsAnsweredAndClosed(request: [UInt8], answer: [UInt8]) throws {
        let opened = try Opened(explicit: true, sniffsTLS: false)
        try opened.send(request)
        #expect(try opened.answered().starts(with: answer))
        #expect(opened.refused != nil)
        #expect(opened.target == nil)
        #expect(!opened.channel.isActive)
    }

    /// Slowloris: a CONNECT head a byte at a time is cut off at the deadline, answered 408.
    @Test func aRequestNotWholeByTheDeadlineIsAnswered408AndClosed() throws {
        let opened = try Opened(explicit: true, sniffsTLS: false, deadline: .seconds(10))
        for byte in "CONNECT rtm.example.com:443 HTTP/1.1\r\n".utf8.prefix(9) {
            try opened.send([byte])
            opened.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        }
        #expect(opened.refused == nil && opened.channel.isActive)
        opened.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(String(decoding: try opened.answered(), as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(opened.refused == "no whole CONNECT request within 10 s (9 bytes of it)")
        #expect(opened.target == nil)
        #expect(!opened.channel.isActive)
    }

    /// The proxy's own dial is not the client's time; the ClientHello's clock starts at the answer.
    @Test func theDeadlineStopsWhileTheServerIsDialled() throws {
        let opened = try Opened(explicit: true, sniffsTLS: true, deadline: .seconds(10))
        try opened.send([5, 1, 0, 5, 1, 0, 1, 127, 0, 0, 1, 0x01, 0xBB])
        opened.channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        #expect(opened.refused == nil && opened.channel.isActive)
        opened.opening.answer(connected: true)
        let hello = clientHello(serverName: "api.example.com")
        try opened.send(Array(hello[..<20]))
        opened.channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        #expect(opened.refused == nil)
        opened.channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(opened.refused == "no whole ClientHello within 10 s (20 bytes of it)")
        #expect(opened.hello == nil)
        #expect(!opened.channel.isActive)
    }

    /// Not speaking first is not TLS: a silent client passes through at the deadline.
    @Test func aSilentClientPassesThroughWhereAClientHelloWasAwaited() throws {
        let opened = try Opened(explicit: false, sniffsTLS: true, deadline: .seconds(10))
        opened.channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(opened.hello == .some(nil))
        #expect(opened.refused == nil && opened.channel.isActive)
        try opened.send(Array("late".utf8))
        #expect(try opened.passedOn() == Array("late".utf8))
    }

    @Test func aRefusedRequestIsQuotedWithoutItsQuery() throws {
        let opened = try Opened(explicit: true, sniffsTLS: false)
        try opened.send(Array("GET https://lbs.example.com/lbs?token=s3cr3t HTTP/1.1\r\n\r\n".utf8))
        #expect(opened.refused?.hasPrefix("\"GET https://lbs.example.com/lbs…\": ") == true)
        #expect(opened.refused?.contains("s3cr3t") == false)
    }

    @Test func authorityForms() {
        #expect(ClientOpening.authority("example.com:443")! == ("example.com", 443))
        #expect(ClientOpening.authority("[::1]:8443")! == ("::1", 8443))
        #expect(ClientOpening.authority("example.com") == nil)
        #expect(ClientOpening.authority(":443") == nil)
        #expect(ClientOpening.authority("example.com:0") == nil)
    }
}
