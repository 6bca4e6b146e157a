import IMWireCore
import IMWireIO
import IMWireTLS

/// Key-log files (NSS format, what `SSLKEYLOGFILE` writes) read into one `TLSKeyLog`, in the order
/// given: what `--tls-keylog` hands the checker, `convert`, `show`, `shard` and the proxy.
public enum KeyLogFiles {
    /// Key logs past this size are refused rather than read whole (a line is about 180 bytes: a
    /// million connections' secrets fit).
    public static let maxBytes = 1 << 30

    /// Reads and parses every file; throws naming the file that cannot be read (`fileRead`), or
    /// the file and line that does not parse (`tlsKeyLog`).
    public static func load(_ paths: [String]) throws(IMWireError) -> TLSKeyLog {
        try read(paths).log
    }

    /// The key-log text of `paths`, joined, for writing into a capture as a pcapng Decryption
    /// Secrets Block (`imwire shard`): checked to parse first.
    public static func text(_ paths: [String]) throws(IMWireError) -> [UInt8] {
        try read(paths).text
    }

    /// Each file read once: parsed into one log, and its text kept (newline-terminated).
    private static func read(_ paths: [String]) throws(IMWireError) -> (log: TLSKeyLog, text: [UInt8]) {
        var log = TLSKeyLog()
        var text: [UInt8] = []
        for path in paths {
            let bytes: [UInt8]
            do { bytes = try FileByteSource.readAll(path: path, limit: maxBytes) } catch {
                throw IMWireError(error.code, error.reason, summary: "key log cannot read", path: path)
            }
            do { try log.add(parsing: String(decoding: bytes, as: UTF8.self)) } catch {
                throw IMWireError(error.code, error.description, path: path)
            }
            text += bytes
            if text.last != 0x0a { text.append(0x0a) }
        }
        return (log, text)
    }
}
