import IMWireCore

@testable import IMWireWebSocket

/// Builds a frame by hand (any bits, any length form) for tests.
func rawFrame(
    _ first: UInt8, _ payload: [UInt8] = [], mask: UInt32? = nil, lengthForm: Int? = nil
) -> [UInt8] {
    var out: [UInt8] = [first]
    let maskBit: UInt8 = mask == nil ? 0 : 0x80
    let form = lengthForm ?? (payload.count < 126 ? 7 : payload.count <= 0xffff ? 16 : 64)
    switch form {
    case 16:
        out += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    case 64:
        out.append(maskBit | 127)
        for shift in stride(from: 56, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(shift)))
        }
    default:
        out.append(maskBit | UInt8(payload.count))
    }
    if let mask {
        out += [UInt8(mask >> 24), UInt8((mask >> 16) & 0xff), UInt8((mask >> 8) & 0xff), UInt8(mask & 0xff)]
        out += WebSocketMasking.masked(payload, key: mask)
    } else {
        out += payload
    }
    return out
}

let testKey: UInt32 = 0x3712_a5c9

/// A client frame (masked with `testKey`).
func clientFrame(_ first: UInt8, _ payload: [UInt8] = []) -> [UInt8] { rawFrame(first, payload, mask: testKey) }

func decodeAll(
    _ bytes: [UInt8], direction: Direction = .send, deflate: PerMessageDeflateParameters? = nil,
    limits: Limits = .default,
    chunks: [Int]? = nil
) -> [WebSocketEvent] {
    var decoder = WebSocketStreamDecoder(
        WebSocketStreamConfiguration(direction: direction, permessageDeflate: deflate, limits: limits))
    var events: [WebSocketEvent] = []
    if let chunks {
        var start = 0
        for size in chunks where start < bytes.count {
            let end = min(bytes.count, start + size)
            events += decoder.feed(Array(bytes[start..<end]))
            start = end
        }
        if start < bytes.count { events += decoder.feed(Array(bytes[start...])) }
    } else {
        events += decoder.feed(bytes)
    }
    events += decoder.finish()
    return events
}

extension [WebSocketEvent] {
    var findings: [Finding] { compactMap { if case .finding(let f) = $0 { f } else { nil } } }
    var ruleIDs: [String] { findings.filter { $0.severity >= .warning }.map(\.ruleID.rawValue) }
    var messages: [WebSocketMessage] { compactMap { if case .message(let m) = $0 { m } else { nil } } }
    var frames: [WebSocketFrame] { compactMap { if case .frame(let f) = $0 { f } else { nil } } }
    var closes: [WebSocketClose] { compactMap { if case .close(let c) = $0 { c } else { nil } } }
}

/// A deterministic pseudo-random generator for chunk splits (seeded, no system randomness).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
