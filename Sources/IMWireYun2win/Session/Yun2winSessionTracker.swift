import IMWireCore
import IMWireDialect
import IMWireMQTT

/// Settings of a yun2win session check.
public struct Yun2winSessionOptions: Sendable {
    /// How long a sendMessage/updateSession may wait for its ack (µs); the SDKs time out after 10 s.
    public var ackTimeoutMicros: Int64
    /// The server closes a connection silent for this many keep-alive periods (MQTT: 1.5).
    public var keepAliveGrace: Double

    public init(ackTimeoutMicros: Int64 = 10_000_000, keepAliveGrace: Double = 1.5) {
        self.ackTimeoutMicros = ackTimeoutMicros
        self.keepAliveGrace = keepAliveGrace
    }
}

/// Follows one yun2win MQTT connection, packet by packet: CONNECT → CONNACK 0 → PUBLISH
/// `{"returnCode":11}` is "established", and nothing is published before it; each command is
/// answered by one ack with its `y2wMessageId` within the timeout; acks 26/27/28 are followed by an
/// updateSession before the session is used again; after a kick (10) the client neither publishes
/// nor reconnects automatically; the client PUBACKs the server's QoS 1 PUBLISHes within the
/// timeout; the client keeps the keep-alive. The server's refusals are
/// named as the genuine web SDK meets them: a kick (10), an ack 22/30/31 (onFailure, no
/// recovery) and an ack 26/27/28 (onFailure; the demos update the session). Time is an input (µs).
///
/// A kick is remembered across connections through `kickedUIDs`: hand it to the tracker of the
/// client's next connection so an automatic reconnect (client id prefix `1`, same uid) is caught.
public struct Yun2winSessionTracker: Sendable {
    /// Where the connection is between CONNECT and yun2win's `returnCode` 11.
    public enum Phase: Sendable, Hashable {
        case awaitingConnect
        case awaitingConnack
        /// CONNACK 0 arrived; yun2win is not connected until `{"returnCode":11}`.
        case awaitingAccept
        case established
        case refused(returnCode: UInt8)
        case kicked
        case disconnected
    }

    private struct Pending: Sendable {
        let cmd: String
        let sessionID: String?
        let time: Int64
        let frameIndex: Int
        /// Made now, not kept as the packet: a payload of up to the message limit for each of
        /// `maxTracked` commands would be held until its ack.
        let summary: String
        /// The command did not decode (already reported): its unanswered ack is information only.
        var malformed = false
    }

    public let options: Yun2winSessionOptions
    public private(set) var phase: Phase = .awaitingConnect
    /// The uid of this connection's CONNECT.
    public private(set) var uid: String?
    /// Uids kicked on this connection or on earlier ones handed in.
    public private(set) var kickedUIDs: Set<String>
    private var keepAlive: UInt16 = 0
    private var lastClientTime: Int64?
    /// The frame of the last packet observed, for findings made when the connection ends.
    private var lastFrame = 0
    private var reportedFirstPacket = false
    /// At most this many commands awaiting their ack, and as many sessions awaiting an update,
    /// are tracked, so a peer that never answers cannot grow memory without bound.
    public let maxTracked: Int
    private var pending: [String: Pending] = [:]
    /// The times of the commands awaiting their ack, bounded.
    private var waiting = PendingTimes()
    /// The server's QoS 1 PUBLISHes awaiting the client's PUBACK, by packet id (bounded as `pending`).
    private var unacknowledged: [UInt16: (time: Int64, frameIndex: Int, summary: String)] = [:]
    /// Sessions whose last ack was 26/27/28: the code and the frame of that ack.
    private var needsUpdate: [String: (code: Int64, frame: Int)] = [:]

    public init(
        options: Yun2winSessionOptions = Yun2winSessionOptions(), kickedUIDs: Set<String> = [],
        maxTracked: Int = Limits.default.maxPendingRequests
    ) {
        self.maxTracked = maxTracked
        self.options = options
        self.kickedUIDs = kickedUIDs
    }

    private static func finding(
        _ rule: Rule, _ message: String, frame: Int, time: Int64?, direction: Direction,
        subject: String
    ) -> Finding {
        Finding(
            rule: rule, message: message, location: Location(frameIndex: frame, time: time, direction: direction),
            subject: subject)
    }

