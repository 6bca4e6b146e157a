import ArgumentParser
import IMWire

/// `--tls-keylog FILE` (repeatable), shared by check, show, convert and shard.
struct TLSKeyLogOption: ParsableArguments {
    @Option(
        name: .customLong("tls-keylog"),
        help: ArgumentHelp(
            """
            An NSS key log (SSLKEYLOGFILE) to decrypt TLS connections with \
            (repeatable); a pcapng's Decryption Secrets Blocks are read as well.
            """,
            valueName: "FILE"))
    var files: [String] = []

    /// The key logs read; a missing, unreadable or malformed one exits 2 naming it.
    func keyLog() throws -> TLSKeyLog {
        do { return try KeyLogFiles.load(files) } catch { throw unreadable(error.description) }
    }
}
