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
