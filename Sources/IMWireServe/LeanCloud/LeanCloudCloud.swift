import IMWireCore
import IMWireLeanCloud
import IMWireNIO
import NIOCore

/// LeanCloud's realtime service in memory: sessions, conversations (normal and transient),
/// messages and their history, as `leancloud-realtime` 5.0.0-rc.7 expects them (the replies'
/// shapes are those `Tests/VendorSDKs/leancloud/server.py` was proven with against the genuine
/// SDK), and the scenario's acts at their triggers. Used on the server's event loop only.
/// (Sendable unchecked for that reason: the one loop of `ServeServer` is its only thread.)
final class LeanCloudCloud: @unchecked Sendable {
    let scenario: ScenarioPlayer
    let limits: ServeLimits
    private let clock: @Sendable () -> Int64
    private let log: ServeLog
    private let stage: ScenarioStage
    private var random: SplitMix64
    /// Each user's newest open connection.
    private var sessions: [String: LeanCloudLink] = [:]
    private var conversations: [String: Conversation] = [:]

    private struct Conversation {
        var members: [String]
        var creator: String
        var name: String?
        var transient: Bool
        var history: [LCLogItem] = []
    }

    /// The user the scenario's pushes come from.
    static let serverPeer = "imwire"

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

    // MARK: - The opening

    /// The subprotocols served, in the server's order of preference (LeanCloud's `lc.*.3`).
    static let subprotocols: [(name: String, encoding: LeanCloudEncoding)] = [
        ("lc.protobuf2.3", .protobuf), ("lc.proto2base64.3", .base64), ("lc.json.3", .json),
    ]

    // MARK: - Commands

    func receive(_ command: LCGenericCommand, on link: LeanCloudLink) {
        if command.directMessage.hasCid { link.lastConversation = command.directMessage.cid }
        switch (command.cmd, command.hasOp ? command.op : nil) {
        case (.session, .open?): open(command, on: link)
        case (.session, .close?):
            endSession(of: link)
            link.send(reply(to: command, .session, .closed))
        case (.conv, .start?): start(command, on: link)
        case (.conv, .query?): query(command, on: link)
        case (.conv, .add?), (.conv, .remove?): changeMembers(command, on: link)
        case (.conv, .update?), (.conv, .mute?), (.conv, .unmute?): update(command, on: link)
        case (.logs, _): history(command, on: link)
        case (.direct, _): direct(command, on: link)
        case (.ack, _): play(.ack, on: link) {}
        case (.echo, _): heartbeat(on: link) { link.send(self.reply(to: command, .echo, nil)) }
        default: break  // read receipts and the rest need no answer; unknown requests get none
        }
    }

    /// A heartbeat (an `echo` command or a WebSocket ping) and its answer.
    func heartbeat(on link: LeanCloudLink, answer: @escaping () -> Void) {
        play(.heartbeat, on: link, answer: answer)
    }

    func disconnected(_ link: LeanCloudLink) {
        endSession(of: link)
    }

    /// The link's user has no session any more, unless a newer connection of it opened one.
    private func endSession(of link: LeanCloudLink) {
        if let user = link.user, sessions[user] === link { sessions[user] = nil }
    }

    private func open(_ command: LCGenericCommand, on link: LeanCloudLink) {
        let user = command.peerID
        guard link.isOpen else { return }  // read in the same batch as the end of its connection
        log.append(.login(connection: link.id, user: user, reconnect: command.sessionMessage.r, timeMs: clock()))
        if link.user != user { endSession(of: link) }
        guard sessions[user] != nil || sessions.count < limits.users else { return link.drop() }
        link.user = user
        sessions[user] = link
        play(.login, on: link) {
            var opened = self.reply(to: command, .session, .opened)
            opened.serverTs = self.clock()
            opened.sessionMessage.st = "st-" + self.hex(32)
            opened.sessionMessage.stTtl = 3600
            link.send(opened)
        } error: { code, reason in
            self.endSession(of: link)
            var closed = self.reply(to: command, .session, .closed)
            closed.sessionMessage.code = Int32(code ?? 4102)
            closed.sessionMessage.reason = reason ?? "SIGNATURE_FAILED"
            link.send(closed)
        }
    }

