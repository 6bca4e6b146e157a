import Foundation
import IMWire
import Testing

/// The `imwire` built beside the tests.
let builtIMWire = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "imwire"
).path

/// `imwire check --master-key-file FILE`: LeanCloud's master key kept off the command line, and so
/// out of `ps`, as `--secret-file` keeps JMessage's. Run through the `imwire` the tests were built
/// beside.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: builtIMWire)))
struct MasterKeyFileTests {
    static let imwire = builtIMWire

    /// `imwire arguments…`: its exit status, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: imwire)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    static func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "imwire-master-key-\(UUID().uuidString)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let masterKey = "master-key-7f3a9c"

    /// A transcript with one session/open signed with `masterKey`.
    static func capture() throws -> String {
        var open = LCGenericCommand()
        open.cmd = .session
        open.op = .open
        open.appID = "app-id-3"
        open.peerID = "alice"
        open.i = 1
        open.sessionMessage.t = 1_700_000_000_000
        open.sessionMessage.n = "nonce-17"
        let signed = LeanCloudSignature.message(
            appID: "app-id-3", action: .login(clientID: "alice"), timestamp: 1_700_000_000_000, nonce: "nonce-17")
        open.sessionMessage.s = LeanCloudSignature.sign(signed, masterKey: masterKey)
        return try file(
            #"""
            {"type":"open","conn":"lc","t":0,"client":"10.0.0.1:5000",\#
            "server":"10.0.0.2:443","subprotocol":"lc.protobuf2.3"}
            """# + "\n"
                + #"{"conn":"lc","t":1,"dir":"send","hex":"\#(Hex.encode(LeanCloudBinary.encode(open)))"}"# + "\n")
    }

    /// The key in the file (its trailing newline dropped) is the one the signatures are checked
    /// with: the right one passes, another is LC.SIGNATURE-MISMATCH, as with --master-key.
    @Test func theKeyInTheFileChecksTheSignatures() throws {
        let capture = try Self.capture()
        let right = try Self.file(Self.masterKey + "\n")
        let wrong = try Self.file("another-master-key\n")
        defer { for path in [capture, right, wrong] { try? FileManager.default.removeItem(atPath: path) } }
        let mismatch = "LC.SIGNATURE-MISMATCH"
        let passed = try Self.run(["check", capture, "--master-key-file", right, "--severity", "info"])
        let failed = try Self.run(["check", capture, "--master-key-file", wrong, "--severity", "info"])
        let given = try Self.run(["check", capture, "--master-key", "another-master-key", "--severity", "info"])
        #expect(passed.status != 2 && !passed.output.contains(mismatch), "\(passed)")
        #expect(failed.output.contains(mismatch), "\(failed)")
        #expect(given.output.contains(mismatch), "\(given)")
        #expect(try Self.run(["check", "--help"]).output.contains("--master-key-file"))
    }

    /// A file that cannot be used exits 2 naming it; the two flags exclude each other.
    @Test func anUnusableFileIsNamed() throws {
        let capture = try Self.capture()
        let empty = try Self.file("\n")
        let missing = NSTemporaryDirectory() + "imwire-no-such-master-key-\(UUID().uuidString)"
        defer { for path in [capture, empty] { try? FileManager.default.removeItem(atPath: path) } }
        for path in [empty, missing] {
            let result = try Self.run(["check", capture, "--master-key-file", path])
            #expect(
                result.status == 2 && result.error.contains("--master-key-file") && result.error.contains(path),
                "\(result)")
        }
        let both = try Self.run(["check", capture, "--master-key", Self.masterKey, "--master-key-file", empty])
        #expect(both.status == 64 && both.error.contains("exclude each other"), "\(both)")
    }
}
