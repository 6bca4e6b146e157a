import IMWireCore

/// Settings of an MQTT decode.
public struct MQTTDecodeOptions: Sendable {
    /// The version of the connection. Nil: learn it from the CONNECT, 3.1.1 until one is seen.
    public var version: MQTTVersion?
    public var limits: Limits
    /// CONNACK return codes above 5 that the dialect defines (yun2win: 6 and 7), so they are not
    /// reported as reserved.
    public var vendorConnackCodes: Set<UInt8>

    public init(version: MQTTVersion? = nil, limits: Limits = .default, vendorConnackCodes: Set<UInt8> = []) {
        self.version = version
        self.limits = limits
        self.vendorConnackCodes = vendorConnackCodes
    }
}

/// One packet out of a byte stream: the value when it could be built, every finding (offsets from
/// the packet's first byte), and where it sat in the stream.
public struct MQTTDecodedPacket: WireDecoded, Hashable {
    public var packet: MQTTPacket?
    public var findings: [Finding]
    /// Offset of the packet's first byte in the stream.
    public var streamOffset: Int
    /// Header plus announced body (bytes actually seen may be fewer when truncated).
    public var length: Int
    /// The type nibble of the first byte.
    public var typeNibble: UInt8
    /// The version the packet was read under.
    public var version: MQTTVersion

    public var type: MQTTPacketType? { MQTTPacketType(rawValue: typeNibble) }

    /// `PUBLISH q0 y2w/session/p2p_1 (42 B)`, or `malformed SUBSCRIBE`.
    public var summary: String {
        packet?.summary ?? "malformed \(type?.name ?? "type \(typeNibble)")"
    }
}

/// Decodes the body of one framed packet. Never traps: each deviation is a finding, and the packet
/// is nil only when its fields cannot be read (or PUBLISH QoS 3, whose layout is unknown).
enum PacketBodyDecoder {
    static func decode(
        header: MQTTFixedHeader, body: UnsafeRawBufferPointer, version: MQTTVersion,
        options: MQTTDecodeOptions
    ) -> (MQTTPacket?, [Finding]) {
        var fields = FieldReader(ByteReader(body, baseOffset: header.headerLength))
        guard let type = header.type else {
            fields.report(MQTTRules.packetTypeReserved, "packet type \(header.typeNibble) is reserved", at: 0)
            return (nil, fields.findings)
        }
        if header.nonMinimalLength {
            fields.report(
                MQTTRules.remainingLengthNonMinimal,
                "remaining length \(header.remainingLength) in \(header.headerLength - 1) bytes", at: 1)
        }
        let connectVersion = type == .connect ? connectLevelVersion(body) : nil
        checkFlags(type, header.flags, version: connectVersion ?? version, into: &fields)
        let packet: MQTTPacket?
        switch type {
        case .connect: packet = connect(&fields).map(MQTTPacket.connect)
        case .connack: packet = connack(&fields, version: version, options: options).map(MQTTPacket.connack)
        case .publish: packet = publish(&fields, flags: header.flags).map(MQTTPacket.publish)
        case .puback: packet = fields.packetID().map { .puback(packetID: $0) }
        case .pubrec: packet = fields.packetID().map { .pubrec(packetID: $0) }
        case .pubrel: packet = fields.packetID().map { .pubrel(packetID: $0, dup: header.flags & 0x08 != 0) }
        case .pubcomp: packet = fields.packetID().map { .pubcomp(packetID: $0) }
        case .unsuback: packet = fields.packetID().map { .unsuback(packetID: $0) }
        case .subscribe: packet = subscribe(&fields, dup: header.flags & 0x08 != 0).map(MQTTPacket.subscribe)
        case .suback: packet = suback(&fields, version: version).map(MQTTPacket.suback)
        case .unsubscribe: packet = unsubscribe(&fields, dup: header.flags & 0x08 != 0).map(MQTTPacket.unsubscribe)
        case .pingreq: packet = .pingreq
        case .pingresp: packet = .pingresp
        case .disconnect: packet = .disconnect
        }
        if packet != nil { fields.expectEnd(type) }
        return (packet, fields.findings)
    }

    /// The version a CONNECT body's protocol level names, read without findings.
    private static func connectLevelVersion(_ body: UnsafeRawBufferPointer) -> MQTTVersion? {
        guard body.count >= 2 else { return nil }
        let nameLength = Int(body[0]) << 8 | Int(body[1])
        guard body.count > 2 + nameLength else { return nil }
        return MQTTVersion(level: body[2 + nameLength])
    }