    private static func seconds(_ micros: Int64) -> String {
        micros % 1_000_000 == 0 ? "\(micros / 1_000_000) s" : "\(Double(micros) / 1_000_000) s"
    }

    /// `later - earlier`, or nil when capture times are so far apart that the difference overflows.
    private static func elapsed(from earlier: Int64, to later: Int64) -> Int64? {
        let (gap, overflow) = later.subtractingReportingOverflow(earlier)
        return overflow ? nil : gap
    }

    /// Commands whose ack did not come in time, up to `time`.
    private mutating func expire(before time: Int64, into findings: inout [Finding]) {
        guard !waiting.nothingDue(at: time, timeout: options.ackTimeoutMicros) else { return }
        defer { waiting.reset(pending.values.map(\.time) + unacknowledged.values.map(\.time)) }
        let unanswered = unacknowledged.filter {
            (Self.elapsed(from: $0.value.time, to: time) ?? Int64.max) > options.ackTimeoutMicros
        }
        .sorted { $0.value.frameIndex < $1.value.frameIndex }
        for (id, publish) in unanswered {
            unacknowledged[id] = nil
            findings.append(
                Self.finding(
                    Yun2winRules.publishNotAcknowledged,
                    "QoS 1 PUBLISH packet id \(id) got no PUBACK within \(Self.seconds(options.ackTimeoutMicros))",
                    frame: publish.frameIndex, time: publish.time, direction: .receive, subject: publish.summary))
        }
        let overdue = pending.filter {
            (Self.elapsed(from: $0.value.time, to: time) ?? Int64.max) > options.ackTimeoutMicros
        }
        .sorted { $0.value.frameIndex < $1.value.frameIndex }
        for (id, command) in overdue {
            pending[id] = nil
            var finding = Self.finding(
                Yun2winRules.sendUnanswered,
                "\(command.cmd) y2wMessageId=\(id) got no ack within \(Self.seconds(options.ackTimeoutMicros))",
                frame: command.frameIndex, time: command.time, direction: .send, subject: command.summary)
            if command.malformed {
                finding.severity = .info
                finding.message += " (the command was malformed, as reported at its frame)"
            }
            findings.append(finding)
        }
    }

    /// Observes one decoded packet; returns the session findings it causes (codec findings are the caller's).
    public mutating func observe(
        _ packet: Yun2winDecodedPacket, direction: Direction, timeMicros time: Int64, frameIndex: Int
    ) -> [Finding] {
        var findings: [Finding] = []
        expire(before: time, into: &findings)
        lastFrame = frameIndex
        var summary: String?  // made for the first finding: most packets have none
        func report(_ rule: Rule, _ message: String) {
            let subject = summary ?? packet.summary
            summary = subject
            findings.append(
                Self.finding(rule, message, frame: frameIndex, time: time, direction: direction, subject: subject))
        }
        guard let mqtt = packet.packet else { return findings }
        if let byClient = mqtt.type.sentByClient, byClient != (direction == .send) {
            report(Yun2winRules.wrongDirection, "\(mqtt.type.name) is sent by \(byClient ? "clients" : "servers") only")
            return findings
        }
        switch direction {
        case .send: observeClient(packet, mqtt, time: time, frameIndex: frameIndex, report: report)
        case .receive: observeServer(packet, mqtt, time: time, frameIndex: frameIndex, report: report)
        }
        return findings
    }

