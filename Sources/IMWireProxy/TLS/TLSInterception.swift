import Foundation
import IMWireCore
import IMWireIO
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// How `imwire proxy --tls` terminates the clients' TLS and opens its own to the server.
public struct ProxyTLSConfiguration: Sendable {
    /// How the upstream's certificate is checked.
    public enum UpstreamTrust: Sendable, Hashable {
        /// The system trust store, with the host name checked.
        case system
        /// The CA certificates of this PEM file only, with the host name checked.
        case file(String)
        /// Not checked at all (a test server's self-signed certificate): say so to use it.
        case insecure
    }

    /// Signs the leaf certificate shown to each client, for the name it asks for.
    public var authority: CertificateAuthority
    public var upstreamTrust: UpstreamTrust
    /// Where both legs' TLS secrets are written, one NSS key-log line each, as they are made:
    /// a recording of the wire is then decryptable by tshark and `imwire check --tls-keylog`.
    public var keyLogOut: String?

    public init(authority: CertificateAuthority, upstreamTrust: UpstreamTrust = .system, keyLogOut: String? = nil) {
        self.authority = authority
        self.upstreamTrust = upstreamTrust
        self.keyLogOut = keyLogOut
    }
}

/// The TLS contexts of a running proxy: a server context per name and ALPN list, with a leaf
/// certificate minted for that name; a client context per ALPN list. Made once, then shared by
/// every connection (a context takes milliseconds to make, a handler from it microseconds).
final class TLSInterception: Sendable {
    let configuration: ProxyTLSConfiguration
    private let contexts = NIOLockedValueBox<(server: [String: NIOSSLContext], client: [[String]: NIOSSLContext])>(
        ([:], [:]))
    private let keyLog: KeyLogWriter?

    init(_ configuration: ProxyTLSConfiguration) throws(IMWireError) {
        self.configuration = configuration
        keyLog = try configuration.keyLogOut.map { path throws(IMWireError) in try KeyLogWriter(path: path) }
        // A trust file that cannot be read is an error now, not at the first connection.
        _ = try clientContext(alpn: [])
    }

    /// The protocols both legs offer, of those the client offered: HTTP/2 is left out (the
    /// check reads HTTP/1.1 and the protocols on it), so a browser falls back to HTTP/1.1.
    static func protocols(offered: [String]) -> [String] {
        offered.filter { $0 != "h2" }
    }

    /// The context that shows the client a leaf certificate for `host`.
    func serverContext(host: String, alpn: [String]) throws(IMWireError) -> NIOSSLContext {
        let key = host + "\u{0}" + alpn.joined(separator: ",")
        if let context = contexts.withLockedValue({ $0.server[key] }) { return context }
        let leaf = try configuration.authority.leaf(for: host)
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(
                Array((leaf.certificatePEM + "\n" + configuration.authority.certificatePEM + "\n").utf8))
            var tls = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(leaf.keyPEM.utf8), format: .pem)))
            tls.applicationProtocols = alpn
            tls.keyLogCallback = keyLog?.callback
            let context = try NIOSSLContext(configuration: tls)
            contexts.withLockedValue { $0.server[key] = context }
            return context
        } catch {
            throw IMWireError(.proxyTLSContext, "cannot make the TLS server context for \(host): \(error)")
        }
    }

    /// The context the proxy opens TLS to the upstream with.
    func clientContext(alpn: [String]) throws(IMWireError) -> NIOSSLContext {
        if let context = contexts.withLockedValue({ $0.client[alpn] }) { return context }
        var tls = TLSConfiguration.makeClientConfiguration()
        switch configuration.upstreamTrust {
        case .system: break
        case .file(let path):
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw IMWireError(.proxyTLSContext, "cannot read the upstream CA file \(path)")
            }
            tls.trustRoots = .file(path)
        case .insecure: tls.certificateVerification = .none
        }
        tls.applicationProtocols = alpn
        tls.keyLogCallback = keyLog?.callback
        do {
            let context = try NIOSSLContext(configuration: tls)
            contexts.withLockedValue { $0.client[alpn] = context }
            return context
        } catch {
            throw IMWireError(.proxyTLSContext, "cannot make the upstream TLS context: \(error)")
        }
    }
}

/// Appends NSS key-log lines to a file, one `write` each (whole lines, in the order made, from
/// any thread), so that a reader of the file never sees half a line.
final class KeyLogWriter: Sendable {
    private let descriptor: Int32

    init(path: String) throws(IMWireError) {
        // 0600 whether it is new or not (the mode of open(2) is only a new file's), and never
        // through a symbolic link: these lines decrypt every proxied connection.
        descriptor = OwnerOnlyFile.openDescriptor(
            path, flags: O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            throw IMWireError(.fileWrite, "cannot write \(path) (mode 0600): \(String(cString: strerror(errno)))")
        }
        let header = Array("# TLS secrets of imwire proxy --tls (NSS key log format)\n".utf8)
        _ = header.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
    }

    deinit {
        close(descriptor)
    }

    var callback: NIOSSLKeyLogCallback {
        { [self] line in
            var bytes = Array(line.readableBytesView)
            if bytes.last != 10 { bytes.append(10) }
            _ = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        }
    }
}
