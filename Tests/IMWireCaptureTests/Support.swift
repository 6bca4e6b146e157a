import Foundation
import IMWireCore
import IMWireIO

@testable import IMWireCapture

/// This test process's folder for temporary files, removed when the process exits: tests hand
/// the paths straight to readers, so no test can remove its own file afterwards.
private let temporaryFolder: String = {
    let path = NSTemporaryDirectory() + "imwire-capture-tests-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "imwire-capture-tests-\(getpid())") }
    return path
}()

/// Writes bytes to a fresh temporary file and returns its path.
func temporaryFile(_ bytes: [UInt8], suffix: String = ".bin") throws -> String {
    let path = "\(temporaryFolder)/\(UInt64.random(in: 0...UInt64.max))\(suffix)"
    try TextFile.write(bytes, to: path)
    return path
}

/// Every item of a capture source, described compactly for comparisons.
func items(_ source: any CaptureSource) -> [String] {
    var out: [String] = []
    while let item = source.next() {
        switch item {
        case .problem(let finding): out.append("problem \(finding.ruleID)")
        case .secrets(let secrets): out.append("secrets \(secrets.data.count)")
        case .event(let event):
            switch event.kind {
            case .open(let info): out.append("open \(event.connection) \(info.client ?? "")→\(info.server ?? "")")
            case .stream(let direction, let bytes):
                out.append("\(direction.rawValue) \(String(decoding: bytes, as: UTF8.self))")
            case .gap(let direction, let count): out.append("gap \(direction.rawValue) \(count)")
            case .message(let message):
                out.append("message \(message.direction.rawValue) \(String(decoding: message.payload, as: UTF8.self))")
            case .streamEnd(let direction): out.append("end \(direction.rawValue)")
            case .close: out.append("close \(event.connection)")
            }
        }
    }
    return out
}

/// Joins the stream chunks of each direction: what a reader of the stream sees, whatever the chunking.
func streams(_ described: [String]) -> (send: String, receive: String) {
    var send = ""
    var receive = ""
    for line in described {
        if line.hasPrefix("send ") { send += line.dropFirst(5) }
        if line.hasPrefix("receive ") { receive += line.dropFirst(8) }
    }
    return (send, receive)
}

/// A classic pcap file: header in the given byte order, one record per packet.
func pcap(
    _ packets: [(time: Int64, data: [UInt8])], order: Endianness = .little, nanoseconds: Bool = false,
    linkType: UInt32 = 101,
    snapLength: UInt32 = 65_535
) -> [UInt8] {
    var writer = ByteWriter()
    writer.append(nanoseconds ? UInt32(0xa1b2_3c4d) : UInt32(0xa1b2_c3d4), order)
    writer.append(UInt16(2), order)
    writer.append(UInt16(4), order)
    writer.append(UInt32(0), order)
    writer.append(UInt32(0), order)
    writer.append(snapLength, order)
    writer.append(linkType, order)
    for packet in packets {
        writer.append(UInt32(packet.time / 1_000_000), order)
        let fraction = packet.time % 1_000_000
        writer.append(UInt32(nanoseconds ? fraction * 1000 : fraction), order)
        writer.append(UInt32(packet.data.count), order)
        writer.append(UInt32(packet.data.count), order)
        writer.append(contentsOf: packet.data)
    }
    return writer.bytes
}
