import IMWireCore

/// Chrome DevTools HAR 1.2 exports: every entry with `_webSocketMessages` becomes a connection
/// (URL from the request, subprotocol from the 101 response's `Sec-WebSocket-Protocol`), and
/// each message an event (`type` send/receive, `time` in seconds, `opcode` 1 text / 2 binary
/// with base64 `data`). A HAR is one JSON document, so it is read whole, within
/// `Limits.maxMessageSize`; the events then stream out.
public final class HARReader: CaptureSource {
    private var items: [CaptureItem] = []
    private var index = 0

    public init(path: String, limits: Limits = .default) throws(CaptureFormatError) {
        let bytes: [UInt8]
        do { bytes = try FileByteSource.readAll(path: path, limit: limits.maxMessageSize) } catch {
            throw CaptureFormatError(error.description)
        }
        let root: JSONValue
        do { root = try JSONParser.parse(bytes, maxDepth: limits.maxJSONDepth) } catch {
            throw CaptureFormatError("\(path): \(error)")
        }
        guard let entries = root["log"]?["entries"]?.arrayValue else {
            throw CaptureFormatError("\(path): not a HAR file (no log.entries)")
        }
        var connections = 0
        for (number, entry) in entries.enumerated() {
            let messages = entry["_webSocketMessages"]?.arrayValue
            let status = entry["response"]?["status"]?.int64Value
            guard let messages else {
                if status == 101 {
                    items.append(.problem(CaptureRules.harNoMessages.finding(
                        "entry \(number + 1) (\(entry["request"]?["url"]?.stringValue ?? "?")) upgraded to WebSocket but carries no _webSocketMessages")))
                }
                continue
            }
            connections += 1
            items += Self.connection(entry, messages: messages, id: "har\(connections)", entryNumber: number + 1)
        }
        if connections == 0 {
            items.append(.problem(CaptureRules.harNoMessages.finding(
                "no entry has _webSocketMessages (export the HAR from Chrome with the WebSocket connection open)")))
        }
    }

    public func next() -> CaptureItem? {
        guard index < items.count else { return nil }
        defer { index += 1 }
        return items[index]
    }

    private static func header(_ name: String, in headers: [JSONValue]?) -> String? {
        headers?.first { $0["name"]?.stringValue?.lowercased() == name.lowercased() }?["value"]?.stringValue
    }

    private static func connection(_ entry: JSONValue, messages: [JSONValue], id: String, entryNumber: Int) -> [CaptureItem] {
        var info = ConnectionInfo(url: entry["request"]?["url"]?.stringValue)
        info.subprotocol = header("Sec-WebSocket-Protocol", in: entry["response"]?["headers"]?.arrayValue)
        let first = messages.first?["time"]?.numberValue.flatMap(TranscriptLine.microseconds)
        var items: [CaptureItem] = [.event(CaptureEvent(connection: id, time: first, kind: .open(info)))]
        for (number, message) in messages.enumerated() {
            func bad(_ why: String) -> CaptureItem {
                var finding = CaptureRules.harBadMessage.finding("entry \(entryNumber), message \(number + 1): \(why)")
                finding.location.connection = id
                return .problem(finding)
            }
            guard let type = message["type"]?.stringValue, type == "send" || type == "receive" else {
                items.append(bad("type must be send or receive"))
                continue
            }
            let time = message["time"]?.numberValue.flatMap(TranscriptLine.microseconds)
            let opcode = message["opcode"]?.int64Value ?? 1
            guard let data = message["data"]?.stringValue else {
                items.append(bad("no data"))
                continue
            }
            let payload: [UInt8]
            switch opcode {
            case 1: payload = Array(data.utf8)
            case 2:
                guard let bytes = try? Base64.decode(data, lenient: true) else {
                    items.append(bad("binary data is not base64"))
                    continue
                }
                payload = bytes
            default:
                continue  // control frames (ping 9, pong 10, close 8) carry no application message
            }
            let captured = WireMessage(direction: type == "send" ? .send : .receive, frameType: opcode == 2 ? .binary : .text, payload: payload)
            items.append(.event(CaptureEvent(connection: id, time: time, kind: .message(captured))))
        }
        items.append(.event(CaptureEvent(connection: id, time: nil, kind: .close(CloseInfo()))))
        return items
    }
}
