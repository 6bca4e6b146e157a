import IMWireCore
import IMWireIO

/// Chrome DevTools HAR 1.2 exports: every entry with `_webSocketMessages` becomes a connection
/// (URL from the request, subprotocol from the 101 response's `Sec-WebSocket-Protocol`), and
/// each message an event (`type` send/receive, `time` in seconds, `opcode` 1 text / 2 binary
/// with base64 `data`). The HTTP requests of socket.io (its handshakes and long-polls) become the
/// bytes of TCP connections, one per HAR `connection` (else per entry): the request and response
/// written out as HTTP/1.1 with a Content-Length of the body the HAR gives, for the transport
/// layer to read as it reads a pcap. Events are put in time order, each with the HAR file's line
/// it comes from (a message's first member, an exchange's `request` or `response`), so findings
/// and SARIF regions point into the file. A HAR is one JSON document, so it is read whole, within
/// `Limits.maxMessageSize`; the events then stream out.
package final class HARReader: CaptureSource {
    private var items: [CaptureItem] = []
    private var index = 0

    package init(path: String, limits: Limits = .default) throws(IMWireError) {
        let bytes = try FileByteSource.readAll(path: path, limit: limits.maxMessageSize)
        let root: JSONValue
        do { root = try JSONParser.parse(bytes, maxDepth: limits.maxJSONDepth) } catch {
            throw IMWireError(.captureFormat, "\(error)", path: path)
        }
        guard let entries = root["log"]?["entries"]?.arrayValue else {
            throw IMWireError(.captureFormat, "not a HAR file (no log.entries)", path: path)
        }
        let lines = LineIndex(bytes)
        var connections = 0
        /// Items in the order the entries give them, each with the time it sorts by: its own, or
        /// (a problem, a close) the latest time before it.
        var timeline: [(time: Int64, item: CaptureItem)] = []
        var latest = Int64.min
        func add(_ item: CaptureItem) {
            if case .event(let event) = item, let time = event.time { latest = max(latest, time) }
            let time = if case .event(let event) = item, let own = event.time { own } else { latest }
            timeline.append((time, item))
        }
        /// The HTTP connections made so far, by the HAR's `connection` (or the entry's number).
        var httpConnections: [String: String] = [:]
        for (number, entry) in entries.enumerated() {
            let messages = entry["_webSocketMessages"]?.arrayValue
            let status = entry["response"]?["status"]?.int64Value
            guard let messages else {
                if status == 101 {
                    add(
                        .problem(
                            CaptureRules.harNoMessages.finding(
                                """
                                entry \(number + 1) (\(entry["request"]?["url"]?.stringValue ?? "?")) \
                                upgraded to WebSocket but carries no _webSocketMessages
                                """
                            )))
                } else if let exchange = Self.socketIOExchange(entry) {
                    let requestLine = lines.line(at: entry.objectValue?.offset(of: "request"))
                    let responseLine = lines.line(at: entry.objectValue?.offset(of: "response"))
                    let key = entry["connection"]?.stringValue ?? "entry \(number)"
                    let id: String
                    if let known = httpConnections[key] {
                        id = known
                    } else {
                        connections += 1
                        id = "har\(connections)"
                        httpConnections[key] = id
                        add(
                            .event(
                                ConnectionInput(
                                    connection: id, time: exchange.requestTime, line: requestLine,
                                    kind: .open(ConnectionInfo()))))
                    }
                    add(
                        .event(
                            ConnectionInput(
                                connection: id, time: exchange.requestTime, line: requestLine,
                                kind: .stream(.send, exchange.request)))
                    )
                    if let response = exchange.response {
                        add(
                            .event(
                                ConnectionInput(
                                    connection: id, time: exchange.responseTime, line: responseLine,
                                    kind: .stream(.receive, response))))
                    }
                }
                continue
            }
            connections += 1
            Self.connection(entry, messages: messages, id: "har\(connections)", entryNumber: number + 1, lines: lines)
                .forEach(add)
        }
        if connections == 0 {
            add(
                .problem(
                    CaptureRules.harNoMessages.finding(
                        """
                        no entry has _webSocketMessages or socket.io requests (export \
                        the HAR from Chrome with the WebSocket connection open)
                        """)))
        }
        for id in Set(httpConnections.values).sorted() {
            add(.event(ConnectionInput(connection: id, time: nil, kind: .close(CloseInfo()))))
        }
        // In time order, stably: each connection keeps its own order, a problem stays after what came before it.
        items = timeline.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element.item)
    }

    /// A socket.io HTTP exchange of a HAR entry as the bytes that crossed the wire: the request
    /// and response with their fields, the framing fields replaced by a Content-Length of the body.
    private static func socketIOExchange(_ entry: JSONValue) -> (
        request: [UInt8], requestTime: Int64?, response: [UInt8]?, responseTime: Int64?
    )? {
        guard let request = entry["request"], let method = request["method"]?.stringValue,
            let url = request["url"]?.stringValue,
            url.contains("/socket.io/")
        else { return nil }
        let target =
            url.firstRange(of: "://").map { range in
                let rest = url[range.upperBound...]
                return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
            } ?? url
        let started = entry["startedDateTime"]?.stringValue.flatMap(Self.microseconds(iso8601:))
        let elapsed = entry["time"]?.numberValue.flatMap { Double($0.description) }.map { Int64($0 * 1000) } ?? 0
        func head(_ startLine: String, _ headers: [JSONValue]?, body: [UInt8]) -> [UInt8] {
            let framing: Set<String> = ["content-length", "transfer-encoding", "content-encoding"]
            var text = startLine + "\r\n"
            for header in headers ?? [] {
                guard let name = header["name"]?.stringValue, let value = header["value"]?.stringValue,
                    !framing.contains(name.lowercased()),
                    !name.hasPrefix(":")
                else { continue }
                text += "\(name): \(value)\r\n"
            }
            if method != "GET" || !body.isEmpty || startLine.hasPrefix("HTTP/") {
                text += "Content-Length: \(body.count)\r\n"
            }
            return Array((text + "\r\n").utf8) + body
        }
        let requestBody = Array((request["postData"]?["text"]?.stringValue ?? "").utf8)
        let requestBytes = head("\(method) \(target) HTTP/1.1", request["headers"]?.arrayValue, body: requestBody)
        guard let response = entry["response"], let status = response["status"]?.int64Value, status > 0 else {
            return (requestBytes, started, nil, nil)
        }
        let content = response["content"]
        var responseBody = Array((content?["text"]?.stringValue ?? "").utf8)
        if content?["encoding"]?.stringValue == "base64",
            let decoded = try? Base64.decode(content?["text"]?.stringValue ?? "", lenient: true)
        {
            responseBody = decoded
        }
        let reason = response["statusText"]?.stringValue ?? ""
        let responseBytes = head("HTTP/1.1 \(status) \(reason)", response["headers"]?.arrayValue, body: responseBody)
        return (requestBytes, started, responseBytes, started.map { $0 + elapsed })
    }

    /// `2026-11-26T21:30:37.921Z` as microseconds since the epoch (UTC, or with a ±hh:mm offset).
    static func microseconds(iso8601 text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return bytes[range].reduce(0) { $0 * 10 + Int64($1 - 48) }
        }
        guard bytes.count >= 19, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var index = 19
        var micros: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100_000
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                micros += Int64(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
            let hours = number((index + 1)..<(index + 3)), let minutes = number((index + 4)..<(index + 6))
        {
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        }
        // Days since 1970-01-01 (civil from days, Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return ((days * 86_400 + hour * 3600 + minute * 60 + second) - offset) * 1_000_000 + micros
    }

    package func next() -> CaptureItem? {
        guard index < items.count else { return nil }
        defer { index += 1 }
        return items[index]
    }

    private static func header(_ name: String, in headers: [JSONValue]?) -> String? {
        headers?.first { $0["name"]?.stringValue?.lowercased() == name.lowercased() }?["value"]?.stringValue
    }

    private static func connection(
        _ entry: JSONValue, messages: [JSONValue], id: String, entryNumber: Int, lines: LineIndex
    ) -> [CaptureItem] {
        var info = ConnectionInfo(url: entry["request"]?["url"]?.stringValue)
        info.subprotocol = header("Sec-WebSocket-Protocol", in: entry["response"]?["headers"]?.arrayValue)
        let first = messages.first?["time"]?.numberValue.flatMap(TranscriptLine.microseconds)
        let entryLine = lines.line(at: entry.objectValue?.offset(of: "request"))
        var items: [CaptureItem] = [
            .event(ConnectionInput(connection: id, time: first, line: entryLine, kind: .open(info)))
        ]
        for (number, message) in messages.enumerated() {
            let line = lines.line(at: message.objectValue?.members.first?.offset)
            func bad(_ why: String) -> CaptureItem {
                var finding = CaptureRules.harBadMessage.finding("entry \(entryNumber), message \(number + 1): \(why)")
                finding.location.connection = id
                finding.location.line = line
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
            let captured = WireMessage(
                direction: type == "send" ? .send : .receive, frameType: opcode == 2 ? .binary : .text, payload: payload
            )
            items.append(.event(ConnectionInput(connection: id, time: time, line: line, kind: .message(captured))))
        }
        items.append(.event(ConnectionInput(connection: id, time: nil, kind: .close(CloseInfo()))))
        return items
    }
}

/// Where the lines of a file begin, to name the line (from 1) of a byte offset.
private struct LineIndex {
    private var newlines: [Int] = []

    init(_ bytes: [UInt8]) {
        for (offset, byte) in bytes.enumerated() where byte == 0x0a { newlines.append(offset) }
    }

    func line(at offset: Int?) -> Int? {
        guard let offset else { return nil }
        // The newlines before `offset`, found by binary search.
        var low = 0
        var high = newlines.count
        while low < high {
            let middle = (low + high) / 2
            if newlines[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return low + 1
    }
}
