import Foundation
import IMWireIO
import Testing

@testable import IMWireCapture

/// Files that hold secrets are made mode 0600 whatever the umask (issue 37: a shard of
/// `imwire shard --tls-keylog` carries the whole key log, a `--record` file every login); other
/// outputs keep the umask's mode.
@Suite struct PrivateFileTests {
    /// The mode a new file gets from this process's umask (read from /proc, not set: tests run
    /// in parallel).
    static func umaskMode() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let umask = try #require(Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
        return 0o666 & ~umask
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "imwire-private-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func anOwnerOnlyFileIsMode0600NewOrOverAnOlderOne() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Self.umaskMode() != 0o600, "the umask hides the difference")
        for name in ["new.pcapng", "old.pcapng"] {
            let path = directory + "/" + name
            if name == "old.pcapng" {
                #expect(
                    FileManager.default.createFile(
                        atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
            }
            let file = try OutputFile(path: path, ownerOnly: true)
            file.write(Array("secret".utf8))
            try file.close()
            #expect(try Self.mode(path) == 0o600, "\(name)")
            #expect(FileManager.default.contents(atPath: path) == Data("secret".utf8))
            try TextFile.write("plain", to: path)
            #expect(try Self.mode(path) == Self.umaskMode(), "\(name)")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["new.pcapng", "old.pcapng"])
    }

    /// A regular file behind a symbolic link is written in place, and made 0600 too.
    @Test func aFileBehindALinkIsMadeOwnerOnly() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let target = directory + "/target.pcapng"
        #expect(
            FileManager.default.createFile(
                atPath: target, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.pcapng", withDestinationPath: target)
        let file = try OutputFile(path: directory + "/link.pcapng", ownerOnly: true)
        file.write(Array("secret".utf8))
        try file.close()
        #expect(try Self.mode(target) == 0o600)
        #expect(FileManager.default.contents(atPath: target) == Data("secret".utf8))
    }

    /// `imwire shard --tls-keylog`: every shard carries the key log, so only its owner reads it;
    /// without a key log a shard has the umask's mode.
    @Test func shardsWithAKeyLogAreOwnerOnly() throws {
        let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/captures/leancloud-real.pcapng").path
        for keyLog in [
            Array("CLIENT_RANDOM \(String(repeating: "01", count: 32)) \(String(repeating: "a7", count: 48))\n".utf8),
            nil,
        ] {
            let directory = try Self.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var options = CaptureSharder.Options(maxBytes: 1)
            options.keyLog = keyLog
            let shards = try CaptureSharder.shard(path: capture, into: directory, options: options).shards
            #expect(!shards.isEmpty)
            for shard in shards {
                #expect(try Self.mode(shard.path) == (keyLog == nil ? Self.umaskMode() : 0o600), "\(shard.path)")
            }
        }
    }

    /// A capture whose own Decryption Secrets Blocks carry a key log (a shard of `--tls-keylog`,
    /// a pcapng Wireshark wrote with its key log in it): every shard gets them, so every shard is
    /// owner-only without `--tls-keylog` too.
    @Test func shardsOfACaptureThatCarriesAKeyLogAreOwnerOnly() throws {
        let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Fixtures/captures/leancloud-real.pcapng").path
        let keyLog = Array(
            "CLIENT_RANDOM \(String(repeating: "01", count: 32)) \(String(repeating: "a7", count: 48))\n".utf8)
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = CaptureSharder.Options(maxBytes: 1 << 30)
        options.keyLog = keyLog
        let whole = try #require(
            try CaptureSharder.shard(path: capture, into: directory, name: "with-secrets", options: options).shards
                .first)
        let carried = try PacketCaptureReader.packets(path: whole.path)
        var secrets: [[UInt8]] = []
        while let item = carried.next() { if case .secrets(let block) = item { secrets.append(block.data) } }
        #expect(secrets == [keyLog])
        let shards = try CaptureSharder.shard(
            path: whole.path, into: directory, name: "again", options: CaptureSharder.Options(maxBytes: 1)
        ).shards
        #expect(shards.count > 1)
        for shard in shards {
            #expect(try Self.mode(shard.path) == 0o600, "\(shard.path)")
        }
    }
}
