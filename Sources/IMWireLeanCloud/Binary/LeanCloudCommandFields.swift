import IMWireCore
import SwiftProtobuf

/// The fields of a `GenericCommand` that the session rules read, taken from the protobuf bytes
/// during the wire scanner's one pass, with protobuf's own semantics: the last value of a field
/// wins, a sub-message given twice is merged, an enum value the schema does not define is dropped
/// (proto2 enums are closed), an int32 keeps the low 32 bits, a bool is any non-zero varint.
/// Strings stay in `bytes` until asked for. Building swift-protobuf's `LCGenericCommand` for every
/// frame was a sixth of a capture check; `typedCommand()` builds it when a caller wants it.
public struct LeanCloudCommandFields: Sendable {
    /// A field the session rules read: a top-level one, or one inside the sub-message it names.
    public enum Field: Int, CaseIterable, Sendable {
        case cmd, op, appID, peerID, i, service
        case sessionR, sessionCode
        case errorCode, errorReason
        case directMsg, directFromPeerID, directTimestamp, directCID, directID, directTransient, directConvType
        case ackCode, ackMid, ackCID, ackFromts, ackTots

        /// Whether the schema declares the field a `string` (its value is a place in `bytes`).
        public var isString: Bool { Table.shared.isString(self) }

        /// The sub-message of `GenericCommand` that holds the field (nil: top level), and the
        /// field's name as the schema spells it.
        public var path: (subMessage: LeanCloudSubMessage?, name: String) {
            switch self {
            case .cmd: (nil, "cmd")
            case .op: (nil, "op")
            case .appID: (nil, "appId")
            case .peerID: (nil, "peerId")
            case .i: (nil, "i")
            case .service: (nil, "service")
            case .sessionR: (.sessionMessage, "r")
            case .sessionCode: (.sessionMessage, "code")
            case .errorCode: (.errorMessage, "code")
            case .errorReason: (.errorMessage, "reason")
            case .directMsg: (.directMessage, "msg")
            case .directFromPeerID: (.directMessage, "fromPeerId")
            case .directTimestamp: (.directMessage, "timestamp")
            case .directCID: (.directMessage, "cid")
            case .directID: (.directMessage, "id")
            case .directTransient: (.directMessage, "transient")
            case .directConvType: (.directMessage, "convType")
            case .ackCode: (.ackMessage, "code")
            case .ackMid: (.ackMessage, "mid")
            case .ackCID: (.ackMessage, "cid")
            case .ackFromts: (.ackMessage, "fromts")
            case .ackTots: (.ackMessage, "tots")
            }
        }
    }

    /// The recorded values live in one object: the fields travel with every decoded frame, and
    /// a reference copies as one retain where inline values are some 200 bytes, several times a frame.
    private let storage: Storage

    /// Written only by the wire scanner that creates it, before the fields are handed out,
    /// which is what makes the unchecked `Sendable` (and the unchecked exclusivity) sound.
    private final class Storage: @unchecked Sendable {
        let bytes: [UInt8]
        /// Depth limit for `typedCommand()`: the one the scan was held to.
        let nestingLimit: Int
        /// A varint field's value (converted as its type says), or a string field's place in
        /// `bytes`: its start in the low 32 bits, its length in the high ones (`maxBytes` keeps
        /// both in range).
        @exclusivity(unchecked) var values = InlineArray<22, Int64>(repeating: 0)
        /// Which fields were given, a bit per `Field`.
        @exclusivity(unchecked) var given: UInt32 = 0
        /// Which sub-messages of `GenericCommand` were given with their declared wire type (a bit
        /// per field number from 100): those a protobuf parser sets.
        @exclusivity(unchecked) var subMessageBits: UInt32 = 0

        init(bytes: [UInt8], nestingLimit: Int) {
            self.bytes = bytes
            self.nestingLimit = nestingLimit
        }
    }

    /// The protobuf bytes of the command; string fields are ranges of it.
    public var bytes: [UInt8] { storage.bytes }

    /// The largest command whose fields can be recorded (string places are 32-bit).
    static let maxBytes = Int(UInt32.max)

    init(bytes: [UInt8], nestingLimit: Int) {
        storage = Storage(bytes: bytes, nestingLimit: nestingLimit)
    }

    // MARK: reading

    public func has(_ field: Field) -> Bool { storage.given & (1 << UInt32(field.rawValue)) != 0 }

    /// An integer, enum or bool field's value (bools as 0 or 1).
    public func integer(_ field: Field) -> Int64? { has(field) ? storage.values[field.rawValue] : nil }

