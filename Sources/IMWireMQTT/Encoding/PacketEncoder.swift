import IMWireCore

/// Writes packets in their canonical wire form: minimal remaining length, the flags each type
/// requires. It writes what it is given, so a test can build a packet that breaks a rule (an
/// empty topic, packet id 0) and the decoder's findings can be checked against it.
public enum MQTTPacketEncoder {
    public static func encode(_ packet: MQTTPacket) -> [UInt8] {
        var body: [UInt8] = []
        var flags: UInt8 = packet.type.requiredFlags ?? 0
        switch packet {
        case .connect(let connect):
            appendString(connect.protocolName, to: &body)
            body.append(connect.protocolLevel)
            var connectFlags: UInt8 = connect.cleanSession ? 0x02 : 0
            if let will = connect.will {
                connectFlags |= 0x04 | will.qos.rawValue << 3 | (will.retain ? 0x20 : 0)
            }
            if connect.password != nil { connectFlags |= 0x40 }
            if connect.username != nil { connectFlags |= 0x80 }
            body.append(connectFlags)
            appendUInt16(connect.keepAlive, to: &body)
            appendString(connect.clientID, to: &body)
            if let will = connect.will {
                appendString(will.topic, to: &body)
                appendBinary(will.message, to: &body)
            }
            if let username = connect.username { appendString(username, to: &body) }
            if let password = connect.password { appendBinary(password, to: &body) }
        case .connack(let connack):
            body.append(connack.sessionPresent ? 1 : 0)
            body.append(connack.returnCode)
        case .publish(let publish):
            flags = (publish.dup ? 0x08 : 0) | publish.qos.rawValue << 1 | (publish.retain ? 0x01 : 0)
            appendString(publish.topic, to: &body)
            if let id = publish.packetID { appendUInt16(id, to: &body) }
            body.append(contentsOf: publish.payload)
        case .puback(let id), .pubrec(let id), .pubcomp(let id), .unsuback(let id):
            appendUInt16(id, to: &body)
        case .pubrel(let id, let dup):
            if dup { flags |= 0x08 }
            appendUInt16(id, to: &body)
        case .subscribe(let subscribe):
            if subscribe.dup { flags |= 0x08 }
            appendUInt16(subscribe.packetID, to: &body)
            for subscription in subscribe.subscriptions {
                appendString(subscription.topicFilter, to: &body)
                body.append(subscription.qos.rawValue)
            }
        case .suback(let suback):
            appendUInt16(suback.packetID, to: &body)
            body.append(contentsOf: suback.returnCodes)
        case .unsubscribe(let unsubscribe):
            if unsubscribe.dup { flags |= 0x08 }
            appendUInt16(unsubscribe.packetID, to: &body)
            for filter in unsubscribe.topicFilters { appendString(filter, to: &body) }
        case .pingreq, .pingresp, .disconnect:
            break
        }
        var out: [UInt8] = [packet.type.rawValue << 4 | flags]
        out.reserveCapacity(body.count + 5)
        RemainingLength.encode(body.count, into: &out)
        out.append(contentsOf: body)
        return out
    }

    private static func appendUInt16(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(value >> 8))
        out.append(UInt8(value & 0xff))
    }

    /// Strings and binary fields longer than 65535 bytes are cut to fit their 2-byte length.
    private static func appendBinary(_ bytes: [UInt8], to out: inout [UInt8]) {
        let count = min(bytes.count, Int(UInt16.max))
        appendUInt16(UInt16(count), to: &out)
        out.append(contentsOf: bytes[0..<count])
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        appendBinary(Array(text.utf8), to: &out)
    }
}
