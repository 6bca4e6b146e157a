import IMWireCore
import IMWireSocketIO

/// A client's NIM link as the cloud reaches it, over socket.io 0.9's WebSocket transport
/// (`NIMWebSocketLink`) or its xhr-polling (`NIMPollingLink`).
protocol NIMLink: ServedLink {
    /// The account logged in on this link.
    var account: String? { get set }
    /// Not ended, and no close sent: the link may still write.
    var isOpen: Bool { get }
    /// Sends one socket.io packet.
    func write(_ packet: SocketIO09Packet)
    /// Ends the link without a goodbye: the TCP connection closed (WebSocket); the session
    /// forgotten and its held poll closed unanswered (xhr-polling).
    func drop()
    /// Ends it in order: a WebSocket close frame with `code`; over xhr-polling, socket.io's
    /// disconnect `0::`.
    func close(code: Int, reason: String)
}

extension NIMLink {
    /// The answer to `request`: its sid, cid and ser, `code`, and `r` (always there: the SDK
    /// reads `r[i]` for every field of its handler).
    func reply(to request: JSONObject, code: Int = 200, _ r: [JSONValue] = []) {
        send([
            "sid": request["SID"] ?? 0, "cid": request["CID"] ?? 0, "ser": request["SER"] ?? 0,
            "code": .number(JSONNumber(code)), "r": .array(r),
        ])
    }

    /// A push: `ser` 0, code 200.
    func push(_ sid: Int64, _ cid: Int64, _ r: [JSONValue]) {
        send(["sid": .number(JSONNumber(sid)), "cid": .number(JSONNumber(cid)), "ser": 0, "code": 200, "r": .array(r)])
    }

    private func send(_ packet: JSONValue) {
        write(.message(JSONWriter.string(packet)))
    }
}
