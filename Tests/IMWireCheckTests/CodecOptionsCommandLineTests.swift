import Foundation
import IMWire
import Testing

/// `imwire decode` and `imwire encode` take their codec, its options and their help from the
/// registration table (`Dialects.standard.codecs`); run through the `imwire` built beside the tests.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: builtIMWire)))
struct CodecOptionsCommandLineTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try MasterKeyFileTests.run(arguments)
    }

    @Test func theHelpListsEveryCodecAndItsOptions() throws {
        let decode = try Self.run(["decode", "--help"]).output
        let encode = try Self.run(["encode", "--help"]).output
        for codec in Dialects.standard.codecs {
            #expect(decode.contains(codec.name) && encode.contains("\(codec.name): "), "\(codec.name)")
            for option in codec.options {
                #expect(decode.contains("--\(option.name) <"), "\(option.name)")
                // What changes how a codec decodes only is no option of encode.
                #expect(encode.contains("--\(option.name) <") != option.decodingOnly, "\(option.name)")
            }
        }
    }

    @Test func anOptionIsTakenInEitherFormBeforeOrAfterTheInput() throws {
        for arguments in [
            ["decode", "--encoding", "json", "--text", "{}"], ["decode", "--text", "{}", "--encoding=json"],
        ] {
            let result = try Self.run(arguments)
            #expect(result.status == 0 && result.output == "{}\n", "\(arguments): \(result)")
        }
        let v31 = try Self.run(["decode", "--dialect", "mqtt", "--hex", "c100", "--mqtt-version", "3.1"])
        #expect(v31.status == 1 && v31.error.contains("MQTT.FIXED-HEADER-FLAGS-V31"), "\(v31)")
        let encoded = try Self.run(["encode", "--encoding", "base64", #"{"cmd":"echo","i":1}"#])
        #expect(encoded.status == 0 && encoded.output == "CA4oAQ==\n", "\(encoded)")
    }

    @Test func aValueTheCodecRefusesIsAUsageError() throws {
        for (arguments, message) in [
            (
                ["decode", "--encoding", "xml", "--text", "{}"],
                "--encoding xml: expected one of protobuf, base64, json"
            ),
            (
                ["decode", "--dialect", "nim", "--encoding", "xml", "--text", "2::"],
                "--encoding xml: expected one of protobuf, base64, json"
            ),
            (
                ["decode", "--dialect", "mqtt", "--mqtt-version", "5", "--hex", "c000"],
                "--mqtt-version 5: expected one of 3.1, 3.1.1"
            ),
            (["decode", "--text", "{}", "--encoding"], "missing value for '--encoding <encoding>'"),
            (["decode", "--encoding", "--text", "{}"], "missing value for '--encoding <encoding>'"),
            (["decode", "--dialect", "mqtt", "--text", "x"], "--text: mqtt reads binary packets"),
            (["encode", "--dialect", "mqtt", "--mqtt-version", "3.1", "{}"], "Unknown option '--mqtt-version'"),
            (["decode", "--dialect", "xmpp", "--text", "x"], "The value 'xmpp' is invalid for '--dialect <dialect>'"),
        ] {
            let result = try Self.run(arguments)
            #expect(
                result.status == 64 && result.error.contains(message)
                    && result.error.contains("imwire \(arguments[0])"), "\(arguments): \(result)")
        }
    }

    /// A framing without a dialect is a codec like the dialects': socket.io 0.9 packets.
    @Test func aFramingCodecDecodesAndEncodes() throws {
        let text = #"5:1+::{"name":"x","args":[1]}"#
        let decoded = try Self.run(["decode", "--dialect", "socketio.0.9", "--text", text])
        #expect(decoded.status == 0 && decoded.output.hasPrefix(#"{"packets":[{"type":"event""#), "\(decoded)")
        let encoded = try Self.run(["encode", "--dialect", "socketio.0.9", decoded.output])
        #expect(encoded.status == 0 && encoded.output == text + "\n", "\(encoded)")
    }
}