    private static func checkFlags(
        _ type: MQTTPacketType, _ flags: UInt8, version: MQTTVersion, into fields: inout FieldReader
    ) {
        guard let required = type.requiredFlags, flags != required else { return }
        let bits = String(flags, radix: 2)
        let shown = String(repeating: "0", count: 4 - bits.count) + bits
        switch version {
        case .v3_1_1:
            fields.report(
                MQTTRules.fixedHeaderFlags, "\(type.name) flags \(shown), must be \(required == 0 ? "0000" : "0010")",
                at: 0)
        case .v3_1:
            // 3.1 sets DUP when it re-sends a PUBREL, SUBSCRIBE or UNSUBSCRIBE.
            if required == 0b0010, flags == 0b1010 { return }
            fields.report(MQTTRules.fixedHeaderFlagsV31, "\(type.name) flags \(shown) under MQTT 3.1", at: 0)
        }
    }

    private static func connect(_ fields: inout FieldReader) -> MQTTConnect? {
        guard let (name, nameOffset) = fields.string("protocol name") else { return nil }
        let levelOffset = fields.offset
        guard let level = fields.byte("protocol level") else { return nil }
        let flagsOffset = fields.offset
        guard let flags = fields.byte("connect flags"), let keepAlive = fields.uint16("keep alive") else { return nil }

        let namedVersion: MQTTVersion? = name == "MQTT" ? .v3_1_1 : (name == "MQIsdp" ? .v3_1 : nil)
        let levelVersion = MQTTVersion(level: level)
        if namedVersion == nil {
            fields.report(MQTTRules.protocolNameInvalid, "protocol name \"\(name)\"", at: nameOffset)
        }
        if levelVersion == nil {
            fields.report(MQTTRules.protocolLevelUnsupported, "protocol level \(level)", at: levelOffset)
        }
        if let namedVersion, let levelVersion, namedVersion != levelVersion {
            fields.report(MQTTRules.protocolNameLevelMismatch, "\"\(name)\" with level \(level)", at: levelOffset)
        }
        let version = levelVersion ?? namedVersion ?? .v3_1_1

        let hasUsername = flags & 0x80 != 0
        let hasPassword = flags & 0x40 != 0
        let willRetain = flags & 0x20 != 0
        let willQoSBits = (flags >> 3) & 0x03
        let hasWill = flags & 0x04 != 0
        let cleanSession = flags & 0x02 != 0
        if flags & 0x01 != 0 {
            fields.report(MQTTRules.connectReservedFlag, "connect flags bit 0 is set", at: flagsOffset)
        }
        if !hasWill, willQoSBits != 0 || willRetain {
            fields.report(
                MQTTRules.willFlagsInconsistent,
                "will QoS \(willQoSBits), will retain \(willRetain) without the will flag", at: flagsOffset)
        }
        if willQoSBits == 3 { fields.report(MQTTRules.willQoSInvalid, "will QoS 3", at: flagsOffset) }
        if hasPassword, !hasUsername {
            fields.report(MQTTRules.passwordWithoutUsername, "password flag set, user name flag clear", at: flagsOffset)
        }

        guard let (clientID, clientOffset) = fields.string("client identifier") else { return nil }
        let idLength = clientID.unicodeScalars.count
        if idLength == 0 {
            if version == .v3_1 {
                fields.report(
                    MQTTRules.clientIDEmpty, "MQTT 3.1 needs a client identifier of 1–23 characters",
                    at: clientOffset - 2)
            } else if !cleanSession {
                fields.report(
                    MQTTRules.clientIDEmpty, "empty client identifier with clean session 0", at: clientOffset - 2)
            }
        } else if version == .v3_1, idLength > 23 {
            fields.report(
                MQTTRules.clientIDTooLongV31, "client identifier of \(idLength) characters under MQTT 3.1",
                at: clientOffset - 2)
        }

        var will: MQTTConnect.Will?
        if hasWill {
            guard let (topic, _) = fields.string("will topic"), let (message, _) = fields.binary("will message") else {
                return nil
            }
            will = MQTTConnect.Will(
                topic: topic, message: message, qos: MQTTQoS(rawValue: willQoSBits) ?? .exactlyOnce,
                retain: willRetain)
        }
        var username: String?
        if hasUsername {
            guard let (text, _) = fields.string("user name") else { return nil }
            username = text
        }
        var password: [UInt8]?
        if hasPassword {
            guard let (bytes, _) = fields.binary("password") else { return nil }
            password = bytes
        }
        return MQTTConnect(
            protocolName: name, protocolLevel: level, cleanSession: cleanSession, keepAlive: keepAlive,
            clientID: clientID, will: will, username: username, password: password)
    }

