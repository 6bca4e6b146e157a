import Testing

@testable import IMWireFuzzTargets

/// The ProxyOpening target on what clients of `imwire proxy --explicit` send first, as
/// `Fuzz/seeds.py` gives them: whole and in chunks, TLS sniffed or not, the server found or not.
@Suite struct ProxyOpeningTargetTests {
    static let openings: [String] = [
        "CONNECT rtm.example.com:443 HTTP/1.1\r\nHost: rtm.example.com:443\r\n\r\nfirst bytes",
        """
        GET http://lbs.example.com/lbs?k=v HTTP/1.1\r\nHost: lbs.example.com\r\n\
        \r\nPOST http://lbs.example.com/x HTTP/1.1\r\nContent-Length: 4\r\n\r\n\
        bodyGET http://other.example:81/ HTTP/1.1\r\n\r\n
        """,
        "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
        "CONNECT nowhere HTTP/1.1\r\n\r\n",
    ]

    @Test(arguments: [0x00, 0x04, 0x08, 0x0C, 0x10, 0x20, 0x30] as [UInt8])
    func clientsOpeningsKeepTheInvariants(flags: UInt8) {
        for opening in Self.openings {
            #expect(FuzzTarget.proxyOpening.run([0, flags] + Array(opening.utf8)).isEmpty, "\(opening)")
        }
        let socks: [UInt8] = [5, 1, 0, 5, 1, 0, 3, 9] + Array("localhost".utf8) + [0x1F, 0x90]
        #expect(FuzzTarget.proxyOpening.run([0, flags] + socks).isEmpty)
    }
}
