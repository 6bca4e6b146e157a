import IMWireCore
import SwiftProtobuf

// LeanCloud's credentials travel in the generated messages: a session's signature `s` and
// session token `st`, and the signature `s` of a conversation, room or blacklist change (the
// fields `SecretRedaction` replaces). Formatted (`print`, interpolation, `String(reflecting:)`,
// `dump`), each message that holds one, and the command around it, is swift-protobuf's text
// format with that credential as its length (`st: 35 bytes`). The generated file stays as
// protoc-gen-swift wrote it: these members, on the concrete types, are picked over the defaults
// of swift-protobuf's `Message` extension. The values, their encodings (`textFormatString()`,
// JSON, protobuf) and equality are unchanged.

/// A generated message that holds a credential, itself or in a sub-message.
protocol LeanCloudCredentialHolding: SwiftProtobuf.Message {
    /// A copy with every credential replaced by its mark (`marks.mark(_:)`).
    func marked(_ marks: inout LeanCloudSecretMarks) -> Self
}

/// The credentials replaced in a copy of a message, each by a string no text format or JSON
/// writes for anything else, then by its length in what is shown.
struct LeanCloudSecretMarks {
    private(set) var lengths: [Int] = []

    /// The mark that stands for `secret` (its length noted).
    mutating func mark(_ secret: String) -> String {
        lengths.append(secret.utf8.count)
        return Self.mark(lengths.count - 1)
    }

    static func mark(_ index: Int) -> String { "\u{1}imwire-credential-\(index)\u{1}" }
}

extension LeanCloudCredentialHolding {
    /// swift-protobuf's debug description (the type, then the text format; the type alone in a
    /// release build, as swift-protobuf's), each credential as its length.
    var formattedWithoutCredentials: String {
        #if DEBUG
            var marks = LeanCloudSecretMarks()
            var text = marked(&marks).textFormatString()
            for (index, length) in marks.lengths.enumerated() {
                // The text format writes a control character in octal: `"\001…\001"`.
                let quoted = "\"" + LeanCloudSecretMarks.mark(index).replacing("\u{1}", with: "\\001") + "\""
                text = text.replacing(quoted, with: "\(length) bytes")
            }
            return "\(String(reflecting: Self.self)):\n" + text
        #else
            return String(reflecting: Self.self)
        #endif
    }

    /// A mirror with each field set, by its proto name, as its JSON (int64 as a string, enums by
    /// name), each credential as its length.
    func mirrorWithoutCredentials() -> Mirror {
        var marks = LeanCloudSecretMarks()
        var options = JSONEncodingOptions()
        options.preserveProtoFieldNames = true
        let json = (try? marked(&marks).jsonString(options: options)).flatMap { try? JSONParser.parse($0) }
        let shown = Dictionary(
            uniqueKeysWithValues: marks.lengths.enumerated().map {
                (LeanCloudSecretMarks.mark($0.offset), "\($0.element) bytes")
            })
        func replaced(_ value: JSONValue) -> JSONValue {
            if let text = value.stringValue, let length = shown[text] { return .string(length) }
            if let object = value.objectValue {
                return .object(JSONObject(object.map { .init(key: $0.key, value: replaced($0.value)) }))
            }
            if let array = value.arrayValue { return .array(array.map(replaced)) }
            return value
        }
        let children = (json?.objectValue ?? JSONObject()).map {
            (label: $0.key as String?, value: replaced($0.value) as Any)
        }
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

extension LCSessionCommand: LeanCloudCredentialHolding, CustomStringConvertible, CustomReflectable {
    /// The text format, the signature `s` and session token `st` as their length: `s: 40 bytes`.
    public var description: String { formattedWithoutCredentials }
    public var debugDescription: String { formattedWithoutCredentials }
    public var customMirror: Mirror { mirrorWithoutCredentials() }

    func marked(_ marks: inout LeanCloudSecretMarks) -> Self {
        var copy = self
        if hasS { copy.s = marks.mark(s) }
        if hasSt { copy.st = marks.mark(st) }
        return copy
    }
}

extension LCConvCommand: LeanCloudCredentialHolding, CustomStringConvertible, CustomReflectable {
    /// The text format, the signature `s` as its length.
    public var description: String { formattedWithoutCredentials }
    public var debugDescription: String { formattedWithoutCredentials }
    public var customMirror: Mirror { mirrorWithoutCredentials() }

    func marked(_ marks: inout LeanCloudSecretMarks) -> Self {
        var copy = self
        if hasS { copy.s = marks.mark(s) }
        return copy
    }
}

extension LCRoomCommand: LeanCloudCredentialHolding, CustomStringConvertible, CustomReflectable {
    /// The text format, the signature `s` as its length.
    public var description: String { formattedWithoutCredentials }
    public var debugDescription: String { formattedWithoutCredentials }
    public var customMirror: Mirror { mirrorWithoutCredentials() }

    func marked(_ marks: inout LeanCloudSecretMarks) -> Self {
        var copy = self
        if hasS { copy.s = marks.mark(s) }
        return copy
    }
}

extension LCBlacklistCommand: LeanCloudCredentialHolding, CustomStringConvertible, CustomReflectable {
    /// The text format, the signature `s` as its length.
    public var description: String { formattedWithoutCredentials }
    public var debugDescription: String { formattedWithoutCredentials }
    public var customMirror: Mirror { mirrorWithoutCredentials() }

    func marked(_ marks: inout LeanCloudSecretMarks) -> Self {
        var copy = self
        if hasS { copy.s = marks.mark(s) }
        return copy
    }
}

extension LCGenericCommand: LeanCloudCredentialHolding, CustomStringConvertible, CustomReflectable {
    /// The text format, the credentials of its session, conversation, room or blacklist
    /// message as their length.
    public var description: String { formattedWithoutCredentials }
    public var debugDescription: String { formattedWithoutCredentials }
    public var customMirror: Mirror { mirrorWithoutCredentials() }

    func marked(_ marks: inout LeanCloudSecretMarks) -> Self {
        var copy = self
        if hasSessionMessage { copy.sessionMessage = sessionMessage.marked(&marks) }
        if hasConvMessage { copy.convMessage = convMessage.marked(&marks) }
        if hasRoomMessage { copy.roomMessage = roomMessage.marked(&marks) }
        if hasBlacklistMessage { copy.blacklistMessage = blacklistMessage.marked(&marks) }
        return copy
    }
}

// A decoded command holds the command's protobuf bytes (`fields.bytes`), which `dump` writes
// byte by byte: formatted, it shows its summary, size, findings and the command as above.
extension LeanCloudDecodedCommand: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `LeanCloudDecodedCommand(session/open i=1, 97 bytes, 0 findings)`, then the command's
    /// description on the lines below, its credentials as their length.
    public var description: String {
        "LeanCloudDecodedCommand(\(summary), \(wireSize) bytes, \(counted(findings.count, "finding")))"
            + (command.map { "\n" + $0.description } ?? "")
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "kind": kind, "summary": summary, "wireSize": wireSize, "findings": findings, "command": command as Any,
            ],
            displayStyle: .struct)
    }
}

// The fields hold the command's protobuf bytes: formatted, they show its summary and size.
extension LeanCloudCommandFields: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `LeanCloudCommandFields(session/open i=1, 97 bytes)`.
    public var description: String {
        "LeanCloudCommandFields(\(LeanCloudNames.summary(of: self)), \(bytes.count) bytes)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self, children: ["summary": LeanCloudNames.summary(of: self), "bytes": "\(bytes.count) bytes"],
            displayStyle: .struct)
    }
}
