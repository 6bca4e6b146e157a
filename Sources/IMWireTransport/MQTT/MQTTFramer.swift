import IMWireCore
import IMWireMQTT

/// One direction of MQTT over raw TCP cut into packets: a segment holding three packets gives
/// three messages, a packet spread over segments one. When no packet boundary can be found (a
/// remaining length over four bytes, a packet over the size limit), the rest of the direction
/// passes as it comes, for the dialect's MQTT decoder to report.
struct MQTTFramer {
    private var buffer: [UInt8] = []
    private var unframed = false
    let maxPacket: Int

    init(maxPacket: Int) { self.maxPacket = maxPacket }

    /// Whether `bytes` (a client's first bytes) begin an MQTT CONNECT: type 1, a valid
    /// remaining length, and protocol name `MQTT` (3.1.1) or `MQIsdp` (3.1). Nil while too few
    /// bytes have arrived to tell.
    static func isConnect(_ bytes: [UInt8]) -> Bool? {
        guard let first = bytes.first else { return nil }
        guard first == 0x10 else { return false }
        let extent = bytes.withUnsafeBytes { MQTTFixedHeader.extent($0) }
        guard case .packet = extent else { return extent == .needMore ? nil : false }
        var headerLength = 2
        while headerLength < min(bytes.count, 5), bytes[headerLength - 1] & 0x80 != 0 { headerLength += 1 }
        let nameStart = headerLength + 2
        guard bytes.count >= nameStart + 4 else { return nil }
        let nameLength = Int(bytes[headerLength]) << 8 | Int(bytes[headerLength + 1])
        guard nameLength == 4 || nameLength == 6 else { return false }
        guard bytes.count >= nameStart + nameLength else { return nil }
        let name = bytes[nameStart..<(nameStart + nameLength)]
        return name.elementsEqual("MQTT".utf8) || name.elementsEqual("MQIsdp".utf8)
    }

    /// The whole packets `bytes` complete, in order.
    mutating func feed(_ bytes: [UInt8], _ emit: ([UInt8]) -> Void) {
        if unframed {
            if !bytes.isEmpty { emit(bytes) }
            return
        }
        if buffer.isEmpty {
            // The usual case: the segment holds whole packets; slice them without buffering.
            var start = 0
            while start < bytes.count {
                let extent = bytes.withUnsafeBytes {
                    MQTTFixedHeader.extent(UnsafeRawBufferPointer(rebasing: $0[start...]))
                }
                guard case .packet(let length) = extent, length <= bytes.count - start else { break }
                emit(Array(bytes[start..<(start + length)]))
                start += length
            }
            if start < bytes.count { append(Array(bytes[start...]), emit) }
            return
        }
        append(bytes, emit)
    }

    private mutating func append(_ bytes: [UInt8], _ emit: ([UInt8]) -> Void) {
        buffer += bytes
        while !buffer.isEmpty {
            switch buffer.withUnsafeBytes({ MQTTFixedHeader.extent($0) }) {
            case .needMore:
                return
            case .malformed:
                passRest(emit)
                return
            case .packet(let length):
                guard length <= maxPacket else {
                    passRest(emit)
                    return
                }
                guard length <= buffer.count else { return }
                emit(Array(buffer[..<length]))
                buffer.removeFirst(length)
            }
        }
    }

    private mutating func passRest(_ emit: ([UInt8]) -> Void) {
        unframed = true
        let rest = buffer
        buffer = []
        emit(rest)
    }

    /// The direction ended: a packet cut short goes out as it is (the decoder reports it).
    mutating func finish(_ emit: ([UInt8]) -> Void) {
        guard !buffer.isEmpty else { return }
        let rest = buffer
        buffer = []
        emit(rest)
    }
}
