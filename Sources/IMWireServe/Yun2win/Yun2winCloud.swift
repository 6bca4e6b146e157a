import IMWireCore
import IMWireMQTT
import IMWireNIO
import NIOCore

/// yun2win's push server in memory: MQTT 3.1/3.1.1 over WebSocket (subprotocol `mqttv3.1` or
/// `mqtt`, the web SDK's) and over plain TCP (Android's and iOS's), its gate, sessions and their
/// members, commands acknowledged and delivered to the other members' connections, and the
/// scenario's acts at their triggers (`Spec/yun2win.md` §2–§4). The replies' shapes are those
/// `Tests/VendorSDKs/yun2win/server.py` was proven with against the genuine web SDK. Used on the
/// server's event loop only.
final class Yun2winCloud: @unchecked Sendable {
    let scenario: ScenarioPlayer
    let limits: ServeLimits
    private let clock: @Sendable () -> Int64
    private let log: ServeLog
    private let stage: ScenarioStage
    /// Each user's newest accepted connection.
    private var sessions: [String: Yun2winLink] = [:]
    /// Each yun2win session's members (from `updateSession`; a `sendMessage` adds its sender).
    private var members: [String: [String]] = [:]
    private var nextMessage = 0

    /// The user the scenario's pushes come from.
    static let serverPeer = "imwire"
    /// The subprotocols served, in the server's order of preference (MQTT.js's and the standard's).
    static let subprotocols = ["mqttv3.1", "mqtt"]

    init(scenario: ScenarioPlayer, limits: ServeLimits, clock: @escaping @Sendable () -> Int64, log: ServeLog) {
        self.scenario = scenario
        self.limits = limits
        self.clock = clock
        self.log = log
        stage = ScenarioStage(scenario: scenario, log: log, clock: clock)
    }

    // MARK: - Packets

    func receive(_ packet: MQTTPacket, on link: Yun2winLink) {
        // MQTT 3.1.1 §3.1: the client's first packet is its CONNECT, and a second one is a
        // violation the server answers by closing the connection [MQTT-3.1.0-2], as anything first but a CONNECT.
        let isConnect = if case .connect = packet { true } else { false }
        guard isConnect != link.connectRead else { return link.drop() }
        if isConnect { link.connectRead = true }
        switch packet {
        case .connect(let connect): self.connect(connect, on: link)
        case .publish(let publish): self.publish(publish, on: link)
        case .puback: play(.ack, on: link) {}
        case .pubrel(let id, _): link.send(.pubcomp(packetID: id))
        case .subscribe(let subscribe):
            // The SDKs never subscribe (the server delivers on y2w/<uid>); a client that does is granted QoS 1 at most.
            link.send(
                .suback(
                    MQTTSuback(
                        packetID: subscribe.packetID,
                        returnCodes: subscribe.subscriptions.map { min($0.qos, .atLeastOnce).rawValue })))
        case .unsubscribe(let unsubscribe): link.send(.unsuback(packetID: unsubscribe.packetID))
        case .pingreq: play(.heartbeat, on: link) { link.send(.pingresp) }
        case .disconnect: link.drop()
        default: break  // server packets from a client are the checker's to report
        }
    }

    func disconnected(_ link: Yun2winLink) {
        if let user = link.user, sessions[user] === link { sessions[user] = nil }
    }

    private func connect(_ connect: MQTTConnect, on link: Yun2winLink) {
        let user = connect.username ?? ""
        // The client id's first character is 1 on the web SDK's reconnects (Spec/yun2win.md §2.3).
        log.append(.login(connection: link.id, user: user, reconnect: connect.clientID.hasPrefix("1"), timeMs: clock()))
        guard sessions[user] != nil || sessions.count < limits.users else { return link.drop() }
        play(.login, on: link) { [unowned self] in
            link.user = user
            sessions[user] = link
            link.send(.connack(MQTTConnack(returnCode: 0)))
            // CONNACK 0 is not "connected": {"returnCode":11} is (§2.4).
            link.publish(to: user, ["returnCode": 11])
        } error: { code, _ in
            // A refusal: CONNACK with yun2win's code (5 tokenIsInvalid by default), then the close (§5.2).
            link.send(.connack(MQTTConnack(returnCode: UInt8(clamping: code ?? 5))))
            link.drop()
        }
    }