    public func string(_ field: Field) -> String? {
        guard has(field) else { return nil }
        return withUTF8(field) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with a string field's bytes (valid UTF-8: the scan checked them), or with an
    /// empty buffer when the field was not given.
    public func withUTF8<T>(_ field: Field, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        guard has(field) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        let place = UInt64(bitPattern: storage.values[field.rawValue])
        let start = Int(truncatingIfNeeded: place & 0xffff_ffff)
        let end = start + Int(truncatingIfNeeded: place >> 32)
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }

    public var cmd: LCCommandType? { integer(.cmd).flatMap { LCCommandType(rawValue: Int($0)) } }
    /// The cmd as proto2 reads it: an absent one is the enum's first value, `session`.
    public var cmdOrDefault: LCCommandType { cmd ?? .session }
    public var op: LCOpType? { integer(.op).flatMap { LCOpType(rawValue: Int($0)) } }
    public var i: Int32? { integer(.i).map { Int32(truncatingIfNeeded: $0) } }
    public func int32(_ field: Field) -> Int32? { integer(field).map { Int32(truncatingIfNeeded: $0) } }
    public func bool(_ field: Field) -> Bool { integer(field) == 1 }

    /// Whether the sub-message was given (with its declared wire type), even empty.
    public func has(_ subMessage: LeanCloudSubMessage) -> Bool {
        storage.subMessageBits & (1 << UInt32(subMessage.rawValue - 100)) != 0
    }

    public var subMessageCount: Int { storage.subMessageBits.nonzeroBitCount }

    /// The sub-messages given, in field order.
    public var subMessages: [LeanCloudSubMessage] {
        guard storage.subMessageBits != 0 else { return [] }
        return LeanCloudSubMessage.allCases.filter(has)
    }

    /// The command as swift-protobuf's typed value, decoded from `bytes`. Nil only if
    /// swift-protobuf refuses bytes the scan accepted, which the differential fuzz target
    /// (`LeanCloudDifferential`) looks for.
    public func typedCommand() -> LCGenericCommand? {
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = storage.nestingLimit + 1
        return try? LCGenericCommand(serializedBytes: bytes, partial: true, options: options)
    }

    // MARK: recording (the wire scanner)

    /// Which `Field` sits at field `number` of the message found at `place` (`Place.root` for
    /// `GenericCommand`, or the place of one of its sub-messages); nil for the rest.
    struct Place {
        let index: Int
        static let root = Place(index: 0)
        /// Not a message whose fields are recorded.
        static let elsewhere = Place(index: -1)
        var isRecorded: Bool { index >= 0 }
        var isRoot: Bool { index == 0 }

        /// The place of the sub-message in field `number` of the message at this place.
        func child(_ number: Int32) -> Place {
            guard isRoot, let slot = Table.shared.subMessageSlot(number) else { return .elsewhere }
            return Place(index: slot)
        }
    }

    /// `Field`s by (place, number), built from the schema by name, so no field number is typed twice.
    struct Table: Sendable {
        static let shared = Table()
        /// The sub-messages that hold recorded fields, by their place (from 1).
        private let places: [LeanCloudSubMessage]
        /// `fields[place * 128 + number]`: the `Field`'s raw value, or -1.
        private let fields: [Int8]
        /// The string fields, a bit per `Field`.
        private let strings: UInt32

        private init() {
            precondition(
                Field.allCases.count <= min(22, UInt32.bitWidth),
                "LeanCloudCommandFields: more fields than Storage.values and given hold")
            let root = LeanCloudSchema.message(LeanCloudSchema.genericCommand)
            var places: [LeanCloudSubMessage] = []
            for field in Field.allCases {
                if let sub = field.path.subMessage, !places.contains(sub) { places.append(sub) }
            }
            var fields = [Int8](repeating: -1, count: (places.count + 1) * 128)
            var strings: UInt32 = 0
            for field in Field.allCases {
                let message: LeanCloudMessageSchema
                var place = 0
                if let sub = field.path.subMessage {
                    guard case .message(let id)? = root.field(number: sub.rawValue)?.type else {
                        fatalError("schema: \(sub)")
                    }
                    message = LeanCloudSchema.message(id)
                    place = places.firstIndex(of: sub)! + 1
                } else {
                    message = root
                }
                guard let schema = message.field(named: field.path.name), schema.number < 128 else {
                    fatalError("schema: \(message.name) has no field \(field.path.name)")
                }
                fields[place * 128 + Int(schema.number)] = Int8(field.rawValue)
                if case .string = schema.type { strings |= 1 << UInt32(field.rawValue) }
            }
            self.places = places
            self.fields = fields
            self.strings = strings
        }

        func isString(_ field: Field) -> Bool { strings & (1 << UInt32(field.rawValue)) != 0 }

        func subMessageSlot(_ number: Int32) -> Int? {
            places.firstIndex { $0.rawValue == number }.map { $0 + 1 }
        }

        func field(at place: Place, _ number: Int32) -> Field? {
            guard place.isRecorded, (0..<128).contains(number) else { return nil }
            let raw = fields[place.index * 128 + Int(number)]
            return raw < 0 ? nil : Field(rawValue: Int(raw))
        }
    }

    func record(_ field: Field, value: Int64) {
        storage.values[field.rawValue] = value
        storage.given |= 1 << UInt32(field.rawValue)
    }

    /// A string field at `start..<start + length` of `bytes` (no more than `maxBytes`).
    func record(_ field: Field, start: Int, length: Int) {
        storage.values[field.rawValue] = Int64(
            bitPattern: UInt64(UInt32(truncatingIfNeeded: start)) | UInt64(UInt32(truncatingIfNeeded: length)) << 32)
        storage.given |= 1 << UInt32(field.rawValue)
    }

    func recordSubMessage(_ number: Int32) {
        guard let sub = LeanCloudSubMessage(rawValue: number) else { return }
        storage.subMessageBits |= 1 << UInt32(sub.rawValue - 100)
    }
}

extension LeanCloudCommandFields {
    /// Where these fields differ from the same fields of `command` (swift-protobuf's value of the
    /// same bytes): empty when they agree. The differential fuzz target and the tests hold the
    /// one-pass recording to protobuf's semantics with it.
    public func differences(from command: LCGenericCommand) -> [String] {
        func expected(_ field: Field) -> String? {
            switch field {
            case .cmd: command.hasCmd ? "\(command.cmd.rawValue)" : nil
            case .op: command.hasOp ? "\(command.op.rawValue)" : nil
            case .appID: command.hasAppID ? command.appID : nil
            case .peerID: command.hasPeerID ? command.peerID : nil
            case .i: command.hasI ? "\(command.i)" : nil
            case .service: command.hasService ? "\(command.service)" : nil
            case .sessionR: command.sessionMessage.hasR ? (command.sessionMessage.r ? "1" : "0") : nil
            case .sessionCode: command.sessionMessage.hasCode ? "\(command.sessionMessage.code)" : nil
            case .errorCode: command.errorMessage.hasCode ? "\(command.errorMessage.code)" : nil
            case .errorReason: command.errorMessage.hasReason ? command.errorMessage.reason : nil
            case .directMsg: command.directMessage.hasMsg ? command.directMessage.msg : nil
            case .directFromPeerID: command.directMessage.hasFromPeerID ? command.directMessage.fromPeerID : nil
            case .directTimestamp: command.directMessage.hasTimestamp ? "\(command.directMessage.timestamp)" : nil
            case .directCID: command.directMessage.hasCid ? command.directMessage.cid : nil
            case .directID: command.directMessage.hasID ? command.directMessage.id : nil
            case .directTransient:
                command.directMessage.hasTransient ? (command.directMessage.transient ? "1" : "0") : nil
            case .directConvType: command.directMessage.hasConvType ? "\(command.directMessage.convType)" : nil
            case .ackCode: command.ackMessage.hasCode ? "\(command.ackMessage.code)" : nil
            case .ackMid: command.ackMessage.hasMid ? command.ackMessage.mid : nil
            case .ackCID: command.ackMessage.hasCid ? command.ackMessage.cid : nil
            case .ackFromts: command.ackMessage.hasFromts ? "\(command.ackMessage.fromts)" : nil
            case .ackTots: command.ackMessage.hasTots ? "\(command.ackMessage.tots)" : nil
            }
        }
        var differences: [String] = []
        for field in Field.allCases {
            let ours = field.isString ? string(field) : integer(field).map { "\($0)" }
            let theirs = expected(field)
            if ours != theirs {
                differences.append(
                    "\(field): \(ours ?? "absent") here, \(theirs ?? "absent") in swift-protobuf's value")
            }
        }
        if subMessages != LeanCloudSubMessage.present(in: command) {
            differences.append(
                """
                sub-messages \(subMessages) here, \
                \(LeanCloudSubMessage.present(in: command)) in swift-protobuf's value
                """)
        }
        return differences
    }
}
