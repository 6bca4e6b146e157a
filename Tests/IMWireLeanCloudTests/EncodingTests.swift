import IMWireCore
import Testing

@testable import IMWireLeanCloud

@Suite struct FlatJSONTests {
    /// leancloud/realtime-SDK-dotNET#149: a real 4111 frame in lc.json.
    static let captured =
        #"""
        {"reason":"SESSION_CONFLICT","code":4111,"cmd":"session","op":"closed",\#
        "appId":"bpcVcfpN1xukRPiahnCSsXmy-gzGzoHsz","peerId":"oTRNVwCX9lzVJG4PwOLRuN6PALFg","service":2}
        """#

    @Test func decodesTheCapturedFrame() throws {
        let decoded = LeanCloudJSON.decode(Array(Self.captured.utf8))
        #expect(verdicts(decoded.findings).isEmpty)
        let command = try #require(decoded.command)
        #expect(command.cmd == .session && command.op == .closed && command.service == 2)
        #expect(command.sessionMessage.code == 4111)
        #expect(command.sessionMessage.reason == "SESSION_CONFLICT")
        #expect(json(LeanCloudJSON.encode(command)).semanticallyEquals(json(Self.captured)))
    }

    @Test func heartbeatIsTheEmptyObject() {
        let decoded = LeanCloudJSON.decode(Array("{}".utf8))
        #expect(decoded.kind == .heartbeat)
        #expect(decoded.findings.isEmpty)
    }

    @Test func opsUseHyphensAndJSONObjectsAreRealJSON() throws {
        let text = #"""
            {"cmd":"conv","op":"members-joined","cid":"C1","m":["lan"],\#
            "initBy":"tom","attr":{"name":"群","n":[1,2]},"i":-65536}
            """#
        let decoded = LeanCloudJSON.decode(Array(text.utf8))
        #expect(verdicts(decoded.findings).isEmpty)
        let command = try #require(decoded.command)
        #expect(command.op == .membersJoined)
        #expect(command.i == -65536)
        #expect(json(command.convMessage.attr.data) == json(#"{"name":"群","n":[1,2]}"#))
        let encoded = LeanCloudJSON.encode(command)
        #expect(encoded.contains(#""op":"members-joined""#))
        #expect(json(encoded).semanticallyEquals(json(text)))
    }

    @Test func int64AreNumbersAndBytesBase64() throws {
        let command = try LeanCloudCanonicalJSON.decode(
            json(#"{"cmd":"direct","directMessage":{"timestamp":"1700000000000","binaryMsg":"AAEC"}}"#))
        let encoded = LeanCloudJSON.encode(command)
        #expect(json(encoded) == json(#"{"cmd":"direct","timestamp":1700000000000,"binaryMsg":"AAEC"}"#))
    }

    @Test func badInputGivesFindingsWithOffsets() {
        func verdict(_ text: String) -> [String] { verdicts(LeanCloudJSON.decode(Array(text.utf8)).findings) }
        #expect(verdict(#"{"cmd":"session","op":"open""#) == ["LC.JSON-INVALID@28"])
        #expect(verdict("[1]") == ["LC.JSON-INVALID@0"])
        #expect(verdict(#"{"cmd":"echo","bogus":1}"#) == ["LC.JSON-UNKNOWN-KEY@14"])
        #expect(verdict(#"{"cmd":"direct","cid":5}"#) == ["LC.JSON-BAD-VALUE@16"])
        #expect(verdict(#"{"cmd":"echo","i":1,"i":2}"#) == ["LC.JSON-DUPLICATE-KEY@20"])
        #expect(verdict(#"{"cmd":"conv","op":"members_joined"}"#) == ["LC.JSON-OP-UNDERSCORE@14"])
        #expect(verdict(#"{"cmd":"warp"}"#) == ["LC.JSON-BAD-VALUE@1"])
        #expect(verdict(#"{"cmd":"direct","i":4294967296}"#) == ["LC.JSON-BAD-VALUE@16"])
    }

    /// A value of the wrong type is named by its JSON type, never quoted: it may hold a
    /// credential, which reports leave out unless asked (`--show-secrets`).
    @Test func aBadValueIsNamedNotQuoted() {
        let secret = "st-9e9ce82d7d3b4768ba55ead094edba9f"
        for (text, expected) in [
            (#"{"cmd":"session","op":"open","st":{"token":"\#(secret)"}}"#, "st: expected a string, found object"),
            (#"{"cmd":"session","op":"open","i":["\#(secret)"]}"#, "i: expected an int32, found array"),
            (#"{"cmd":"session","op":{"st":"\#(secret)"}}"#, "op is object, not an OpType name"),
            (#"{"cmd":["\#(secret)"]}"#, "cmd is array, not a CommandType"),
            (#"{"cmd":"warp"}"#, #"cmd "warp" is not a CommandType"#),
        ] {
            let messages = LeanCloudJSON.decode(Array(text.utf8)).findings.map(\.message)
            #expect(messages.contains(expected), "\(messages)")
            #expect(!messages.contains { $0.contains(secret) }, "\(messages)")
        }
    }

    /// An empty repeated field (written empty, or every item unusable) is an absent one: it does
    /// not make the sub-message present, which lc.json could not write back (Fuzz/FailCases/
    /// LeanCloudText/crash-ddb596d4…).
    @Test func anEmptyRepeatedFieldSetsNoSubMessage() throws {
        for text in [
            #"{"cmd":"conv","op":"added","i":5,"allowedPids":[]}"#,
            #"{"cmd":"conv","op":"added","i":5,"allowedPids":[{"a":1}]}"#,
        ] {
            let command = try #require(LeanCloudJSON.decode(Array(text.utf8)).command)
            #expect(!command.hasConvMessage, "\(text)")
            #expect(LeanCloudJSON.decode(Array(LeanCloudJSON.encode(command).utf8)).command == command)
        }
        #expect(
            verdicts(LeanCloudJSON.decode(Array(#"{"cmd":"conv","allowedPids":[{"a":1}]}"#.utf8)).findings)
                .contains("LC.JSON-BAD-VALUE@14"))
    }
}

@Suite struct Base64EncodingTests {
    @Test func textFramesCarryTheSameBytes() throws {
        let codec = LeanCloudCodec(encoding: .base64)
        let command = try LeanCloudCanonicalJSON.decode(json(#"{"cmd":"echo","i":1}"#))
        let frame = codec.encode(command)
        #expect(String(decoding: frame, as: UTF8.self) == "CA4oAQ==")
        #expect(codec.decode(frame).command == command)
    }

    @Test func invalidBase64IsAFindingWithItsOffset() {
        let decoded = LeanCloudCodec(encoding: .base64).decode(Array("CA4o*Q==".utf8))
        #expect(verdicts(decoded.findings) == ["LC.BASE64-INVALID@4"])
        #expect(decoded.command == nil)
    }
}

@Suite struct SubprotocolTests {
    @Test func parsesTheKnownNames() throws {
        let binary = try #require(LeanCloudSubprotocol("lc.protobuf2.3"))
        #expect(binary.encoding == .protobuf && binary.offlineStrategy == .unreadAck && !binary.isHistorical)
        #expect(LeanCloudSubprotocol("lc.protobuf2.1")?.offlineStrategy == .pushAll)
        #expect(LeanCloudSubprotocol("lc.proto2base64.3")?.encoding == .base64)
        #expect(LeanCloudSubprotocol("lc.json.2")?.offlineStrategy == .unreadNotice)
        #expect(LeanCloudSubprotocol("lc.protobase64.3")?.isHistorical == true)
        for name in ["mqttv3.1", "lc.protobuf2", "lc.xml.3", "lc.protobuf2.x", ""] {
            #expect(LeanCloudSubprotocol(name) == nil)
        }
        #expect(LeanCloudSubprotocol.known.allSatisfy { LeanCloudSubprotocol($0) != nil })
    }
}