    private mutating func observeClient(
        _ packet: Yun2winDecodedPacket, _ mqtt: MQTTPacket, time: Int64, frameIndex: Int,
        report: (Rule, String) -> Void
    ) {
        if let message = keepAliveProblem(at: time) { report(Yun2winRules.keepAliveExceeded, message) }
        lastClientTime = time

        if case .connect(let connect) = mqtt {
            if phase != .awaitingConnect { report(Yun2winRules.secondConnect, "CONNECT again on the same connection") }
            if let uid = connect.username, kickedUIDs.contains(uid), let id = Yun2winClientID.parse(connect.clientID),
                id.isReconnect
            {
                report(
                    Yun2winRules.reconnectAfterKick,
                    "uid \(uid) was kicked (10) and reconnects automatically with client id \(connect.clientID)")
            }
            if phase == .awaitingConnect {
                phase = .awaitingConnack
                uid = connect.username
                keepAlive = connect.keepAlive
            }
            return
        }
        if phase == .awaitingConnect, !reportedFirstPacket {
            reportedFirstPacket = true
            report(Yun2winRules.firstPacketNotConnect, "\(mqtt.type.name) before CONNECT")
        }
        switch phase {
        case .kicked:
            if case .publish = mqtt {
                report(Yun2winRules.commandAfterKick, "the client publishes after being kicked (10)")
            }
        case .refused(let code):
            report(Yun2winRules.afterRefusal, "\(mqtt.type.name) after CONNACK \(code)")
        case .awaitingConnack, .awaitingAccept:
            if case .publish = mqtt {
                report(
                    Yun2winRules.publishBeforeEstablished,
                    phase == .awaitingConnack
                        ? "PUBLISH before CONNACK" : "PUBLISH after CONNACK 0 but before {\"returnCode\":11}")
            }
        default:
            break
        }
        if case .disconnect = mqtt { phase = .disconnected }
        if case .puback(let id) = mqtt { unacknowledged[id] = nil }
        if packet.message == nil, let id = packet.malformedCommandID, pending[id] == nil, pending.count < maxTracked {
            // Reported where it was read; kept so that its ack is not reported again.
            pending[id] = Pending(
                cmd: "command", sessionID: nil, time: time, frameIndex: frameIndex, summary: packet.summary,
                malformed: true)
            waiting.insert(time)
            return
        }
        guard case .command(let command, let topic)? = packet.message else { return }
        var sessionID: String?
        if case .session(let id) = topic { sessionID = id }
        switch command {
        case .sendMessage:
            if let sessionID, let previous = needsUpdate[sessionID] {
                report(
                    Yun2winRules.resendWithoutUpdate,
                    """
                    sendMessage to \(sessionID) after ack \
                    \(Yun2winStatusCodes.describe(previous.code, in: Yun2winStatusCodes.sendReturnCode)) \
                    (frame \(previous.frame)) without an updateSession
                    """
                )
                needsUpdate[sessionID] = nil
            }
        case .updateSession:
            if let sessionID { needsUpdate[sessionID] = nil }
        case .updateToken:
            return
        }
        guard let id = command.y2wMessageID else { return }
        if let earlier = pending[id] {
            report(
                Yun2winRules.duplicateMessageID,
                "y2wMessageId \(id) is still waiting for its ack (frame \(earlier.frameIndex))")
            return
        }
        guard pending.count < maxTracked else { return }
        pending[id] = Pending(
            cmd: command.cmd, sessionID: sessionID, time: time, frameIndex: frameIndex, summary: packet.summary)
        waiting.insert(time)
    }

    private mutating func observeServer(
        _ packet: Yun2winDecodedPacket, _ mqtt: MQTTPacket, time: Int64, frameIndex: Int,
        report: (Rule, String) -> Void
    ) {
        if case .refused(let code) = phase {
            report(Yun2winRules.afterRefusal, "\(mqtt.type.name) after CONNACK \(code)")
            return
        }
        if case .publish(let publish) = mqtt, publish.qos == .atLeastOnce, let id = publish.packetID,
            unacknowledged.count < maxTracked || unacknowledged[id] != nil
        {
            unacknowledged[id] = (time, frameIndex, packet.summary)
            waiting.insert(time)
        }
        if case .connack(let connack) = mqtt {
            if phase == .awaitingConnack {
                phase = connack.returnCode == 0 ? .awaitingAccept : .refused(returnCode: connack.returnCode)
            }
            return
        }
        if phase == .awaitingConnect || phase == .awaitingConnack {
            report(Yun2winRules.serverBeforeConnack, "\(mqtt.type.name) before CONNACK")
        }
        guard case .server(let message, _)? = packet.message else { return }
        switch message {
        case .connectionReturn(11):
            if phase == .awaitingAccept { phase = .established }
        case .connectionReturn(10):
            if phase != .kicked {
                report(
                    Yun2winRules.kicked,
                    """
                    kicked (10)\(uid.map { " uid \($0)" } ?? ""): the web SDK ends the \
                    connection (DISCONNECT), reports disconnected(100, 10) and does not reconnect
                    """
                )
            }
            phase = .kicked
            if let uid { kickedUIDs.insert(uid) }
        case .sendAck(let ack):
            guard let request = pending.removeValue(forKey: ack.y2wMessageID) else {
                report(
                    Yun2winRules.ackWithoutRequest,
                    "ack \(ack.returnCode) for y2wMessageId \(ack.y2wMessageID), which no pending command used")
                return
            }
            if let rule = Self.refusalRule(ack.returnCode) {
                report(rule, Self.refusal(ack, of: request.cmd))
            }
            if [26, 27, 28].contains(ack.returnCode), let sessionID = request.sessionID,
                needsUpdate.count < maxTracked || needsUpdate[sessionID] != nil
            {
                needsUpdate[sessionID] = (ack.returnCode, frameIndex)
            }
        default:
            break
        }
    }

