import Foundation
import IMWireCore
import Testing

@testable import IMWireLeanCloud

/// The derived byte examples of leancloud.md §9.3 (standard proto2 encoder, field order ascending).
@Suite struct ReferenceVectorTests {
    static let vectors: [(name: String, hex: String, json: String)] = [
        ("goaway", "08 15", #"{"cmd":"goaway"}"#),
        ("echo", "08 0e 28 01", #"{"cmd":"echo","i":1}"#),
        (
            "session/open",
            """
            08 00 10 01 1a 05 61 70 70 69 64 22 03 74 6f 6d 28 01 \
            b2 06 10 22 08 6a 73 2f 35 2e 30 2e 30 28 00 98 01 bb 01
            """,
            #"""
            {"cmd":"session","op":"open","appId":"appid","peerId":"tom","i":1,\#
            "sessionMessage":{"ua":"js/5.0.0","r":false,"configBitmap":"187"}}
            """#
        ),
        (
            "session/opened",
            "08 00 10 05 22 03 74 6f 6d 28 01 48 80 d0 95 ff bc 31 b2 06 0b 52 05 54 4f 4b 45 4e 58 80 c6 0a",
            #"""
            {"cmd":"session","op":"opened","peerId":"tom","i":1,\#
            "serverTs":"1700000000000","sessionMessage":{"st":"TOKEN","stTtl":172800}}
            """#
        ),
        (
            "direct",
            """
            08 02 28 02 c2 06 29 0a 1d 7b 22 5f 6c 63 74 79 70 65 22 3a 2d 31 2c 22 \
            5f 6c 63 74 65 78 74 22 3a 22 68 69 22 7d 5a 03 43 49 44 72 03 44 54 31
            """,
            #"""
            {"cmd":"direct","i":2,"directMessage":{"msg":"{\"_lctype\":-1,\#
            \"_lctext\":\"hi\"}","cid":"CID","dt":"DT1"}}
            """#
        ),
        (
            "ack response", "08 03 28 02 ca 06 0c 28 fb d0 95 ff bc 31 32 03 4d 49 44",
            #"{"cmd":"ack","i":2,"ackMessage":{"t":"1700000000123","uid":"MID"}}"#
        ),
        (
            "client ack", "08 03 ca 06 0a 1a 03 4d 49 44 22 03 43 49 44",
            #"{"cmd":"ack","ackMessage":{"mid":"MID","cid":"CID"}}"#
        ),
        (
            "session/closed 4111",
            "08 00 10 06 b2 06 15 60 8f 20 6a 10 53 45 53 53 49 4f 4e 5f 43 4f 4e 46 4c 49 43 54",
            #"{"cmd":"session","op":"closed","sessionMessage":{"code":4111,"reason":"SESSION_CONFLICT"}}"#
        ),
        (
            "error 4303",
            "08 07 28 03 ba 06 1b 08 cf 21 12 16 43 4f 4e 56 45 52 53 41 54 49 4f 4e 5f 4e 4f 54 5f 46 4f 55 4e 44",
            #"{"cmd":"error","i":3,"errorMessage":{"code":4303,"reason":"CONVERSATION_NOT_FOUND"}}"#
        ),
        (
            "csharp Protobuf.cs", "08 00 10 01 22 05 68 65 6c 6c 6f b2 06 02 60 7b",
            #"{"cmd":"session","op":"open","peerId":"hello","sessionMessage":{"code":123}}"#
        ),
    ]

    @Test(arguments: vectors.indices)
    func decodesAndReencodes(index: Int) throws {
        let vector = Self.vectors[index]
        let decoded = LeanCloudBinary.decode(hex(vector.hex))
        #expect(verdicts(decoded.findings).isEmpty, "\(vector.name): \(decoded.findings)")
        let command = try #require(decoded.command)
        #expect(LeanCloudCanonicalJSON.encode(command) == json(vector.json), "\(vector.name)")
        #expect(LeanCloudBinary.encode(try LeanCloudCanonicalJSON.decode(json(vector.json))) == hex(vector.hex))
    }

    @Test func presenceIsKept() {
        // An absent op reads as `open` under proto2 defaults; presence tells the two apart.
        let absent = LeanCloudBinary.decode(hex("08 00"))
        #expect(absent.command?.hasOp == false)
        #expect(absent.command?.op == .open)
        #expect(verdicts(absent.findings) == ["LC.OP-MISSING@0"])
        let zeroCmd = LeanCloudBinary.decode(hex("08 00 10 01"))
        #expect(zeroCmd.command?.hasCmd == true)
        let noCmd = LeanCloudBinary.decode(hex("10 01"))
        #expect(noCmd.command?.hasCmd == false)
        #expect(verdicts(noCmd.findings) == ["LC.CMD-MISSING@0"])
    }
}

@Suite struct ScannerTests {
    private func check(_ hexText: String, _ expected: [String], decodes: Bool = true) {
        let decoded = LeanCloudBinary.decode(hex(hexText))
        #expect(verdicts(decoded.findings) == expected, "\(hexText)")
        #expect((decoded.command != nil) == decodes, "\(hexText)")
    }

    @Test func structuralDamage() {
        check("08", ["PB.TRUNCATED@1"], decodes: false)  // value missing
        check("08 0e 28", ["PB.TRUNCATED@3"], decodes: false)
        check("08 0e 2a 05 01", ["PB.WIRE-TYPE-MISMATCH@2", "PB.TRUNCATED@3"], decodes: false)
        check("08 02 c2 06 05 0a 01", ["PB.TRUNCATED@4"], decodes: false)  // sub-message length past the end
        check("08 02 c2 06 03 0a 05 41", ["PB.TRUNCATED@6"], decodes: false)  // inner length past the sub-message
        check("08 " + String(repeating: "ff ", count: 10) + "01", ["PB.VARINT-TOO-LONG@1"], decodes: false)
        check("08 " + String(repeating: "ff ", count: 9) + "02", ["PB.VARINT-TOO-LONG@1"], decodes: false)
        check("00 01", ["PB.FIELD-NUMBER-INVALID@0"], decodes: false)
        // cmd as an unterminated group
        check("08 0e 0b", ["PB.WIRE-TYPE-MISMATCH@2", "PB.TRUNCATED@3"], decodes: false)
        check("08 0e 0c", ["PB.WIRE-TYPE-INVALID@2"], decodes: false)  // end group that opens nothing
        check("08 0e fb 01 84 02", ["PB.UNKNOWN-FIELD@2", "PB.WIRE-TYPE-INVALID@4"], decodes: false)  // wrong end group
        check("08 0e 0f 00", ["PB.WIRE-TYPE-INVALID@2"], decodes: false)  // wire type 7
        check("08 0e 80 80 80 80 10 00", ["PB.FIELD-NUMBER-INVALID@2"], decodes: false)  // field 2^29
        // A tag in six bytes, its value in range: swift-protobuf and upb refuse it (found by the
        // LeanCloudDifferential fuzz target once the scanner stopped leaning on swift-protobuf).
        check("80 c4 80 d9 87 00 00 10 51", ["PB.VARINT-NON-MINIMAL@0", "PB.VARINT-TOO-LONG@0"], decodes: false)
        check("88 80 80 80 00 0e", ["PB.VARINT-NON-MINIMAL@0"])  // in five bytes it decodes
    }

    @Test func deviationsThatStillDecode() {
        check("08 0e 28 81 00", ["PB.VARINT-NON-MINIMAL@3"])  // i = 1 in two bytes
        check("88 00 0e", ["PB.VARINT-NON-MINIMAL@0"])  // tag in two bytes
        check("08 0e f8 01 05", ["PB.UNKNOWN-FIELD@2"])  // field 31 is not defined
        check("08 0e fb 01 08 01 fb 01 fc 01 fc 01", ["PB.UNKNOWN-FIELD@2"])  // an unknown (nested) group is skipped
        check("08 0e 28 01 28 02", ["PB.DUPLICATE-FIELD@4"])
        check("08 0e 28 80 80 80 80 10", ["PB.INT32-OUT-OF-RANGE@3"])  // 2^32
        check("08 07 ba 06 02 08 01", ["PB.MISSING-REQUIRED@5"])  // ErrorCommand.reason
        check("08 63", ["PB.ENUM-UNKNOWN-VALUE@1"])  // cmd 99
        check("08 02 c2 06 03 0a 01 ff", ["PB.INVALID-UTF8@7"], decodes: false)  // swift-protobuf rejects it
        check("08 02 c2 06 02 28 02", ["PB.BOOL-NOT-CANONICAL@6"])  // offline = 2
    }

    @Test func negativeInt32IsInRange() {
        check("08 0e 28 ff ff ff ff ff ff ff ff ff 01", [])  // i = -1, sign-extended
    }

    @Test func nestingIsCapped() {
        var limits = Limits.default
        limits.maxNestingDepth = 2
        // GenericCommand > LoginCommand > SystemInfo: depth 3.
        let decoded = LeanCloudBinary.decode(hex("08 08 a2 06 02 0a 00"), limits: limits)
        #expect(verdicts(decoded.findings) == ["PB.NESTING-TOO-DEEP@5"])
        #expect(decoded.command == nil)
    }

    @Test func oversizedFramesAreRefusedFirst() {
        var limits = Limits.default
        limits.maxFrameSize = 4
        let decoded = LeanCloudBinary.decode(hex("08 0e 28 01 28"), limits: limits)
        #expect(verdicts(decoded.findings) == ["PB.FRAME-TOO-LARGE@0"])
    }

    @Test func everyPrefixOfAValidCommandIsHandled() {
        let bytes = hex(ReferenceVectorTests.vectors[2].hex)
        for length in 0..<bytes.count {
            let decoded = LeanCloudBinary.decode(Array(bytes[..<length]))
            // Cut at a field boundary it decodes (maybe with findings); otherwise it is truncated.
            if decoded.command == nil { #expect(decoded.findings.contains { $0.ruleID == "PB.TRUNCATED" }) }
        }
    }

    @Test func randomCommandsRoundTrip() throws {
        var builder = RandomCommandBuilder(generator: SplitMix64(seed: 2026))
        for _ in 0..<400 {
            let object = builder.message(LeanCloudSchema.genericCommand, depth: 0)
            let command = try LeanCloudCanonicalJSON.decode(.object(object))
            let bytes = LeanCloudBinary.encode(command)
            let decoded = LeanCloudBinary.decode(bytes)
            #expect(decoded.findings.allSatisfy { $0.layer != .encoding }, "\(decoded.findings)")
            let again = try #require(decoded.command)
            #expect(again == command)
            #expect(LeanCloudCanonicalJSON.encode(again).semanticallyEquals(.object(object)))
            #expect(decoded.fields?.differences(from: again) == [])
        }
    }

    @Test func topLevelOffsetsKeepEachFieldsFirstTag() {
        // cmd=direct, field 200 (unknown, varint), op=open, cmd again, field 200 again, i=5.
        let bytes: [UInt8] = [0x08, 0x02, 0xc0, 0x0c, 0x01, 0x10, 0x01, 0x08, 0x02, 0xc0, 0x0c, 0x02, 0x28, 0x05]
        var scanner = WireScanner(limits: .default)
        #expect(bytes.withUnsafeBytes { scanner.scan($0, as: LeanCloudSchema.genericCommand) })
        let offsets = bytes.withUnsafeBytes { raw in
            [1, 200, 2, 5, 3, 201, -1].map { scanner.firstTopLevelTag(of: $0, in: raw) }
        }
        #expect(offsets == [0, 2, 5, 12, nil, nil, nil])
        // A group (field 300) is skipped whole: the field 1 inside it is not a top-level tag.
        let grouped: [UInt8] = [0xe3, 0x12, 0x08, 0x07, 0xe4, 0x12, 0x08, 0x02]
        #expect(grouped.withUnsafeBytes { scanner.firstTopLevelTag(of: 1, in: $0) } == 6)
    }
}

@Suite struct CommandCheckTests {
    private func findings(_ text: String) throws -> [String] {
        let command = try LeanCloudCanonicalJSON.decode(json(text))
        return verdicts(LeanCloudBinary.decode(LeanCloudBinary.encode(command)).findings)
    }

    @Test func subMessagesMustFitTheCmd() throws {
        #expect(try findings(#"{"cmd":"direct","sessionMessage":{"ua":"x"}}"#) == ["LC.SUBMESSAGE-MISMATCH@2"])
        #expect(
            try findings(#"{"cmd":"session","op":"open","sessionMessage":{},"directMessage":{}}"#)
                == ["LC.SUBMESSAGE-COUNT@7", "LC.SUBMESSAGE-MISMATCH@7"])
        #expect(try findings(#"{"cmd":"goaway","convMessage":{}}"#) == ["LC.SUBMESSAGE-MISMATCH@2"])
    }

    @Test func opsMustFitTheCmd() throws {
        #expect(try findings(#"{"cmd":"session"}"#) == ["LC.OP-MISSING@0"])
        #expect(try findings(#"{"cmd":"session","op":"start"}"#) == ["LC.OP-NOT-FOR-CMD@2"])
        #expect(try findings(#"{"cmd":"direct","op":"start","directMessage":{}}"#) == ["LC.OP-UNEXPECTED@2"])
        #expect(try findings(#"{"cmd":"conv","op":"members_joined","convMessage":{"cid":"c"}}"#).isEmpty)
        #expect(try findings(#"{"cmd":"blacklist","op":"block","blacklistMessage":{}}"#).isEmpty)
    }

    @Test func catalogueIsConsistent() {
        let keys = LeanCloudCommandCatalog.all.map(\.key)
        #expect(Set(keys).count == keys.count, "duplicate catalogue rows")
        for cmd in LCCommandType.allCases {
            #expect(
                LeanCloudCommandCatalog.takesNoOp(cmd) || !LeanCloudCommandCatalog.ops(of: cmd).isEmpty,
                "\(cmd) has no row")
        }
        for spec in LeanCloudCommandCatalog.all {
            #expect(spec.clientRole != nil || !spec.serverRoles.isEmpty, "\(spec.key) is sent by nobody")
            for answer in spec.answers {
                #expect(LeanCloudCommandCatalog.spec(for: answer) != nil, "\(spec.key) answered by unknown \(answer)")
            }
            if !spec.answers.isEmpty {
                #expect(spec.clientRole == .request, "\(spec.key) has answers but is no request")
            }
        }
    }
}
