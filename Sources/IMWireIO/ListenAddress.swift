#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The address a server listens on (`imwire proxy --listen`, `imwire serve --listen`): whether
/// only this host can reach it. The commands warn otherwise, since what they forward, record or
/// serve carries logins' credentials.
package enum ListenAddress {
    /// Whether `host` (an IPv4 or IPv6 literal without brackets, or a name) is a loopback address:
    /// 127.0.0.0/8, `::1`, an IPv4-mapped 127.x.y.z, or `localhost`. The wildcards (`0.0.0.0`,
    /// `::`), every other address and every other name (it may resolve to any address) are not.
    package static func isLoopback(_ host: String) -> Bool {
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return bytes.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]) && bytes[12] == 127
    }

    /// `HOST:PORT` (an IPv6 host in brackets, `[::1]:8080`) as the host without brackets and a
    /// port of 0...65535; nil for anything else.
    package static func parse(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }

    /// Whether `host` is an IPv4 address in four dotted decimal octets (`imwire serve` knows
    /// its clients by their IPv4 addresses).
    package static func isIPv4(_ host: String) -> Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { UInt8($0) != nil }
    }
}
