import Foundation
import IMWireCore
import Testing
import X509

@testable import IMWireProxy

@Suite struct CertificateAuthorityTests {
    /// A leaf names the host, chains to the CA (its signature verifies with the CA's key), and
    /// is a server certificate only; the CA survives writing and loading.
    @Test(arguments: ["rtm.example.com", "127.0.0.1", "::1"])
    func aLeafForAHostIsSignedByTheCA(host: String) throws {
        let authority = try CertificateAuthority.create()
        let directory = NSTemporaryDirectory() + "imwire-ca-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try authority.write(to: directory)
        let loaded = try CertificateAuthority.load(from: directory)
        #expect(loaded.certificatePEM == authority.certificatePEM)
        #expect {  // never over a CA
            try authority.write(to: directory)
        } throws: { ($0 as? IMWireError)?.code == .proxyCAExists }

        let ca = try Certificate(pemEncoded: loaded.certificatePEM)
        let pem = try loaded.leaf(for: host)
        let leaf = try Certificate(pemEncoded: pem.certificatePEM)
        #expect(leaf.issuer == ca.subject)
        #expect(ca.publicKey.isValidSignature(leaf.signature, for: leaf))
        let names = try #require(try leaf.extensions.subjectAlternativeNames)
        if host.contains(".") && host.first!.isLetter {
            #expect(Array(names) == [.dnsName(host)])
        } else {
            #expect(names.count == 1)
            guard case .ipAddress = names.first else {
                Issue.record("no IP address SAN: \(names)")
                return
            }
        }
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        #expect(try leaf.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
        #expect(try ca.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        let key = try Certificate.PrivateKey(pemEncoded: pem.keyPEM)
        #expect(key.publicKey == leaf.publicKey)
    }

    /// The CA key and the key log decrypt what the proxy sees: only their owner reads them, and
    /// a key log written over an older, readable file takes the mode too.
    @Test func theCAKeyAndTheKeyLogAreWrittenPrivate() throws {
        let directory = NSTemporaryDirectory() + "imwire-ca-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try CertificateAuthority.create().write(to: directory)
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode(directory + "/" + CertificateAuthority.keyFile) == 0o600)
        #expect(try mode(directory + "/" + CertificateAuthority.certificateFile) == 0o644)

        let keyLog = directory + "/keys.log"
        #expect(
            FileManager.default.createFile(
                atPath: keyLog, contents: Data("old\n".utf8), attributes: [.posixPermissions: 0o644]))
        _ = try KeyLogWriter(path: keyLog)
        #expect(try mode(keyLog) == 0o600)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.log", withDestinationPath: keyLog)
        #expect {
            try KeyLogWriter(path: directory + "/link.log")
        } throws: { ($0 as? IMWireError)?.code == .fileWrite }
    }

    @Test func aKeyOfAnotherCAIsRefused() throws {
        let one = try CertificateAuthority.create()
        let other = try CertificateAuthority.create()
        let directory = NSTemporaryDirectory() + "imwire-ca-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try other.write(to: directory)
        let otherKey = try String(contentsOfFile: directory + "/" + CertificateAuthority.keyFile, encoding: .utf8)
        #expect(throws: IMWireError(.proxyCAInvalid, "the CA key does not belong to the CA certificate")) {
            try CertificateAuthority(certificatePEM: one.certificatePEM, keyPEM: otherKey)
        }
        let missing = directory + "/missing/" + CertificateAuthority.certificateFile
        let error = #expect(throws: IMWireError.self) { try CertificateAuthority.load(from: directory + "/missing") }
        #expect(error?.code == .proxyCAMissing && error?.path == missing)
        #expect(error?.description == "cannot read \(missing)")
    }
}
