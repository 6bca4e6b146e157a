import Foundation
import IMWire
import IMWireProxy

/// A `ProxyServer` on 127.0.0.1 (any free port) that one client, a plain socket, sends `bytes`
/// to and reads from until the proxy closes it (at most 10 s); then the proxy stops and the live
/// check's capture findings come back (what `imwire proxy` reports of its own).
func proxyRun(upstream: ProxyConfiguration.Upstream, tls: ProxyTLSConfiguration? = nil, send bytes: [UInt8]) throws
    -> [Finding]
{
    let live = try LiveCheck(options: CheckOptions(), now: { 1_000 })
    let proxy = ProxyServer(
        configuration: ProxyConfiguration(
            listenHost: "127.0.0.1", listenPort: 0, upstream: upstream, tls: tls, maxConnections: 1), live: live)
    let port = try proxy.start()
    defer { proxy.stop() }
    let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(client) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { throw IMWireError(.fileRead, "cannot connect to the proxy on port \(port)") }
    _ = bytes.withUnsafeBytes { Foundation.send(client, $0.baseAddress, $0.count, 0) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    while recv(client, &buffer, buffer.count, 0) > 0 {}
    proxy.wait()
    return try live.finish(source: "proxy").captureFindings
}

/// A ClientHello offering only TLS_NULL_WITH_NULL_NULL (0x0000): no server shares it.
let clientHelloWithoutSharedSuite: [UInt8] = {
    let body: [UInt8] = [3, 3] + [UInt8](repeating: 7, count: 32) + [0, 0, 2, 0, 0, 1, 0]
    let handshake: [UInt8] = [1, 0, 0, UInt8(body.count)] + body
    return [22, 3, 1, 0, UInt8(handshake.count)] + handshake
}()

/// A TCP socket listening on 127.0.0.1 (the kernel accepts connections to it), and its port.
func listeningSocket() throws -> (Int32, Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else {
        close(fd)
        throw IMWireError(.fileWrite, "cannot listen on 127.0.0.1")
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
