import IMWireCore
import IMWireNIO
import IMWireSocketIO
import NIOCore

/// NetEase YunXin's web link in memory: the LBS answer, the socket.io 0.9 handshake, and NIM
/// packets `{SID, CID, SER, Q}` over the WebSocket or xhr-polling transport answered `{sid, cid, ser, code, r}`
/// with the `r` items the SDK's command table reads; logins, messages delivered to the target
/// account's link as 7_2 pushes, and the scenario's acts at their triggers. The replies' shapes
/// are those `Tests/VendorSDKs/nim/server.py` was proven with against the genuine NIM Web SDK
/// 8.5.0. Used on the server's event loop only.
final class NIMCloud: @unchecked Sendable {
    let scenario: ScenarioPlayer
    let limits: ServeLimits
    private let clock: @Sendable () -> Int64
    private let log: ServeLog
    private let stage: ScenarioStage
    private var random: SplitMix64
    /// Each account's newest logged-in link.
    private var sessions: [String: any NIMLink] = [:]
    /// The xhr-polling sessions open, by socket.io session id.
    private var polling: [String: NIMPollingLink] = [:]
    /// The socket.io session ids handed out by the handshake and not yet upgraded, oldest first
    /// (at most `limits.connections`: a client that never upgrades pushes out only its own).
    private var handshaken: [String] = []
    private var nextMessage: Int64 = 900_000

    /// The account the scenario's pushes come from.
    static let serverPeer = "imwire"
    /// socket.io 0.9's heartbeat timeout and close timeout (seconds), as the handshake announces them.
    static let heartbeatTimeout = 60
    /// How often this server sends the socket.io heartbeat `2::` (0.9's default: 25 s).
    static let heartbeatIntervalSeconds: Int64 = 25

    init(
        scenario: ScenarioPlayer, seed: UInt64, limits: ServeLimits, clock: @escaping @Sendable () -> Int64,
        log: ServeLog
    ) {
        self.scenario = scenario
        self.limits = limits
        self.clock = clock
        self.log = log
        stage = ScenarioStage(scenario: scenario, log: log, clock: clock)
        random = SplitMix64(seed: seed)
    }

    // MARK: - Packets

    /// The socket.io packets of one message (WebSocket) or POST body (xhr-polling).
    func receive(_ packets: [SocketIO09Packet], on link: any NIMLink) {
        for packet in packets {
            guard link.isOpen else { return }
            switch packet.type {
            case .disconnect: link.drop()
            case .message, .json:
                // A NIM request is JSON in a message packet; anything else is the checker's to report.
                if let request = (packet.json ?? (try? JSONParser.parse(Array(packet.data.utf8))))?.objectValue {
                    receive(request, on: link)
                }
            default: break  // the client's heartbeat echo `2::` needs no answer
            }
        }
    }