    private func start(_ command: LCGenericCommand, on link: LeanCloudLink) {
        let me = link.user ?? command.peerID
        let request = command.convMessage
        let members = request.transient ? [me] : Array(Set(request.m + [me])).sorted()
        var cid = request.unique ? conversations.first { !$0.value.transient && $0.value.members == members }?.key : nil
        if cid == nil {
            guard conversations.count < limits.conversations else {
                return link.send(error(to: command, 4318, "CONVERSATION_API_QUOTA_EXCEEDED"))
            }
            let id = hex(24)
            let attributes = (try? JSONParser.parse(request.attr.data))?["name"]?.stringValue
            conversations[id] = Conversation(
                members: members, creator: me, name: attributes, transient: request.transient)
            cid = id
        }
        guard let cid else { return }
        link.lastConversation = cid
        var started = reply(to: command, .conv, .started)
        started.convMessage.cid = cid
        started.convMessage.cdate = Self.isoDate(clock())
        link.send(started)
        guard !request.transient else { return }
        for member in members where member != me {
            var joined = push(to: member, .conv, .joined)
            joined.convMessage.cid = cid
            joined.convMessage.initBy = me
            sessions[member]?.send(joined)
        }
    }

    private func query(_ command: LCGenericCommand, on link: LeanCloudLink) {
        let condition = (try? JSONParser.parse(command.convMessage.where.data)) ?? .null
        let objectID = condition["objectId"]
        let ids = objectID?.stringValue.map { [$0] } ?? objectID?["$in"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var rows: [JSONValue] = []
        for cid in ids {
            guard let conversation = conversations[cid] else { continue }
            var row = JSONObject([
                "objectId": .string(cid), "m": .array(conversation.members.map { .string($0) }),
                "c": .string(conversation.creator),
                "tr": .bool(conversation.transient), "unique": .bool(!conversation.transient),
                "createdAt": .string(Self.isoDate(clock())), "updatedAt": .string(Self.isoDate(clock())),
            ])
            if let name = conversation.name { row.append("name", .string(name)) }
            rows.append(.object(row))
        }
        var results = reply(to: command, .conv, .results)
        results.convMessage.results.data = JSONWriter.string(.array(rows))
        link.send(results)
    }

    private func changeMembers(_ command: LCGenericCommand, on link: LeanCloudLink) {
        let me = link.user ?? command.peerID
        let adding = command.op == .add
        let cid = command.convMessage.cid
        let changed = command.convMessage.m
        guard conversations[cid] != nil || conversations.count < limits.conversations else {
            return link.send(error(to: command, 4318, "CONVERSATION_API_QUOTA_EXCEEDED"))
        }
        var conversation = conversations[cid] ?? Conversation(members: [], creator: me, transient: false)
        let before = Set(conversation.members)
        let after = adding ? before.union(changed) : before.subtracting(changed)
        // As many members as users at most.
        guard after.count <= limits.users else { return link.send(error(to: command, 4304, "CONVERSATION_FULL")) }
        conversation.members = adding ? Array(after).sorted() : conversation.members.filter { !changed.contains($0) }
        conversations[cid] = conversation
        var answer = reply(to: command, .conv, adding ? .added : .removed)
        answer.convMessage.cid = cid
        answer.convMessage.allowedPids = changed
        link.send(answer)
        guard !conversation.transient else { return }
        for member in before.union(changed).sorted() where member != me {
            var note: LCGenericCommand
            if changed.contains(member) {
                note = push(to: member, .conv, adding ? .joined : .left)
            } else {
                note = push(to: member, .conv, adding ? .membersJoined : .membersLeft)
                note.convMessage.m = changed
            }
            note.convMessage.cid = cid
            note.convMessage.initBy = me
            sessions[member]?.send(note)
        }
    }

    private func update(_ command: LCGenericCommand, on link: LeanCloudLink) {
        let cid = command.convMessage.cid
        if command.op == .update,
            let name = (try? JSONParser.parse(command.convMessage.attr.data))?["name"]?.stringValue
        {
            conversations[cid]?.name = name
        }
        var updated = reply(to: command, .conv, .updated)
        updated.convMessage.cid = cid
        updated.convMessage.udate = Self.isoDate(clock())
        link.send(updated)
    }

    private func history(_ command: LCGenericCommand, on link: LeanCloudLink) {
        let limit = command.logsMessage.limit > 0 ? Int(command.logsMessage.limit) : 20
        var answer = reply(to: command, .logs, nil)
        // The SDK reads logsMessage.logs even when there are none: the submessage must be there.
        answer.logsMessage = LCLogsCommand()
        answer.logsMessage.logs = Array((conversations[command.logsMessage.cid]?.history ?? []).suffix(limit))
        link.send(answer)
    }

    private func direct(_ command: LCGenericCommand, on link: LeanCloudLink) {
        let me = link.user ?? command.peerID
        play(.send, on: link) {
            let id = self.hex(20)
            let time = self.clock()
            var ack = self.reply(to: command, .ack, nil)
            ack.ackMessage.uid = id
            ack.ackMessage.t = time
            link.send(ack)
            self.deliver(command.directMessage, id: id, time: time, from: me)
        } error: { code, reason in
            var ack = self.reply(to: command, .ack, nil)
            ack.ackMessage.code = Int32(code ?? 4401)
            ack.ackMessage.reason = reason ?? "INVALID_MESSAGING_TARGET"
            link.send(ack)
        }
    }

    /// A message to every other member of its conversation that has a session, kept for history.
    private func deliver(_ message: LCDirectCommand, id: String, time: Int64, from sender: String) {
        let cid = message.cid
        guard let members = conversations[cid]?.members, let transient = conversations[cid]?.transient else { return }
        var item = LCLogItem()
        item.from = sender
        item.msgID = id
        item.timestamp = time
        item.data = message.msg
        // In place: a copy of the conversation would copy its history with every message.
        conversations[cid]?.history.append(item)
        if conversations[cid]?.history.count ?? 0 > limits.historyPerConversation {
            conversations[cid]?.history.removeFirst()
        }
        for member in members where member != sender {
            var pushed = push(to: member, .direct, nil)
            pushed.directMessage.fromPeerID = sender
            pushed.directMessage.cid = cid
            pushed.directMessage.id = id
            pushed.directMessage.timestamp = time
            // LCIMConvType: 1 a normal conversation, 2 a transient one (a chat room).
            pushed.directMessage.convType = transient ? 2 : 1
            if message.hasMsg { pushed.directMessage.msg = message.msg }
            if message.hasBinaryMsg { pushed.directMessage.binaryMsg = message.binaryMsg }
            sessions[member]?.send(pushed)
        }
    }

    // MARK: - The scenario

    private func play(
        _ trigger: ScenarioAction.Trigger, on link: LeanCloudLink, answer: @escaping () -> Void,
        error: ((Int?, String?) -> Void)? = nil
    ) {
        stage.play(trigger, on: link, answer: answer, error: error) { [unowned self] action in act(action, on: link) }
    }

    private func act(_ action: ScenarioAction, on link: LeanCloudLink) {
        switch action.act {
        case .drop: link.drop()
        case .close: link.close(code: action.code ?? 1000, reason: action.reason ?? "")
        case .kick:
            var closed = push(to: link.user ?? "", .session, .closed)
            closed.sessionMessage.code = Int32(action.code ?? 4111)
            closed.sessionMessage.reason = action.reason ?? "SESSION_CONFLICT"
            link.send(closed)
        case .goaway: link.send(push(to: nil, .goaway, nil))
        case .push: pushFromServer(to: link, text: action.reason ?? "hello from imwire")
        case .error, .withhold, .delay: break
        }
    }

    /// A text message from `serverPeer` in the link's last conversation (made, with both as
    /// members, when it has none).
    private func pushFromServer(to link: LeanCloudLink, text: String) {
        guard let user = link.user else { return }
        let cid: String
        if let last = link.lastConversation, conversations[last] != nil {
            cid = last
        } else {
            cid = hex(24)
            conversations[cid] = Conversation(
                members: [user, Self.serverPeer].sorted(), creator: Self.serverPeer, transient: false)
            link.lastConversation = cid
        }
        var message = LCDirectCommand()
        message.cid = cid
        message.msg = JSONWriter.string(
            .object(JSONObject(["_lctype": .number(JSONNumber(-1)), "_lctext": .string(text)])))
        deliver(message, id: hex(20), time: clock(), from: Self.serverPeer)
    }

    // MARK: - Building commands

    /// The answer to a request: its command and op, its peer id and its `i`.
    private func reply(to request: LCGenericCommand, _ cmd: LCCommandType, _ op: LCOpType?) -> LCGenericCommand {
        var command = push(to: request.peerID, cmd, op)
        if request.hasI { command.i = request.i }
        return command
    }

    private func push(to user: String?, _ cmd: LCCommandType, _ op: LCOpType?) -> LCGenericCommand {
        var command = LCGenericCommand()
        command.cmd = cmd
        if let op { command.op = op }
        if let user { command.peerID = user }
        return command
    }

    private func error(to request: LCGenericCommand, _ code: Int32, _ reason: String) -> LCGenericCommand {
        var command = reply(to: request, .error, nil)
        command.errorMessage.code = code
        command.errorMessage.reason = reason
        return command
    }

    /// `count` (even) lowercase hex digits: `count / 2` bytes from the seeded generator.
    private func hex(_ count: Int) -> String {
        Hex.encode((0..<count / 2).map { _ in UInt8.random(in: .min ... .max, using: &random) })
    }

    /// `2026-11-28T14:40:26.000Z` for milliseconds since the epoch (proleptic Gregorian, UTC).
    static func isoDate(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        let days = seconds / 86_400
        let time = seconds % 86_400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            """
            \(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60))\
            :\(two(time % 60)).\(String(1000 + milliseconds % 1000).dropFirst())Z
            """
    }
}

extension LeanCloudCloud: ServedCloud {
    /// The router (`GET /v1/route`, js-realtime-sdk `_fetchRTMServers`): server, secondary,
    /// ttl, each this server as the client reached it.
    func answer(method: String, path: String, query: String, server: String, connection: Int) -> HTTPAnswer? {
        guard method == "GET", path == "/v1/route" else { return nil }
        log.append(.routed(connection: connection, timeMs: clock()))
        let rtm = JSONValue.string("ws://\(server)/")
        let body: JSONValue = ["server": rtm, "secondary": rtm, "ttl": 3600]
        return HTTPAnswer(status: 200, contentType: "application/json", body: JSONWriter.string(body))
    }

    func upgrade(path: String, query: String, protocols: [String], connection: Int) -> Result<String?, UpgradeRefusal> {
        guard let chosen = Self.subprotocols.first(where: { protocols.contains($0.name) }) else {
            return .failure(
                UpgradeRefusal(
                    reason:
                        "no LeanCloud subprotocol offered (\(Self.subprotocols.map(\.name).joined(separator: ", ")))"))
        }
        return .success(chosen.name)
    }

    /// WebSocket pings are a LeanCloud heartbeat (the JS SDK's): the link answers them.
    var answersWebSocketPings: Bool { false }

    func linkHandlers(id: Int, number: Int, subprotocol: String?) -> [ChannelHandler] {
        let encoding = Self.subprotocols.first { $0.name == subprotocol }?.encoding ?? .protobuf
        return [LeanCloudLink(id: id, number: number, encoding: encoding, cloud: self)]
    }
}
