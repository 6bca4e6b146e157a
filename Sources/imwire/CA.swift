import ArgumentParser
import IMWireProxy

struct CA: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "The certificate authority `imwire proxy --tls` signs its leaf certificates with.",
        subcommands: [Create.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a CA: a self-signed P-256 certificate and its key, valid ten years.",
            discussion: """
                Writes DIR/\(CertificateAuthority.certificateFile) (the certificate: install it in the trust \
                store of the clients whose TLS the proxy terminates, e.g. Python's cafile, Node's \
                NODE_EXTRA_CA_CERTS, a phone's user certificates) and DIR/\(CertificateAuthority.keyFile) \
                (its private key, mode 0600: anyone with it can impersonate any server to those clients). \
                DIR is made if missing; an existing CA is never overwritten. Exit status: 0 written, 2 \
                DIR cannot be written or already holds a CA.
                """)

        @Option(help: ArgumentHelp("The directory to write the CA into.", valueName: "DIR"))
        var out: String

        @Option(help: "The CA certificate's common name.")
        var name = "IMWire interception CA"

        func run() throws {
            do {
                let authority = try CertificateAuthority.create(commonName: name)
                try authority.write(to: out)
            } catch {
                throw unreadable(error.description)
            }
            print(
                """
                imwire ca: wrote \(out)/\(CertificateAuthority.certificateFile) \
                and \(out)/\(CertificateAuthority.keyFile)
                """)
        }
    }
}
