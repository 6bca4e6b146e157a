import IMWireCore
import IMWireJMessage
import IMWireNIO
import IMWireSocketIO
import NIOCore

/// JMessage's web service in memory (engine.io 3 / socket.io 2 over WebSocket, events with a
/// `rid`): users' sessions, groups, messages delivered between users as `msg_sync` pushes, and
/// the scenario's acts at their triggers. The replies' shapes are those
/// `Tests/VendorSDKs/jmessage/server.py` was proven with against the genuine JMessage web SDK
/// 2.5.0: every request is first acknowledged with `ack {rid}`, then answered with its own
/// event (a one-to-one send with `s_single_text`) and `{rid, code, …}`; the client's replies
/// to pushes get the `ack` only. Used on the server's event loop only.
final class JMessageCloud: @unchecked Sendable {
    let scenario: ScenarioPlayer
    let limits: ServeLimits
    private let clock: @Sendable () -> Int64
    private let log: ServeLog
    private let stage: ScenarioStage
    private var random: SplitMix64
    /// Each user's newest logged-in connection.
    private var sessions: [String: JMessageLink] = [:]
    /// Users' numeric ids (`from_uid`), given out in order of first login.
    private var uids: [String: Int64] = [:]
    private var groups: [Int64: Group] = [:]
    private var nextMessageID: Int64 = 2_000_000
    private var nextGroupID: Int64 = 10_000_000

    private struct Group {
        var name: String
        var members: [String]
    }

    /// The user the scenario's pushes come from.
    static let serverPeer = "imwire"
    /// What python-engineio 3 announces by default (and the JMessage SDK was recorded with).
    static let pingInterval: Int64 = 25_000
    static let pingTimeout: Int64 = 60_000

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

    /// The engine.io handshake: a new session id and the ping timers.
    func handshake() -> EngineIOPacket {
        let open: JSONValue = [
            "sid": .string(hex(32)), "upgrades": [], "pingInterval": .number(JSONNumber(Self.pingInterval)),
            "pingTimeout": .number(JSONNumber(Self.pingTimeout)),
        ]
        return EngineIOPacket(type: .open, payload: .text(JSONWriter.string(open)))
    }

    // MARK: - Events

    func receive(_ name: String, _ payload: JSONObject, on link: JMessageLink) {
        let rid = payload["rid"]
        switch name {
        case "c_init": answer(name, rid, on: link)
        case "login": login(payload, rid: rid, on: link)
        case _ where link.user == nil:
            // The mock's choice, as the genuine SDK was recorded with it: the real server's
            // answer to a request before login is not documented.
            answer(name, rid, code: 800_013, on: link)
        case "sync_check":
            var body = JSONObject()
            for key in ["sync_key", "sync_type", "sync_event_key", "msg_receipt_key"] {
                body.append(key, payload[key] ?? 0)
            }
            answer(name, rid, body, on: link)
        case "s_across_single_text", "s_single_text", "send_group_msg": send(name, payload, rid: rid, on: link)
        case "create_group": createGroup(payload, rid: rid, on: link)
        case "add_group_member", "add_across_group_member", "del_group_member", "del_across_group_member":
            changeMembers(name, payload, rid: rid, on: link)
        case "msg_recv", "msg_recv_v2":
            acknowledge(rid, on: link)
            stage.play(.ack, on: link, answer: {}, act: { [unowned self] action in act(action, on: link) })
        default:
            // Replies to pushes (`msg_recv`, `sync_*_ack`, and a push's own name, as the
            // `event_notification` reply) get the ack; any other request its answer with code 0.
            let role = JMessageEvents.spec(name)?.role
            if role == .reply || role == .push { acknowledge(rid, on: link) } else { answer(name, rid, on: link) }
        }
    }

    /// An engine.io ping and its answer.
    func heartbeat(on link: JMessageLink, answer: @escaping () -> Void) {
        stage.play(.heartbeat, on: link, answer: answer) { [unowned self] action in act(action, on: link) }
    }

    func disconnected(_ link: JMessageLink) {
        if let user = link.user, sessions[user] === link { sessions[user] = nil }
    }

