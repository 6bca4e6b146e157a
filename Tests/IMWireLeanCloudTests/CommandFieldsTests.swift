import Foundation
import IMWireCore
import SwiftProtobuf
import Testing

@testable import IMWireLeanCloud

/// The decoder records the fields the session rules read in its one wire pass; these tests hold
/// that record to swift-protobuf's value of the same bytes.
@Suite struct CommandFieldsTests {
    /// swift-protobuf's value of `bytes`, the independent reading.
    private func protobuf(_ bytes: [UInt8]) throws -> LCGenericCommand {
        try LCGenericCommand(serializedBytes: bytes, partial: true)
    }

    private func fields(_ hexText: String) throws -> LeanCloudCommandFields {
        try #require(LeanCloudBinary.decode(hex(hexText)).fields, "\(hexText)")
    }

    /// Every protobuf fixture that decodes (malformed ones too) records what swift-protobuf reads.
    @Test func fixturesAgreeWithSwiftProtobuf() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = root.appendingPathComponent("Fixtures/leancloud/command")
        var count = 0
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        where url.pathExtension == "json" {
            let fixture = try JSONParser.parse(String(decoding: try Data(contentsOf: url), as: UTF8.self))
            guard fixture["encoding"]?.stringValue == "protobuf", let hex = fixture["bytes_hex"]?.stringValue,
                let bytes = try? Hex.decode(hex), let fields = LeanCloudBinary.decode(bytes).fields
            else { continue }
            let command = try protobuf(bytes)
            #expect(fields.differences(from: command) == [], "\(url.lastPathComponent)")
            #expect(LeanCloudNames.summary(of: fields) == LeanCloudNames.summary(of: command))
            count += 1
        }
        #expect(count > 90)
    }

    /// The corners of protobuf's reading that a one-pass recorder could get wrong.
    @Test(arguments: [
        ("last value wins", "08 02 08 03", LeanCloudCommandFields.Field.cmd, "3"),
        ("an undefined enum value leaves the last defined one", "08 02 08 7f", .cmd, "2"),
        ("int32 keeps the low 32 bits", "28 85 80 80 80 10", .i, "5"),
        ("a negative int32 in ten bytes", "28 ff ff ff ff ff ff ff ff ff 01", .i, "-1"),
        ("a bool is any non-zero varint", "08 00 b2 06 02 28 02", .sessionR, "1"),
        ("sub-messages given twice merge", "08 02 c2 06 03 0a 01 61 c2 06 03 5a 01 62", .directCID, "b"),
        ("and keep the first one's fields", "08 02 c2 06 03 0a 01 61 c2 06 03 5a 01 62", .directMsg, "a"),
        ("a merged field's last value wins", "08 02 c2 06 03 0a 01 61 c2 06 03 0a 01 62", .directMsg, "b"),
        ("an empty string is given", "08 03 ca 06 02 1a 00", .ackMid, ""),
        ("int64 keeps every bit", "08 03 ca 06 0a 38 ff ff ff ff ff ff ff ff 7f", .ackFromts, "\(Int64.max)"),
    ])
    func protobufCorners(name: String, hexText: String, field: LeanCloudCommandFields.Field, expected: String) throws {
        let fields = try fields(hexText)
        let value = field.isString ? fields.string(field) : fields.integer(field).map { "\($0)" }
        #expect(value == expected, "\(name)")
        #expect(fields.differences(from: try protobuf(hex(hexText))) == [], "\(name)")
    }

    @Test func subMessagesNeedTheirDeclaredWireType() throws {
        // Field 104 (directMessage) as a varint is an unknown field to protobuf, not the message.
        let wrongType = try fields("08 02 c0 06 01")
        #expect(wrongType.subMessages == [])
        #expect(wrongType.differences(from: try protobuf(hex("08 02 c0 06 01"))) == [])
        let empty = try fields("08 02 c2 06 00")
        #expect(empty.subMessages == [.directMessage])
        #expect(empty.has(.directMessage) && !empty.has(.ackMessage))
        #expect(!empty.has(.directMsg))
    }

    @Test func fieldsInOtherMessagesAreNotRecorded() throws {
        // `code` (12) inside sessionMessage is sessionCode; inside an unrecorded sub-message
        // (convMessage, 110: its field 12 is the string `udate`), field 12 must not leak into it.
        let session = try fields("08 00 10 06 b2 06 02 60 05")
        #expect(session.int32(.sessionCode) == 5)
        let elsewhere = try fields("08 01 f2 06 03 62 01 61")
        #expect(!elsewhere.has(.sessionCode))
        #expect(elsewhere.differences(from: try protobuf(hex("08 01 f2 06 03 62 01 61"))) == [])
    }

    @Test func strangersAreNotRecorded() {
        // Invalid UTF-8 in a string field: swift-protobuf refuses it, so no fields either.
        #expect(LeanCloudBinary.decode(hex("08 03 ca 06 03 1a 01 ff")).fields == nil)
    }

    /// `Field`s are found in the schema by name, and each must hold a single value.
    @Test func fieldsAreSingularSchemaFields() throws {
        let root = LeanCloudSchema.message(LeanCloudSchema.genericCommand)
        for field in LeanCloudCommandFields.Field.allCases {
            var message = root
            if let sub = field.path.subMessage {
                guard case .message(let id)? = root.field(number: sub.rawValue)?.type else {
                    Issue.record("\(sub) is no message field")
                    continue
                }
                message = LeanCloudSchema.message(id)
            }
            let schema = try #require(message.field(named: field.path.name), "\(field)")
            #expect(schema.label != .repeated, "\(field) is repeated: a single value cannot hold it")
        }
        // Which are strings comes from the schema's types.
        #expect(
            LeanCloudCommandFields.Field.allCases.filter(\.isString)
                == [
                    .appID, .peerID, .errorReason, .directMsg, .directFromPeerID, .directCID, .directID, .ackMid,
                    .ackCID,
                ])
    }

    @Test func typedCommandIsSwiftProtobufsValue() throws {
        let bytes = hex(ReferenceVectorTests.vectors[2].hex)
        let fields = try #require(LeanCloudBinary.decode(bytes).fields)
        #expect(fields.typedCommand() == (try protobuf(bytes)))
        #expect(fields.cmd == .session && fields.op == .open && fields.i == 1)
        #expect(fields.string(.appID) == "appid" && fields.string(.peerID) == "tom")
        #expect(fields.withUTF8(.peerID) { Array($0) } == Array("tom".utf8))
        #expect(fields.withUTF8(.errorReason) { $0.count } == 0)
    }
}
