import Foundation
import Testing

@testable import IMWireCapture

/// The sharder's socket.io session-id sniffing, read in place, against the plain collection
/// algorithms it replaced: every TCP payload of the sample captures, each cut at several
/// lengths and with single bytes changed, and hand-made requests and handshakes.
@Suite struct ShardSidTests {
    /// The sniffing as first written, with the generic collection algorithms.
    static func reference(_ payload: ArraySlice<UInt8>, fromClient: Bool) -> [UInt8]? {
        let head = Array(payload.prefix(1024))
        if fromClient {
            guard head.starts(with: Array("GET ".utf8)) || head.starts(with: Array("POST ".utf8)),
                let space = head.firstIndex(of: 0x20)
            else { return nil }
            let target = Array(head[(space + 1)...].prefix { $0 != 0x20 && $0 != 0x0d })
            guard let root = target.firstRange(of: Array("/socket.io/".utf8)) else { return nil }
            if let sid = target.firstRange(of: Array("sid=".utf8)) {
                let value = Array(target[sid.upperBound...].prefix { $0 != UInt8(ascii: "&") })
                return value.isEmpty ? nil : value
            }
            let path = target[root.upperBound...].prefix { $0 != UInt8(ascii: "?") }
            let segments = path.split(separator: UInt8(ascii: "/"))
            return segments.count == 3 && segments[0].elementsEqual("1".utf8) ? Array(segments[2]) : nil
        }
        if let key = head.firstRange(of: Array("\"sid\":\"".utf8)) {
            let value = Array(head[key.upperBound...].prefix { $0 != UInt8(ascii: "\"") })
            return value.isEmpty ? nil : value
        }
        guard head.starts(with: Array("HTTP/1.".utf8)), let end = head.firstRange(of: Array("\r\n\r\n".utf8)) else {
            return nil
        }
        let fields = head[end.upperBound...].split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count == 4, !fields[0].isEmpty,
            fields[3].firstRange(of: Array("polling".utf8)) != nil
                || fields[3].firstRange(of: Array("websocket".utf8)) != nil
        else { return nil }
        return Array(fields[0])
    }

    static let handMade: [String] = [
        "GET /socket.io/?EIO=3&transport=polling&sid=abc123 HTTP/1.1\r\n",
        "POST /socket.io/?EIO=3&transport=polling&sid=abc&t=1 HTTP/1.1\r\n",
        "GET /socket.io/?EIO=3&sid=&t=1 HTTP/1.1\r\n",
        "GET /socket.io/1/websocket/Xy_9 HTTP/1.1\r\n",
        "GET /socket.io/1/xhr-polling/Xy_9?t=5 HTTP/1.1\r\n",
        "GET /socket.io/1/ HTTP/1.1\r\n",
        "GET /socket.io/2/websocket/Xy HTTP/1.1\r\n",
        "GET /other?sid=1 HTTP/1.1\r\n",
        "GET /socket.io/\r\n",
        "GET ",
        "POST",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabc:60:60:websocket,xhr-polling",
        "HTTP/1.1 200 OK\r\n\r\n:60:60:websocket",
        "HTTP/1.1 200 OK\r\n\r\nabc:60:60:flashsocket",
        "HTTP/1.1 200 OK\r\n\r\nabc:60:60:websocket:extra",
        "HTTP/1.1 200 OK\r\n\r\n97:0{\"sid\":\"q-Rb4\",\"upgrades\":[\"websocket\"]}",
        "0{\"sid\":\"\",\"x\":1}",
        "0{\"sid\":\"unterminated",
        "\"sid\":\"",
    ]

    @Test func readingInPlaceFindsWhatTheCollectionAlgorithmsFound() throws {
        var payloads: [[UInt8]] = Self.handMade.map { Array($0.utf8) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let captures = try FileManager.default.subpathsOfDirectory(atPath: root + "/Fixtures/captures")
            .filter { $0.hasSuffix(".pcapng") || $0.hasSuffix(".pcap") }
        #expect(captures.count >= 15)
        for name in captures {
            let reader = try PacketCaptureReader.packets(path: root + "/Fixtures/captures/" + name)
            while let item = reader.next() {
                guard case .packet(let packet) = item else { continue }
                packet.withView { view in
                    if let segment = CaptureSharder.segment(of: view), !segment.payload.isEmpty {
                        payloads.append(Array(segment.payload))
                    }
                }
            }
        }
        var random = SystemRandomNumberGenerator()
        var found = 0
        var compared = 0
        for payload in payloads {
            var variants = [payload, Array(payload.prefix(1030))]
            for cut in [4, 11, 40, 100, 600] where cut < payload.count { variants.append(Array(payload.prefix(cut))) }
            for _ in 0..<4 where !payload.isEmpty {
                var changed = payload
                changed[Int.random(in: 0..<min(changed.count, 1024), using: &random)] = [
                    0x20, 0x3a, 0x22, 0x2f, 0x3f, 0x26, 0x0d, 0x41,
                ]
                .randomElement(using: &random)!
                variants.append(changed)
            }
            for variant in variants {
                // A payload is a slice of its packet: also one that does not start at index 0.
                let shifted = [0, 0] + variant
                for slice in [variant[...], shifted.dropFirst(2)] {
                    for fromClient in [true, false] {
                        let expected = Self.reference(slice, fromClient: fromClient)
                        #expect(
                            CaptureSharder.sid(in: slice, fromClient: fromClient) == expected,
                            "\(Array(slice.prefix(120)))")
                        compared += 1
                        if expected != nil { found += 1 }
                    }
                }
            }
        }
        // The samples do hold socket.io sessions of every kind.
        #expect(found >= 100, "\(found) sids in \(compared) comparisons")
    }
}