    private static func connack(_ fields: inout FieldReader, version: MQTTVersion, options: MQTTDecodeOptions)
        -> MQTTConnack?
    {
        guard let flags = fields.byte("acknowledge flags") else { return nil }
        guard let code = fields.byte("return code") else { return nil }
        let reserved: UInt8 = version == .v3_1 ? 0xff : 0xfe
        if flags & reserved != 0 {
            fields.report(
                MQTTRules.connackFlagsReserved, "acknowledge flags 0x\(Hex.encode([flags])) under \(version.specName)",
                at: 2)
        }
        let sessionPresent = version == .v3_1_1 && flags & 0x01 != 0
        if sessionPresent, code != 0 {
            fields.report(MQTTRules.connackSessionPresentOnRefusal, "session present with return code \(code)", at: 2)
        }
        if code > 5, !options.vendorConnackCodes.contains(code) {
            fields.report(MQTTRules.connackReturnCodeReserved, "return code \(code)", at: 3)
        }
        return MQTTConnack(sessionPresent: sessionPresent, returnCode: code)
    }

    private static func publish(_ fields: inout FieldReader, flags: UInt8) -> MQTTPublish? {
        let qosBits = (flags >> 1) & 0x03
        guard let qos = MQTTQoS(rawValue: qosBits) else {
            fields.report(MQTTRules.publishQoSInvalid, "PUBLISH with QoS 3", at: 0)
            return nil
        }
        let dup = flags & 0x08 != 0
        if dup, qos == .atMostOnce { fields.report(MQTTRules.publishDupQoS0, "DUP set on a QoS 0 PUBLISH", at: 0) }
        let topicStart = fields.offset
        guard let (topic, textOffset) = fields.string("topic name") else { return nil }
        if topic.isEmpty {
            fields.report(MQTTRules.topicEmpty, "zero-length topic name", at: topicStart)
        } else if let index = TopicSyntax.wildcardIndex(topic) {
            fields.report(MQTTRules.topicWildcard, "wildcard in topic name \"\(topic)\"", at: textOffset + index)
        }
        var packetID: UInt16?
        if qos != .atMostOnce {
            guard let id = fields.packetID() else { return nil }
            packetID = id
        }
        let payload = Array(fields.reader.readRest())
        return MQTTPublish(
            dup: dup, qos: qos, retain: flags & 0x01 != 0, topic: topic, packetID: packetID, payload: payload)
    }

    private static func subscribe(_ fields: inout FieldReader, dup: Bool) -> MQTTSubscribe? {
        guard let id = fields.packetID() else { return nil }
        if fields.isAtEnd {
            fields.report(MQTTRules.payloadEmpty, "SUBSCRIBE without a topic filter", at: fields.offset)
        }
        var subscriptions: [MQTTSubscribe.Subscription] = []
        while !fields.isAtEnd {
            guard let (filter, textOffset) = fields.string("topic filter") else { return nil }
            checkFilter(filter, at: textOffset, into: &fields)
            let qosOffset = fields.offset
            guard let requested = fields.byte("requested QoS") else { return nil }
            if requested & 0xfc != 0 || requested == 3 {
                fields.report(
                    MQTTRules.subscribeQoSInvalid, "requested QoS byte 0x\(Hex.encode([requested]))", at: qosOffset)
            }
            subscriptions.append(
                .init(topicFilter: filter, qos: MQTTQoS(rawValue: min(requested & 0x03, 2)) ?? .exactlyOnce))
        }
        return MQTTSubscribe(packetID: id, subscriptions: subscriptions, dup: dup)
    }

    private static func suback(_ fields: inout FieldReader, version: MQTTVersion) -> MQTTSuback? {
        guard let id = fields.packetID() else { return nil }
        if fields.isAtEnd { fields.report(MQTTRules.payloadEmpty, "SUBACK without a return code", at: fields.offset) }
        var codes: [UInt8] = []
        while let code = fields.reader.peekUInt8() {
            let offset = fields.offset
            _ = fields.reader.readUInt8()
            let valid = code <= 2 || (code == 0x80 && version == .v3_1_1)
            if !valid {
                fields.report(
                    MQTTRules.subackReturnCodeInvalid, "return code 0x\(Hex.encode([code])) under \(version.specName)",
                    at: offset)
            }
            codes.append(code)
        }
        return MQTTSuback(packetID: id, returnCodes: codes)
    }

    private static func unsubscribe(_ fields: inout FieldReader, dup: Bool) -> MQTTUnsubscribe? {
        guard let id = fields.packetID() else { return nil }
        if fields.isAtEnd {
            fields.report(MQTTRules.payloadEmpty, "UNSUBSCRIBE without a topic filter", at: fields.offset)
        }
        var filters: [String] = []
        while !fields.isAtEnd {
            guard let (filter, textOffset) = fields.string("topic filter") else { return nil }
            checkFilter(filter, at: textOffset, into: &fields)
            filters.append(filter)
        }
        return MQTTUnsubscribe(packetID: id, topicFilters: filters, dup: dup)
    }

    private static func checkFilter(_ filter: String, at offset: Int, into fields: inout FieldReader) {
        guard let (reason, index) = TopicSyntax.filterProblem(filter) else { return }
        fields.report(
            MQTTRules.topicFilterInvalid, "\(reason): \"\(filter)\"", at: filter.isEmpty ? offset - 2 : offset + index)
    }
}