    /// The codes the web SDK's `handleMessage` hands to `onFailure(code, session, message[, mts])`;
    /// any other code of a matched ack is dropped: neither onSuccess nor onFailure, and the 10-s
    /// timer is cleared (y2wIMSDK.min.js, Nov 2016).
    static let webFailureCodes: Set<Int64> = [22, 26, 27, 28, 30, 31]

    /// The rule naming a matched ack's code: 26/27/28 (and Android's 1000) ask for an
    /// updateSession, a routine step of the demos' flow (info); the server's other refusals are
    /// warnings. Success, and codes the codec already reports (client-local, in no table), are not.
    static func refusalRule(_ code: Int64) -> Rule? {
        switch code {
        case 26, 27, 28, 1000: return Yun2winRules.sessionOutOfSync
        case 20: return nil
        default:
            guard let row = Yun2winStatusCodes.sendReturn(code), row.travel == .publish else { return nil }
            return Yun2winRules.sendRefused
        }
    }

    /// "sendMessage y2wMessageId=… refused: 26 sessionOnServerIsNotExist (…); the web SDK calls onFailure(26)".
    static func refusal(_ ack: Yun2winSendAck, of cmd: String) -> String {
        let code = ack.returnCode
        let name = Yun2winStatusCodes.describe(code, in: Yun2winStatusCodes.sendReturnCode)
        let reaction =
            webFailureCodes.contains(code)
            ? "the web SDK calls onFailure(\(code))"
            : "the web SDK calls neither onSuccess nor onFailure for it"
        let recovery: String
        switch code {
        case 26: recovery = "; the demos send updateSession with the members, then resend"
        case 27, 28: recovery = "; the demos update the session's members (updateSession) before resending"
        default: recovery = ""
        }
        return "\(cmd) y2wMessageId=\(ack.y2wMessageID) refused with \(name); \(reaction)\(recovery)"
    }

    /// The silence since the client's last packet, when it is longer than the server allows.
    private func keepAliveProblem(at time: Int64) -> String? {
        guard let last = lastClientTime, keepAlive > 0, phase != .disconnected else { return nil }
        // keepAlive ≤ 65535 s; an unreasonable grace option is clamped rather than trapping.
        let scaled = (Double(keepAlive) * options.keepAliveGrace * 1_000_000).rounded()
        let limit = scaled.isFinite ? Int64(max(0, min(scaled, 9e18))) : Int64.max
        guard let gap = Self.elapsed(from: last, to: time), gap > limit else { return nil }
        return "\(Self.seconds(gap)) without a client packet; keep-alive \(keepAlive) s allows \(Self.seconds(limit))"
    }

    /// Ends the connection: commands still waiting for their ack, and a client silent for longer
    /// than the keep-alive allows before the end.
    public mutating func finish(atMicros time: Int64?) -> [Finding] {
        var findings: [Finding] = []
        if let time, phase == .established || phase == .awaitingAccept, let message = keepAliveProblem(at: time) {
            findings.append(
                Self.finding(
                    Yun2winRules.keepAliveExceeded, "\(message) when the connection ends",
                    frame: lastFrame, time: time, direction: .send, subject: "end of connection"))
        }
        if let time { expire(before: time == Int64.max ? time : time + 1, into: &findings) }
        for (id, command) in pending.sorted(by: { $0.value.frameIndex < $1.value.frameIndex }) {
            findings.append(
                Self.finding(
                    Yun2winRules.pendingAtEnd, "\(command.cmd) y2wMessageId=\(id) still waiting for its ack",
                    frame: command.frameIndex, time: command.time, direction: .send, subject: command.summary))
        }
        pending.removeAll()
        return findings
    }
}
