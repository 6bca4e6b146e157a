import IMWireIO
import Testing

/// `imwire proxy` and `imwire serve` warn when other hosts can reach them (issue 37: servers
/// bind 127.0.0.1 unless told otherwise).
@Suite struct ListenAddressTests {
    @Test(arguments: [
        "127.0.0.1", "127.255.0.9", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "localhost", "LocalHost",
    ])
    func loopbackAddresses(_ host: String) {
        #expect(ListenAddress.isLoopback(host))
    }

    @Test(arguments: [
        "0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "128.0.0.1", "126.255.255.255", "::2", "::ffff:10.0.0.1",
        "fe80::1", "2001:db8::1",
        "example.com", "localhost.example.com", "", "[::1]", "127.0.0.1 ",
    ])
    func addressesOtherHostsReach(_ host: String) {
        #expect(!ListenAddress.isLoopback(host))
    }
}

/// `--listen` and `--upstream` values: `HOST:PORT`.
@Suite struct ListenAddressParseTests {
    @Test func hostAndPort() {
        #expect(ListenAddress.parse("127.0.0.1:8080").map { "\($0.host) \($0.port)" } == "127.0.0.1 8080")
        #expect(ListenAddress.parse("[::1]:0").map { "\($0.host) \($0.port)" } == "::1 0")
        #expect(ListenAddress.parse("example.com:65535").map { "\($0.host) \($0.port)" } == "example.com 65535")
        #expect(ListenAddress.parse(":443").map { "\($0.host) \($0.port)" } == " 443")
    }

    @Test(arguments: ["127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "host:-1", "host:http", ""])
    func notHostAndPort(_ text: String) {
        #expect(ListenAddress.parse(text) == nil)
    }

    @Test func ipv4IsFourOctets() {
        #expect(ListenAddress.isIPv4("127.0.0.1") && ListenAddress.isIPv4("0.0.0.0"))
        for host in ["::1", "localhost", "1.2.3", "1.2.3.256", "1.2.3.4.5", "1..3.4", ""] {
            #expect(!ListenAddress.isIPv4(host), "\(host)")
        }
    }
}
