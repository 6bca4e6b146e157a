import ArgumentParser
import Foundation
import IMWire

struct Shard: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: """
            Cut pcap/pcapng captures (and JSONL transcripts) into shards \
            that keep every connection and every client's connections whole.
            """,
        discussion: """
            A client is its address on the side of a TCP connection with the higher (ephemeral) \
            port: every connection of one client address, with any server, goes to one shard, so \
            a TCP connection, a client's reconnects and the TCP connections of a socket.io session \
            are never cut. Each shard is pcapng whose packets keep their number and byte offsets \
            in the original capture (Spec/shards.md): `imwire check --format json` of each shard, \
            then `imwire merge` of those reports, gives the report of checking the whole capture. \
            Writes DIR/<capture>.shard-<n>.pcapng (.jsonl for a transcript) and appends one JSON line per shard to \
            DIR/manifest.jsonl (path, capture, index, count, packets, connections, clients, bytes, \
            firstTime, lastTime). Two streaming passes over each capture (the first notes each packet's place in a \
            scratch file, 4 bytes a packet, in $TMPDIR or /tmp); memory \
            grows with the number of client addresses and socket.io sids only (with several captures, also one \
            entry per TCP connection: a connection the previous file leaves open and the next goes \
            on with is reported, as each file is checked on its own). Two captures with the same \
            file name cannot share a directory (their shards would have the same names).

            A JSONL transcript is cut into JSONL shards the same way, a `conn` for a client \
            (connections naming one socket.io sid together); its lines keep their numbers. A HAR \
            file is one JSON document read whole (at most 64 MiB): check it whole.

            Exit status: 0 written, 2 an unreadable capture, a HAR file or standard input, or an \
            unwritable directory.
            """)

    @Argument(help: "The captures (.pcap, .pcapng, .jsonl); each is sharded on its own.")
    var captures: [String]

    @Option(help: "The directory for the shards and manifest.jsonl (made if missing).")
    var out: String

    @Option(
        help: """
            Shard size aimed at, in MiB (a fraction is allowed; one \
            client's traffic is never cut, so a shard can be larger).
            """)
    var maxMegabytes: Double = 256

    @Option(
        help: """
            Threads: up to this many captures are sharded at once, and each \
            capture's shards are written on its share of them (the shards are the same for any value).
            """)
    var jobs: Int = 1

    @OptionGroup(
        title: "TLS (each shard gets the key logs as a pcapng Decryption Secrets Block, so it is checked on its own)")
    var tls: TLSKeyLogOption

    func validate() throws {
        guard maxMegabytes > 0, maxMegabytes <= 1_048_576 else {
            throw ValidationError("--max-megabytes must be above 0 and at most 1048576 (1 TiB)")
        }
        guard (1...256).contains(jobs) else { throw ValidationError("--jobs must be 1 to 256") }
        guard !captures.isEmpty else { throw ValidationError("name at least one capture") }
        let names = captures.map { ($0 as NSString).lastPathComponent }
        guard Set(names).count == names.count else {
            throw ValidationError(
                """
                two captures have the same file name, so their shards would \
                overwrite each other: shard them into different directories
                """)
        }
    }

    func run() throws {
        do { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) } catch {
            throw unreadable("\(out): \(error.localizedDescription)")
        }
        var options = CaptureSharder.Options(maxBytes: Int(maxMegabytes * 1_048_576), jobs: jobs)
        if !tls.files.isEmpty {
            do { options.keyLog = try KeyLogFiles.text(tls.files) } catch { throw unreadable(error.description) }
        }
        let lines: [String]
        do {
            lines = try CaptureSharder.shard(paths: captures, into: out, options: options) {
                print("imwire: warning: \($0)", to: &standardError)
            }
        } catch {
            throw unreadable(error.description)
        }
        let manifest = (out.hasSuffix("/") ? out : out + "/") + "manifest.jsonl"
        guard let handle = FileHandle(forWritingAtPath: manifest) ?? createFile(manifest) else {
            throw unreadable("\(manifest): cannot write")
        }
        handle.seekToEndOfFile()
        handle.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        handle.closeFile()
        for line in lines { print(line) }
    }

    private func createFile(_ path: String) -> FileHandle? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }
}
