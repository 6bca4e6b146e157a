import Crypto
import Foundation
import IMWireCore
import IMWireIO
import SwiftASN1
import X509

/// The certificate authority `imwire proxy --tls` signs its leaf certificates with: a
/// self-signed P-256 CA certificate and its key, made once (`imwire ca create`) and trusted by
/// the clients whose TLS the proxy terminates (a browser's or phone's trust store, Python's
/// `cafile`, Node's `NODE_EXTRA_CA_CERTS`). Each leaf names the host a client asked for (its
/// SNI) and is signed on the fly, as mitmproxy's and Proxyman's CAs do.
public struct CertificateAuthority: Sendable {
    /// The files of a CA directory: the certificate to trust, and its private key (mode 0600).
    public static let certificateFile = "imwire-ca.pem"
    public static let keyFile = "imwire-ca-key.pem"

    /// The CA certificate, PEM.
    public let certificatePEM: String
    let certificate: Certificate
    let key: Certificate.PrivateKey
    /// One key for every leaf: minting a leaf is then a signature, not a key generation.
    let leafKey = Certificate.PrivateKey(P256.Signing.PrivateKey())

    /// A new CA, valid from an hour before `now` for ten years.
    public static func create(commonName: String = "IMWire interception CA", now: Date = Date()) throws(IMWireError)
        -> Self
    {
        let signing = Certificate.PrivateKey(P256.Signing.PrivateKey())
        do {
            let name = try DistinguishedName {
                CommonName(commonName)
                OrganizationName("IMWire")
            }
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: signing.publicKey)
            }
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: signing.publicKey,
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(10 * 365 * 86400),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                issuerPrivateKey: signing)
            return Self(certificate: certificate, key: signing, pem: try certificate.serializeAsPEM().pemString)
        } catch {
            throw IMWireError(.proxyCertificate, "cannot create the CA certificate: \(error)")
        }
    }

    /// A CA from its PEM certificate and PEM (PKCS#8 or SEC 1) P-256 key.
    public init(certificatePEM: String, keyPEM: String) throws(IMWireError) {
        let certificate: Certificate
        let key: Certificate.PrivateKey
        do { certificate = try Certificate(pemEncoded: certificatePEM) } catch {
            throw IMWireError(.proxyCAInvalid, "the CA certificate is not a PEM certificate: \(error)")
        }
        do { key = try Certificate.PrivateKey(pemEncoded: keyPEM) } catch {
            throw IMWireError(.proxyCAInvalid, "the CA key is not a PEM private key: \(error)")
        }
        guard certificate.publicKey == key.publicKey else {
            throw IMWireError(.proxyCAInvalid, "the CA key does not belong to the CA certificate")
        }
        self.init(certificate: certificate, key: key, pem: certificatePEM)
    }

    private init(certificate: Certificate, key: Certificate.PrivateKey, pem: String) {
        self.certificate = certificate
        self.key = key
        certificatePEM = pem
    }

    /// The CA in `directory` (`certificateFile` and `keyFile`), as `write(to:)` left it.
    public static func load(from directory: String) throws(IMWireError) -> Self {
        func read(_ name: String) throws(IMWireError) -> String {
            let path = directory + "/" + name
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw IMWireError(.proxyCAMissing, "", summary: "cannot read", path: path)
            }
        }
        return try Self(certificatePEM: try read(certificateFile), keyPEM: try read(keyFile))
    }

    /// Writes the certificate and the key (readable by its owner only) into `directory`, made
    /// if missing; never over an existing CA, whose leaves clients may already trust.
    public func write(to directory: String) throws(IMWireError) {
        let files = FileManager.default
        let certificatePath = directory + "/" + Self.certificateFile
        let keyPath = directory + "/" + Self.keyFile
        for path in [certificatePath, keyPath] where files.fileExists(atPath: path) {
            throw IMWireError(
                .proxyCAExists, "a CA is already there (remove it first to make a new one)", summary: "\(path) exists")
        }
        do {
            let keyPEM = try key.serializeAsPEM().pemString
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Self.writePrivate(Array(keyPEM.utf8), to: keyPath)
            guard
                files.createFile(
                    atPath: certificatePath, contents: Data(certificatePEM.utf8), attributes: [.posixPermissions: 0o644]
                )
            else { throw IMWireError(.fileWrite, "cannot write into \(directory)") }
        } catch let error as IMWireError {
            throw error
        } catch {
            throw IMWireError(.fileWrite, "\(error)", summary: "cannot create", path: directory)
        }
    }

    /// Creates `path` with mode 0600 from the start (FileManager writes a temporary file with the
    /// umask's mode and changes it after the rename, when it can), never over an existing file or
    /// through a symbolic link.
    private static func writePrivate(_ bytes: [UInt8], to path: String) throws(IMWireError) {
        let descriptor = OwnerOnlyFile.openDescriptor(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw IMWireError.cannotWrite(path, String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written)
            }
            guard count > 0 else { throw IMWireError.cannotWrite(path, String(cString: strerror(errno))) }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            throw IMWireError.cannotWrite(path, String(cString: strerror(errno)))
        }
    }

    /// A leaf certificate for `host` (a DNS name, or an IPv4/IPv6 literal), signed by this CA,
    /// valid from an hour before `now` for 30 days, and its key: both PEM.
    public func leaf(for host: String, now: Date = Date()) throws(IMWireError) -> (
        certificatePEM: String, keyPEM: String
    ) {
        let signing = key
        let leafPublic = leafKey.publicKey
        do {
            let name = try DistinguishedName { CommonName(String(host.prefix(64))) }
            let alternative: GeneralName =
                Self.ipAddressBytes(host).map { .ipAddress(ASN1OctetString(contentBytes: $0[...])) } ?? .dnsName(host)
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([alternative])
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: signing.publicKey).keyIdentifier)
            }
            let leaf = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: leafPublic,
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(30 * 86400),
                issuer: certificate.subject, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: extensions,
                issuerPrivateKey: signing)
            return (try leaf.serializeAsPEM().pemString, try leafKey.serializeAsPEM().pemString)
        } catch {
            throw IMWireError(.proxyCertificate, "cannot sign a certificate for \(host): \(error)")
        }
    }

    /// The address bytes of an IPv4 or IPv6 literal, nil for a name.
    static func ipAddressBytes(_ host: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }
}

extension IMWireError.Code {
    /// A CA directory without the CA's certificate or key (`path`: the file missing).
    public static let proxyCAMissing = Self("proxy.ca-missing")
    /// A CA directory that holds a CA already: `write(to:)` never replaces one.
    public static let proxyCAExists = Self("proxy.ca-exists")
    /// A CA whose certificate or key is not PEM, or whose key is not the certificate's.
    public static let proxyCAInvalid = Self("proxy.ca-invalid")
    /// A certificate that cannot be made or signed (the CA's, a leaf's).
    public static let proxyCertificate = Self("proxy.certificate")
    /// A TLS context that cannot be made, or an upstream CA file that cannot be read.
    public static let proxyTLSContext = Self("proxy.tls-context")
}