    /// A NIM request (`{SID, CID, SER, Q}`).
    private func receive(_ request: JSONObject, on link: any NIMLink) {
        guard let sid = request["SID"]?.int64Value, let cid = request["CID"]?.int64Value else { return }
        let property = request["Q"]?.arrayValue?.first?["v"]?.objectValue ?? JSONObject()
        switch (sid, cid) {
        case (2, 3): login(request, property, on: link)
        case (1, 2): stage.play(.heartbeat, on: link, answer: { link.reply(to: request) }, act: act(on: link))
        case (5, 1): link.reply(to: request, [.number(JSONNumber(clock()))])  // sync: r = [timetag]
        case (6, 23): link.reply(to: request, [.number(JSONNumber(clock()))])  // getServerTime
        case (3, 7):
            // getUsers: r = [[user]], one per account asked for.
            let accounts = request["Q"]?.arrayValue?.first?["v"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let users: [JSONValue] = accounts.map { ["1": .string($0), "3": .string($0), "12": "0", "13": "0"] }
            link.reply(to: request, [.array(users)])
        case (7, 1): send(request, property, on: link)
        default: link.reply(to: request)  // 4_5 batchMarkRead, 2_6 logout and the rest: a bare success
        }
    }

    func disconnected(_ link: any NIMLink) {
        if let account = link.account, sessions[account] === link { sessions[account] = nil }
        if let link = link as? NIMPollingLink, polling[link.sid] === link { polling[link.sid] = nil }
    }

    private func login(_ request: JSONObject, _ property: JSONObject, on link: any NIMLink) {
        let account = property["19"]?.stringValue ?? ""
        log.append(.login(connection: link.id, user: account, reconnect: false, timeMs: clock()))
        guard sessions[account] != nil || sessions.count < limits.users else { return link.drop() }
        stage.play(.login, on: link) { [unowned self] in
            link.account = account
            sessions[account] = link
            // r = [loginRes, loginPorts, aosPushInfo]: the fields the SDK's handler reads.
            let connection = "conn-\(link.id)"
            let result: JSONValue = [
                "102": .string(connection), "103": "127.0.0.1", "104": .string("\(50_000 + link.id)"), "106": "CN",
            ]
            let port: JSONValue = [
                "3": 16, "4": property["4"] ?? "", "13": "other-device", "19": property["19"] ?? "", "102": "conn-0",
                "103": "127.0.0.1",
                "109": .string("\(clock() - 60_000)"),
            ]
            link.reply(to: request, [result, [port], ["110": 0, "111": false]])
        } error: { code, _ in
            // 302: the account or token is wrong (the SDK stops); the server leaves the link to the client.
            link.reply(to: request, code: code ?? 302)
        } act: { [unowned self] action in
            act(action, on: link)
        }
    }

    private func send(_ request: JSONObject, _ property: JSONObject, on link: any NIMLink) {
        stage.play(.send, on: link) { [unowned self] in
            nextMessage += 1
            var message = property
            for (key, value) in [("2", link.account ?? ""), ("7", "\(clock())"), ("12", "\(nextMessage)")] {
                message.members.removeAll { $0.key == key }
                message.append(key, .string(value))
            }
            link.reply(to: request, [.object(message)])
            // A p2p message to its target account's link (scene 0), as a 7_2 push.
            if property["0"]?.int64Value ?? 0 == 0, let to = property["1"]?.stringValue {
                sessions[to]?.push(7, 2, [.object(message)])
            }
        } error: { code, _ in
            // 414 parameter error by default; 416 (frequency control) carries the lockout in seconds.
            let code = code ?? 414
            link.reply(to: request, code: code, code == 416 ? [3] : [])
        } act: { [unowned self] action in
            act(action, on: link)
        }
    }

    // MARK: - The scenario

    private func act(on link: any NIMLink) -> (ScenarioAction) -> Void {
        { [unowned self] action in act(action, on: link) }
    }

    private func act(_ action: ScenarioAction, on link: any NIMLink) {
        switch action.act {
        case .drop: link.drop()
        case .close: link.close(code: action.code ?? 1000, reason: action.reason ?? "")
        case .kick:
            // 2_5 kicked: r = [clientType, reason (1 same-platform kick by default), custom, customClientType];
            // the link is closed 2 s later if the client has not closed it (as the mock the SDK was recorded with).
            link.push(2, 5, [16, .number(JSONNumber(action.code ?? 1)), "", 0])
            link.after(2000) { link.close(code: 1000, reason: "kicked") }
        case .push:
            guard let account = link.account else { return }
            nextMessage += 1
            let message: JSONValue = [
                "0": 0, "1": .string(account), "2": .string(Self.serverPeer), "4": 16, "6": .string(Self.serverPeer),
                "7": .string("\(clock())"),
                "8": 0, "9": .string(action.reason ?? "hello from imwire"), "11": .string("imwire-\(nextMessage)"),
                "12": .string("\(nextMessage)"),
            ]
            link.push(7, 2, [message])
        case .goaway, .error, .withhold, .delay:
            break  // no goaway in NIM (Scenario.parse refuses it); the rest replace answers
        }
    }

    /// `count` decimal digits from the seeded generator.
    private func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(UInt8.random(in: 0...9, using: &random))) })
    }
}

