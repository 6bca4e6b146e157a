import Foundation
import IMWireCore
import Testing

@testable import IMWireLeanCloud

@Suite struct RichMessageTests {
    @Test func parsesTheDocumentedExamples() throws {
        let image =
            #"""
            {"_lctype":-2,"_lctext":"图像的文字说明","_lcattrs":{"a":1},\#
            "_lcfile":{"url":"http://ac-p2bpmgci.clouddn.com/246b8acc","objId":"54699d87e4b0a56c64f470a4",\#
            "metaData":{"name":"IMG_20141223.jpeg","format":"png","height":768,"width":1024,"size":18}}}
            """#
        let (message, findings) = LeanCloudRichMessage.parse(image)
        #expect(findings.isEmpty)
        let parsed = try #require(message)
        #expect(parsed.kind == .image)
        #expect(parsed.file?.objectID == "54699d87e4b0a56c64f470a4")
        #expect(parsed.file?.width == 1024)
        #expect(parsed.json.semanticallyEquals(json(image)))

        let location = LeanCloudRichMessage.parse(
            #"""
            {"_lctype":-5,"_lctext":"这是一个地理位置消息",\#
            "_lcloc":{"longitude":116.3783714,"latitude":39.9704503}}
            """#)
        #expect(location.findings.isEmpty)
        #expect(
            location.message?.location == LeanCloudRichMessage.GeoPoint(latitude: 39.9704503, longitude: 116.3783714))
    }

    @Test func keepsNullsAndCustomKeysFromRealPayloads() throws {
        // java-unified-sdk LCIMMessageTest: a captured audio message with nulls and escaped slashes.
        let captured =
            #"""
            {"_lctype":103,"_lcfile":{"metaData":{"duration":3.328,"size":8365,"format":null},\#
            "objId":"61322ac452baf9066ffbe728","url":"https:\/\/f.letsniyan.com\/record"},\#
            "_lctext":null,"_lcattrs":{"toUserDestroyed":false}}
            """#
        let (message, findings) = LeanCloudRichMessage.parse(captured)
        #expect(findings.isEmpty)
        #expect(message?.kind == .custom(103))
        #expect(message?.file?.url == "https://f.letsniyan.com/record")
        #expect(message?.file?.duration == 3.328)
    }

    @Test func plainTextIsNotATypedMessage() {
        #expect(LeanCloudRichMessage.parse("hello").message == nil)
        #expect(LeanCloudRichMessage.parse(#"{"text":"no type"}"#).message == nil)
        #expect(LeanCloudRichMessage.parse("{not json").findings.isEmpty)
    }

    @Test func malformedTypedMessagesAreReported() {
        func rules(_ text: String) -> [String] { verdicts(LeanCloudRichMessage.parse(text).findings) }
        #expect(rules(#"{"_lctype":"-1"}"#) == ["LC.RICH-MESSAGE-INVALID@1"])
        #expect(rules(#"{"_lctype":-2}"#) == ["LC.RICH-MESSAGE-INVALID@1"])
        #expect(rules(#"{"_lctype":-5,"_lcloc":{"latitude":"x"}}"#) == ["LC.RICH-MESSAGE-INVALID@14"])
        #expect(rules(#"{"_lctype":-1,"_lctext":5}"#) == ["LC.RICH-MESSAGE-INVALID@14"])
        #expect(rules(#"{"_lctype":0}"#) == ["LC.RICH-MESSAGE-INVALID@1"])
        #expect(
            rules(#"{"_lctype":-6,"_lcfile":{"url":"u","metaData":{"size":"big"}}}"#) == ["LC.RICH-MESSAGE-INVALID@14"])
        #expect(rules(#"{"_lctype":-5,"_lcloc":{"latitude":91,"longitude":0}}"#) == ["LC.RICH-MESSAGE-INVALID@14"])
    }

    @Test func encodesInSDKKeyOrder() {
        let message = LeanCloudRichMessage(kind: .text, text: "hi", attributes: JSONObject(["k": "v"]))
        #expect(message.encoded == #"{"_lctype":-1,"_lctext":"hi","_lcattrs":{"k":"v"}}"#)
        #expect(LeanCloudRichMessage.parse(message.encoded).message == message)
    }
}

@Suite struct SignatureTests {
    @Test func hmacSHA1MatchesRFC2202StyleVector() {
        // Widely published HMAC-SHA1 vector (key "key").
        #expect(
            LeanCloudSignature.sign("The quick brown fox jumps over the lazy dog", masterKey: "key")
                == "de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9")
    }

    @Test func messagesFollowTheDocumentedStrings() {
        #expect(
            LeanCloudSignature.message(appID: "app", action: .login(clientID: "tom"), timestamp: 1, nonce: "n")
                == "app:tom::1:n")
        #expect(
            LeanCloudSignature.message(
                appID: "app", action: .startConversation(clientID: "tom", members: ["b", "a", "C"]),
                timestamp: 1, nonce: "n") == "app:tom:C:a:b:1:n")
        #expect(
            LeanCloudSignature.message(
                appID: "app",
                action: .conversationMembers(
                    clientID: "tom", conversationID: "c1", members: ["z", "y"], action: "kick"),
                timestamp: 2, nonce: "n") == "app:tom:c1:y:z:2:n:kick")
        #expect(
            LeanCloudSignature.message(
                appID: "app", action: .clientBlocksConversation(clientID: "tom", conversationID: "c1", action: "x"),
                timestamp: 2, nonce: "n") == "app:tom:c1::2:n:x")
    }

    @Test func verificationReportsCaseAndUnit() {
        let message = "app:tom::1700000000:n"
        let lower = LeanCloudSignature.sign(message, masterKey: "k")
        let findings = LeanCloudSignature.verify(
            signature: lower.uppercased(), appID: "app", action: .login(clientID: "tom"),
            timestamp: 1_700_000_000, nonce: "n", masterKey: "k")
        #expect(findings.map(\.ruleID) == ["LC.SIGNATURE-UPPERCASE-HEX", "LC.SIGNATURE-TIMESTAMP-SECONDS"])
        #expect(findings.allSatisfy { $0.rule.lenientSeverity == .info })
        let wrong = LeanCloudSignature.verify(
            signature: lower, appID: "app", action: .login(clientID: "jerry"),
            timestamp: 1_700_000_000, nonce: "n", masterKey: "k")
        #expect(wrong.map(\.ruleID) == ["LC.SIGNATURE-MISMATCH"])
        // The signature is a credential, the expected one a keyed hash of the master key: neither is in the message.
        let expected = LeanCloudSignature.sign("app:jerry::1700000000:n", masterKey: "k")
        #expect(
            wrong.allSatisfy { !$0.message.contains(lower) && !$0.message.contains(expected) },
            "\(wrong.map(\.message))")
    }
}

/// `_lctype` is whatever integer the JSON number spells, however it is spelled; anything else is
/// no typed message.
@Suite struct LCTypeSpellingTests {
    @Test(arguments: [
        #"{"_lctype":-1}"#, #"{"_lctype": -1 ,"_lctext":"a"}"#, #"{"_lctype":-0}"#, #"{"_lctype":0}"#,
        #"{"_lctype":7}"#,
        #"{"_lctype":-1.0}"#, #"{"_lctype":-1e0}"#, #"{"_lctype":-10E-1}"#, #"{"_lctype":123456789012345678}"#,
        #"{"_lctype":1234567890123456789}"#, #"{"_lctype":-9223372036854775808}"#, #"{"_lctype":9223372036854775808}"#,
        #"{"_lctype":-1.5}"#, #"{"_lctype":"-1"}"#,
    ])
    func kindIsTheJSONNumbersValue(text: String) throws {
        let number = try #require(JSONParser.parse(text)["_lctype"])
        let expected =
            number.numberValue?.isInteger == true ? number.int64Value.map(LeanCloudRichMessage.Kind.init(lctype:)) : nil
        #expect(LeanCloudRichMessage.parse(text).message?.kind == expected, "\(text)")
    }
}

/// The checker asks a rich message only for its findings; they must be `parse`'s.
@Suite struct RichMessageFindingsTests {
    @Test func findingsWithoutBuildingAreParsesFindings() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.appendingPathComponent("Fixtures/leancloud/rich-message")
        var texts: [String] = [
            "", "plain", "{}", "[1]", #"{"_lctype":"-1"}"#, #"{"_lctype":-1,"_lctext":5,"_lcattrs":[],"_lcfile":1}"#,
            #"{"_lctype":-5,"_lcloc":null}"#, #"{"_lctype":-2,"_lcfile":{}}"#, #"{"_lctype":1,"_lctype":-1}"#,
            #"{"_lctype":-1,"#,
        ]
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        where url.pathExtension == "json" {
            let fixture = try JSONParser.parse(String(decoding: try Data(contentsOf: url), as: UTF8.self))
            texts.append(try #require(fixture["text"]?.stringValue))
        }
        #expect(texts.count > 20)
        var sawFindings = 0
        for text in texts {
            let parsed = LeanCloudRichMessage.parse(text).findings
            var utf8 = text
            let quick = utf8.withUTF8 { LeanCloudRichMessage.findings(utf8: UnsafeRawBufferPointer($0)) }
            #expect(quick == parsed, "\(text)")
            if !parsed.isEmpty { sawFindings += 1 }
        }
        #expect(sawFindings >= 5)
    }
}