    private func login(_ payload: JSONObject, rid: JSONValue?, on link: JMessageLink) {
        let user = payload["username"]?.stringValue ?? ""
        log.append(.login(connection: link.id, user: user, reconnect: false, timeMs: clock()))
        guard sessions[user] != nil || sessions.count < limits.users else { return link.drop() }
        stage.play(.login, on: link) { [unowned self] in
            if let user = link.user, sessions[user] === link { sessions[user] = nil }
            link.user = user
            sessions[user] = link
            if uids[user] == nil { uids[user] = 20_000 + Int64(uids.count + 1) }
            answer("login", rid, on: link)
        } error: { [unowned self] code, reason in
            answer("login", rid, code: code ?? 801_004, message: reason, on: link)
        } act: { [unowned self] action in
            act(action, on: link)
        }
    }

    private func send(_ name: String, _ payload: JSONObject, rid: JSONValue?, on link: JMessageLink) {
        // A one-to-one send is answered as `s_single_text` (the event the SDK waits for).
        let response = name == "send_group_msg" ? name : "s_single_text"
        stage.play(.send, on: link) { [unowned self] in
            nextMessageID += 1
            let id = nextMessageID
            let time = clock()
            answer(
                response, rid, JSONObject(["msg_id": .number(JSONNumber(id)), "ctime_ms": .number(JSONNumber(time))]),
                on: link)
            if let content = payload["content"]?.objectValue {
                deliver(content, id: id, time: time, from: link.user ?? "")
            }
        } error: { [unowned self] code, reason in
            answer(response, rid, code: code ?? 803_003, message: reason, on: link)
        } act: { [unowned self] action in
            act(action, on: link)
        }
    }

    private func createGroup(_ payload: JSONObject, rid: JSONValue?, on link: JMessageLink) {
        guard groups.count < limits.conversations else { return answer("create_group", rid, code: 800_009, on: link) }
        nextGroupID += 1
        groups[nextGroupID] = Group(name: payload["group_name"]?.stringValue ?? "", members: [link.user ?? ""])
        answer("create_group", rid, JSONObject(["gid": .number(JSONNumber(nextGroupID))]), on: link)
    }

    private func changeMembers(_ name: String, _ payload: JSONObject, rid: JSONValue?, on link: JMessageLink) {
        guard let gid = payload["gid"]?.int64Value, var group = groups[gid] else {
            return answer(name, rid, code: 800_018, on: link)
        }
        // `member_usernames`: `[{username, appkey}]` as the SDK sends them, or plain names.
        let named = (payload["member_usernames"]?.arrayValue ?? []).compactMap {
            $0.stringValue ?? $0["username"]?.stringValue
        }
        if name.hasPrefix("add") {
            guard Set(group.members + named).count <= limits.users else {
                return answer(name, rid, code: 800_009, on: link)
            }
            group.members += named.filter { !group.members.contains($0) }
        } else {
            group.members.removeAll { named.contains($0) }
        }
        groups[gid] = group
        answer(name, rid, on: link)
    }

    /// A message to its target (a user, or every other member of a group) as a `msg_sync` push.
    private func deliver(_ content: JSONObject, id: Int64, time: Int64, from sender: String) {
        let targetID = content["target_id"]?.stringValue ?? ""
        let group = content["target_type"]?.stringValue == "group" ? Int64(targetID).flatMap { groups[$0] } : nil
        let recipients = group.map { $0.members.filter { $0 != sender } } ?? [targetID]
        var pushed = content
        for (key, value) in [("from_type", "user"), ("from_name", sender), ("target_name", group?.name ?? targetID)]
        where pushed[key] == nil {
            pushed.append(key, .string(value))
        }
        let message = JSONObject([
            "msg_id": .number(JSONNumber(id)), "msg_type": group == nil ? 3 : 4,
            "from_uid": .number(JSONNumber(uids[sender] ?? 0)),
            "from_gid": .number(JSONNumber(group == nil ? 0 : Int64(targetID) ?? 0)),
            "ctime_ms": .number(JSONNumber(time)), "msg_level": 0,
            "need_receipt": false, "content": .object(pushed),
        ])
        for user in recipients { sessions[user]?.emit("msg_sync", JSONObject(["messages": [.object(message)]])) }
    }