extension NIMCloud: ServedCloud {
    /// The LBS (`/lbs/webconf.jsp`: this server as the link) and the socket.io 0.9 handshake
    /// (`/socket.io/1/`: a new session id, the timeouts, the WebSocket transport).
    func answer(method: String, path: String, query: String, server: String, connection: Int) -> HTTPAnswer? {
        guard method == "GET" else { return nil }
        switch path {
        case "/lbs/webconf.jsp":
            let link = JSONValue.string(server)
            let body: JSONValue = ["common": ["link": [link], "link.default": [link]]]
            return HTTPAnswer(status: 200, contentType: "application/json", body: JSONWriter.string(body))
        case "/socket.io/1", "/socket.io/1/":
            let sid = digits(20)
            if handshaken.count >= limits.connections { handshaken.removeFirst() }
            handshaken.append(sid)
            // `sid:heartbeat timeout:close timeout:transports`.
            let transports = "websocket,xhr-polling"
            return HTTPAnswer(
                status: 200, contentType: "text/plain",
                body: "\(sid):\(Self.heartbeatTimeout):\(Self.heartbeatTimeout):\(transports)")
        default: return nil
        }
    }

    /// socket.io 0.9's WebSocket transport for a session id the handshake gave out. The checker
    /// names the connection by that session (it may span TCP connections), so the log says which.
    func upgrade(path: String, query: String, protocols: [String], connection: Int) -> Result<String?, UpgradeRefusal> {
        let prefix = "/socket.io/1/websocket/"
        guard path.hasPrefix(prefix) else {
            return .failure(UpgradeRefusal(reason: "not found: \(path) (socket.io 0.9 is served on \(prefix)SID)"))
        }
        let sid = String(path.dropFirst(prefix.count))
        guard let index = handshaken.firstIndex(of: sid) else {
            return .failure(UpgradeRefusal(reason: "client not handshaken: no session \(sid)"))
        }
        handshaken.remove(at: index)
        log.append(.named(connection: connection, name: "socket.io 0.9 sid=\(sid)"))
        return .success(nil)
    }

    var answersWebSocketPings: Bool { true }

    func linkHandlers(id: Int, number: Int, subprotocol: String?) -> [ChannelHandler] {
        var socketLimits = Limits.default
        socketLimits.maxMessageSize = limits.messageBytes
        return [SocketIO09PacketHandler(limits: socketLimits), NIMWebSocketLink(id: id, number: number, cloud: self)]
    }

    /// socket.io 0.9's xhr-polling transport (`/socket.io/1/xhr-polling/SID`): a GET polls, a
    /// POST sends, a GET with `disconnect` ends the session. The first GET of a session the
    /// handshake gave out opens it (a link numbered as that connection); the others give their
    /// connection's number back. A session id the server does not know is answered as the 0.9
    /// server answers it: the error packet `7:::1+0` (client not handshaken, reconnect).
    func poll(_ request: PolledRequest, answer: HeldAnswer) -> Bool {
        let prefix = "/socket.io/1/xhr-polling/"
        guard request.path.hasPrefix(prefix) else { return false }
        let sid = String(request.path.dropFirst(prefix.count).prefix { $0 != "/" })
        let name = "socket.io 0.9 sid=\(sid)"
        if let link = polling[sid] {
            scenario.release(request.number)
            log.append(.named(connection: request.connection, name: name))
            switch request.method {
            case "GET"
            where request.query.split(separator: "&").contains { $0 == "disconnect" || $0.hasPrefix("disconnect=") }:
                answer.send(link.disconnect())
            case "GET": link.get(answer)
            case "POST": answer.send(link.post(request.body))
            default:
                answer.send(
                    HTTPAnswer(
                        status: 405, contentType: "text/plain", body: "\(request.method) is not served on \(prefix)SID")
                )
            }
            return true
        }
        if request.method == "GET", let index = handshaken.firstIndex(of: sid) {
            handshaken.remove(at: index)
            let link = NIMPollingLink(
                id: request.connection, number: request.number, sid: sid, host: request.client, cloud: self,
                eventLoop: request.eventLoop)
            polling[sid] = link
            log.append(.named(connection: request.connection, name: name))
            link.get(answer)
            return true
        }
        scenario.release(request.number)
        var error = SocketIO09Packet(type: .error)
        (error.errorReason, error.errorAdvice) = (1, 0)
        answer.send(HTTPAnswer(status: 200, contentType: "text/plain; charset=UTF-8", body: error.encoded))
        return true
    }

    func holdsPollingSession(from host: String) -> Bool {
        polling.values.contains { $0.host == host }
    }
}