    private func publish(_ publish: MQTTPublish, on link: Yun2winLink) {
        switch publish.qos {
        case .atLeastOnce: link.send(.puback(packetID: publish.packetID ?? 0))
        case .exactlyOnce: link.send(.pubrec(packetID: publish.packetID ?? 0))
        case .atMostOnce: break
        }
        // A command (§3.2): JSON with `cmd` and `y2wMessageId`; anything else gets no answer.
        guard let user = link.user, let command = (try? JSONParser.parse(publish.payload))?.objectValue,
            let name = command["cmd"]?.stringValue, let id = command["y2wMessageId"]
        else { return }
        let session =
            publish.topic.hasPrefix("y2w/session/") ? String(publish.topic.dropFirst("y2w/session/".count)) : nil
        if name == "updateSession", let session, members[session] != nil || members.count < limits.conversations {
            let listed = (command["members"]?.arrayValue ?? []).filter { $0["isDel"]?.boolValue != true }.compactMap {
                $0["uid"]?.stringValue
            }
            members[session] = Array(Set(listed + [user])).sorted().prefix(limits.users).map { $0 }
        }
        guard name == "sendMessage" else { return link.publish(to: user, ["y2wMessageId": id, "returnCode": 20]) }
        play(.send, on: link) { [unowned self] in
            link.publish(to: user, ["y2wMessageId": id, "returnCode": 20])
            // Delivered as it was sent, at QoS 1, to the other members connected (the SDKs PUBACK it).
            for member in members[session ?? ""] ?? [] where member != user {
                sessions[member]?.publish(to: member, .object(command), qos: .atLeastOnce)
            }
        } error: { code, _ in
            // A send-return code from the table (26 sessionOnServerIsNotExist by default).
            link.publish(to: user, ["y2wMessageId": id, "returnCode": .number(JSONNumber(code ?? 26))])
        }
    }

    // MARK: - The scenario

    private func play(
        _ trigger: ScenarioAction.Trigger, on link: Yun2winLink, answer: @escaping () -> Void,
        error: ((Int?, String?) -> Void)? = nil
    ) {
        stage.play(trigger, on: link, answer: answer, error: error) { [unowned self] action in act(action, on: link) }
    }

    private func act(_ action: ScenarioAction, on link: Yun2winLink) {
        switch action.act {
        case .drop: link.drop()
        case .close: link.close(code: action.code ?? 1000, reason: action.reason ?? "")
        case .kick:
            // Logged in elsewhere: {"returnCode":10} on the user's topic (§2.4).
            if let user = link.user { link.publish(to: user, ["returnCode": .number(JSONNumber(action.code ?? 10))]) }
        case .push:
            guard let user = link.user else { return }
            nextMessage += 1
            let session = "p2p_\(Self.serverPeer)"
            let command: JSONValue = [
                "cmd": "sendMessage", "y2wMessageId": .string("imwire-\(nextMessage)"),
                "mts": .number(JSONNumber(clock())),
                "message": [
                    "syncs": [["type": 0], ["type": 1, "sessionId": .string(session)]],
                    "pns": ["msg": .string(action.reason ?? "hello from imwire")],
                ],
            ]
            link.publish(to: user, command, qos: .atLeastOnce)
        case .goaway, .error, .withhold, .delay:
            break  // no goaway in yun2win (Scenario.parse refuses it); the rest replace answers
        }
    }
}

extension Yun2winCloud: ServedCloud {
    /// The gate (§2.1): `POST /gateHandler` names this server's host.
    func answer(method: String, path: String, query: String, server: String, connection: Int) -> HTTPAnswer? {
        guard method == "POST", path == "/gateHandler" else { return nil }
        let host = String(server.split(separator: ":").first ?? "")
        let body: JSONValue = ["rtnval": "success", "data": ["url": .string(host), "region": "imwire"]]
        return HTTPAnswer(status: 200, contentType: "application/json", body: JSONWriter.string(body))
    }

    func upgrade(path: String, query: String, protocols: [String], connection: Int) -> Result<String?, UpgradeRefusal> {
        guard let chosen = Self.subprotocols.first(where: { protocols.contains($0) }) else {
            return .failure(
                UpgradeRefusal(reason: "no MQTT subprotocol offered (\(Self.subprotocols.joined(separator: ", ")))"))
        }
        return .success(chosen)
    }

    var answersWebSocketPings: Bool { true }

    func linkHandlers(id: Int, number: Int, subprotocol: String?) -> [ChannelHandler] {
        [MQTTWebSocketBridge()] + mqttHandlers(id: id, number: number, overWebSocket: true)
    }

    /// MQTT on plain TCP: a CONNECT (type 1) as the first byte.
    func rawLinkHandlers(id: Int, number: Int, firstByte: UInt8) -> [ChannelHandler]? {
        firstByte >> 4 == 1 ? mqttHandlers(id: id, number: number, overWebSocket: false) : nil
    }

    private func mqttHandlers(id: Int, number: Int, overWebSocket: Bool) -> [ChannelHandler] {
        var options = MQTTDecodeOptions()
        options.limits.maxFrameSize = limits.messageBytes
        return [
            MQTTPacketWriter(), MQTTPacketReader(options: options),
            Yun2winLink(id: id, number: number, overWebSocket: overWebSocket, cloud: self),
        ]
    }
}