    // MARK: - The scenario

    private func act(_ action: ScenarioAction, on link: JMessageLink) {
        switch action.act {
        case .drop: link.drop()
        case .close: link.close(code: action.code ?? 1000, reason: action.reason ?? "")
        case .kick:
            // event_notification event_type 1: logged in elsewhere (2: the password changed).
            let event = JSONObject([
                "event_id": .number(JSONNumber(nextEventID())), "event_type": .number(JSONNumber(action.code ?? 1)),
                "from_uid": 0, "gid": 0,
                "extra": 0, "description": .string(action.reason ?? ""), "ctime_ms": .number(JSONNumber(clock())),
            ])
            link.emit("event_notification", event)
        case .push:
            guard let user = link.user else { return }
            let now = clock()
            let content = JMessageContent.text(
                action.reason ?? "hello from imwire", targetType: .single, targetID: user, targetName: user,
                fromID: Self.serverPeer,
                createTime: now)
            if uids[Self.serverPeer] == nil { uids[Self.serverPeer] = 20_000 }
            nextMessageID += 1
            deliver(content.json, id: nextMessageID, time: now, from: Self.serverPeer)
        case .goaway, .error, .withhold, .delay:
            break  // no goaway in JMessage (Scenario.parse refuses it); the rest replace answers
        }
    }

    private var events: Int64 = 4_000_000
    private func nextEventID() -> Int64 {
        events += 1
        return events
    }

    // MARK: - Answers

    /// `ack {rid}`: the request arrived.
    private func acknowledge(_ rid: JSONValue?, on link: JMessageLink) {
        guard let rid else { return }
        link.emit("ack", JSONObject(["rid": rid]))
    }

    /// The ack, then `name {rid, code, [message], fields}`; a nonzero code carries its message
    /// (`reason`, or the server table's name for it).
    private func answer(
        _ name: String, _ rid: JSONValue?, _ fields: JSONObject = JSONObject(), code: Int = 0,
        message reason: String? = nil,
        on link: JMessageLink
    ) {
        acknowledge(rid, on: link)
        var body = JSONObject()
        if let rid { body.append("rid", rid) }
        body.append("code", .number(JSONNumber(code)))
        if code != 0 {
            body.append(
                "message", .string(reason ?? JMessageStatusCodes.server.rows(Int64(code)).first?.name ?? "error"))
        }
        for member in fields { body.append(member.key, member.value) }
        link.emit(name, body)
    }

    /// `count` (even) lowercase hex digits from the seeded generator.
    private func hex(_ count: Int) -> String {
        Hex.encode((0..<count / 2).map { _ in UInt8.random(in: .min ... .max, using: &random) })
    }
}

extension JMessageCloud: ServedCloud {
    /// No plain HTTP: the SDK opens its WebSocket at once.
    func answer(method: String, path: String, query: String, server: String, connection: Int) -> HTTPAnswer? { nil }

    /// engine.io 3 on `/socket.io/` with `transport=websocket` (the SDK's only transport).
    func upgrade(path: String, query: String, protocols: [String], connection: Int) -> Result<String?, UpgradeRefusal> {
        let parameters = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        func value(_ key: String) -> String? { parameters.first { $0.first == key }?.dropFirst().first ?? nil }
        guard path == "/socket.io/" else {
            return .failure(UpgradeRefusal(reason: "not found: \(path) (engine.io is served on /socket.io/)"))
        }
        guard value("EIO") == "3" else {
            return .failure(UpgradeRefusal(reason: "EIO=\(value("EIO") ?? ""): only engine.io 3 (EIO=3) is served"))
        }
        guard value("transport") == "websocket" else {
            return .failure(
                UpgradeRefusal(reason: "transport=\(value("transport") ?? ""): only transport=websocket is served"))
        }
        return .success(nil)
    }

    func linkHandlers(id: Int, number: Int, subprotocol: String?) -> [ChannelHandler] {
        var socketLimits = Limits.default
        socketLimits.maxMessageSize = limits.messageBytes
        return [EngineIOPacketHandler(limits: socketLimits), JMessageLink(id: id, number: number, cloud: self)]
    }

    var answersWebSocketPings: Bool { true }
}
