import IMWireCore

/// `sendMessage`: `{"cmd":"sendMessage","y2wMessageId":…,"mts":…,"message":{…}}` (web key order).
public struct Yun2winSendMessage: Sendable, Hashable {
    public var y2wMessageID: String
    /// The session's member timestamp (ms epoch), kept as its literal.
    public var mts: JSONNumber
    /// The application message (the demos' `{syncs, pns, av}`); the push server does not read it.
    public var message: JSONValue

    public init(y2wMessageID: String, mts: JSONNumber, message: JSONValue) {
        self.y2wMessageID = y2wMessageID
        self.mts = mts
        self.message = message
    }
}

/// `updateSession`: the session's members for the push server.
public struct Yun2winUpdateSession: Sendable, Hashable {
    /// One member of a session: the uid and whether it was removed.
    public struct Member: Sendable, Hashable {
        public var uid: String
        public var isDel: Bool
        public init(uid: String, isDel: Bool) {
            self.uid = uid
            self.isDel = isDel
        }
    }

    public var y2wMessageID: String
    public var mts: JSONNumber
    public var members: [Member]
    public var force: Bool
    public var message: JSONValue

    public init(y2wMessageID: String, mts: JSONNumber, members: [Member], force: Bool, message: JSONValue) {
        self.y2wMessageID = y2wMessageID
        self.mts = mts
        self.members = members
        self.force = force
        self.message = message
    }
}

/// A client → server command (a PUBLISH payload).
public enum Yun2winCommand: Sendable, Hashable {
    case sendMessage(Yun2winSendMessage)
    case updateSession(Yun2winUpdateSession)
    /// iOS only: the APNs device token, to `y2w/single<clientId>`.
    case updateToken(token: String)

    public var cmd: String {
        switch self {
        case .sendMessage: "sendMessage"
        case .updateSession: "updateSession"
        case .updateToken: "updateToken"
        }
    }

    public var y2wMessageID: String? {
        switch self {
        case .sendMessage(let command): command.y2wMessageID
        case .updateSession(let command): command.y2wMessageID
        case .updateToken: nil
        }
    }

    /// The payload JSON in the web SDK's key order.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("cmd", .string(cmd))
        switch self {
        case .sendMessage(let command):
            object.append("y2wMessageId", .string(command.y2wMessageID))
            object.append("mts", .number(command.mts))
            object.append("message", command.message)
        case .updateSession(let command):
            object.append("y2wMessageId", .string(command.y2wMessageID))
            object.append("mts", .number(command.mts))
            object.append(
                "members", .array(command.members.map { ["uid": .string($0.uid), "isDel": .bool($0.isDel)] }))
            object.append("force", .bool(command.force))
            object.append("message", command.message)
        case .updateToken(let token):
            object.append("token", .string(token))
        }
        return .object(object)
    }

    /// Compact payload bytes.
    public var payload: [UInt8] { Array(JSONWriter.string(json).utf8) }
}

/// An ack of sendMessage/updateSession: `{"y2wMessageId":…,"returnCode":20…31[,"mts":…]}`.
public struct Yun2winSendAck: Sendable, Hashable {
    public var y2wMessageID: String
    public var returnCode: Int64
    /// The server's member timestamp, on 27 and 28.
    public var mts: JSONNumber?

    public init(y2wMessageID: String, returnCode: Int64, mts: JSONNumber? = nil) {
        self.y2wMessageID = y2wMessageID
        self.returnCode = returnCode
        self.mts = mts
    }

    public var json: JSONValue {
        var object = JSONObject()
        object.append("y2wMessageId", .string(y2wMessageID))
        object.append("returnCode", .number(JSONNumber(returnCode)))
        if let mts { object.append("mts", .number(mts)) }
        return .object(object)
    }
}

/// A server → client PUBLISH payload.
public enum Yun2winServerMessage: Sendable, Hashable {
    /// `{"returnCode":10}` (kicked) or `{"returnCode":11}` (accepted: now connected), or another
    /// code that arrived this way.
    case connectionReturn(code: Int64)
    case sendAck(Yun2winSendAck)
    /// A peer's sendMessage relayed to the session's members.
    case relayedMessage(Yun2winSendMessage)
    /// Any other payload (handed to the app as data).
    case data(JSONValue)

    public var json: JSONValue {
        switch self {
        case .connectionReturn(let code): ["returnCode": .number(JSONNumber(code))]
        case .sendAck(let ack): ack.json
        case .relayedMessage(let message): Yun2winCommand.sendMessage(message).json
        case .data(let value): value
        }
    }
}
