import IMWireCore

/// One item of a request's `Q`: its type tag, its value, and, where the command's parameter
/// list is known, its name and (for a `Property`) the value's fields named through the tag map.
public struct NIMParameter: Sendable, Hashable {
    public var type: String
    public var value: JSONValue
    public var name: String?
    /// A `Property`'s members renamed from tags to fields (unknown tags as `#<tag>`).
    public var fields: JSONValue?

    public init(type: String, value: JSONValue, name: String? = nil, fields: JSONValue? = nil) {
        self.type = type
        self.value = value
        self.name = name
        self.fields = fields
    }
}

/// A client command: `{"SID":…, "CID":…, "SER":…, "Q":[{t, v}, …]}`.
public struct NIMRequest: Sendable, Hashable {
    public var sid: Int64
    public var cid: Int64
    public var ser: Int64
    public var params: [NIMParameter]

    public init(sid: Int64, cid: Int64, ser: Int64, params: [NIMParameter] = []) {
        self.sid = sid
        self.cid = cid
        self.ser = ser
        self.params = params
    }

    public var command: NIMCommand? { NIMCommands.command(sid: sid, cid: cid) }
    public var isHeartbeat: Bool { sid == NIMCommands.heartbeat.sid && cid == NIMCommands.heartbeat.cid }
    public var isLogin: Bool { sid == NIMCommands.login.sid && cid == NIMCommands.login.cid }

    /// The JSON text the Web SDK sends (`JSON.stringify` of createCmd's object).
    public var json: JSONValue {
        var object = JSONObject()
        object.append("SID", .number(JSONNumber(sid)))
        object.append("CID", .number(JSONNumber(cid)))
        object.append("SER", .number(JSONNumber(ser)))
        object.append("Q", .array(params.map { ["t": .string($0.type), "v": $0.value] }))
        return .object(object)
    }

    /// The named field `name` of the first Property parameter (e.g. `account` of login).
    public func field(_ name: String) -> JSONValue? { params.lazy.compactMap { $0.fields?[name] }.first }
}

/// The inner packet of a notify wrapper (4_1, 4_2, 4_10, 4_11).
public struct NIMInnerPacket: Sendable, Hashable {
    public var sid: Int64
    public var cid: Int64
    /// `r[1].body` as it came: the inner packet's `r`.
    public var body: JSONValue
    /// `body` read by the inner command's handler, like a top-level `r` (`NIMResponse.fields`);
    /// empty when the body stays raw.
    public var fields: JSONObject

    public init(sid: Int64, cid: Int64, body: JSONValue, fields: JSONObject = JSONObject()) {
        self.sid = sid
        self.cid = cid
        self.body = body
        self.fields = fields
    }

    public var command: NIMCommand? { NIMCommands.command(sid: sid, cid: cid) }
}

/// A server packet: `{"sid":…, "cid":…, "ser":…, "code":…, "r":[…]}`, a response or a push.
public struct NIMResponse: Sendable, Hashable {
    public var sid: Int64
    public var cid: Int64
    public var ser: Int64
    public var code: Int64
    /// nil when the packet has no `r`.
    public var r: [JSONValue]?
    /// `r` entries by the handler's field names, Property entries with their fields named.
    public var fields: JSONObject
    public var inner: NIMInnerPacket?

    public init(sid: Int64, cid: Int64, ser: Int64, code: Int64, r: [JSONValue]? = nil) {
        self.sid = sid
        self.cid = cid
        self.ser = ser
        self.code = code
        self.r = r
        fields = JSONObject()
    }

    public var command: NIMCommand? { NIMCommands.command(sid: sid, cid: cid) }
    /// The Web SDK's `genError` returns no error for these codes.
    public var isSuccess: Bool { NIMWebCodes.success.contains(code) }

    public var json: JSONValue {
        var object = JSONObject()
        object.append("sid", .number(JSONNumber(sid)))
        object.append("cid", .number(JSONNumber(cid)))
        object.append("ser", .number(JSONNumber(ser)))
        object.append("code", .number(JSONNumber(code)))
        if let r { object.append("r", .array(r)) }
        return .object(object)
    }
}

/// A decoded NIM packet.
public enum NIMPacket: Sendable, Hashable {
    case request(NIMRequest)
    case response(NIMResponse)

    public var sid: Int64 {
        switch self {
        case .request(let r): r.sid
        case .response(let r): r.sid
        }
    }
    public var cid: Int64 {
        switch self {
        case .request(let r): r.cid
        case .response(let r): r.cid
        }
    }
    public var ser: Int64 {
        switch self {
        case .request(let r): r.ser
        case .response(let r): r.ser
        }
    }
    public var command: NIMCommand? { NIMCommands.command(sid: sid, cid: cid) }

    /// The JSON object the packet is on the wire.
    public var json: JSONValue {
        switch self {
        case .request(let request): request.json
        case .response(let response): response.json
        }
    }

    /// `2_3 login ser=1`, `2_3 login ser=1 code=302`.
    public var summary: String {
        let name = command.map { " \($0.name)" } ?? ""
        switch self {
        case .request(let request): return "\(request.sid)_\(request.cid)\(name) ser=\(request.ser)"
        case .response(let response):
            let inner = response.inner.map { " [\($0.sid)_\($0.cid)\($0.command.map { " \($0.name)" } ?? "")]" } ?? ""
            return "\(response.sid)_\(response.cid)\(name) ser=\(response.ser) code=\(response.code)\(inner)"
        }
    }
}

/// Where the Web SDK's code meanings live: the tables of `NIMStatusCodes`, read, not retyped.
public enum NIMWebCodes {
    /// `genError` returns null (no error) for 200, 406, 808 and 810: the web table marks exactly
    /// these rows as success with "the Web SDK reports no error".
    public static let success: Set<Int64> = Set(
        NIMStatusCodes.webErrors.rows.filter {
            $0.codeClass == .success && $0.meaning.contains("the Web SDK reports no error")
        }
        .map(\.number))

    /// The tables a response code is looked up in, the Web SDK's first.
    static let tables = [
        NIMStatusCodes.webErrors, NIMStatusCodes.statusPage, NIMStatusCodes.resCode, NIMStatusCodes.remoteErrorCode,
    ]

    /// The first row that names `code`, web table first.
    public static func row(_ code: Int64) -> StatusCode? {
        for table in tables { if let row = table.rows(code).first { return row } }
        return nil
    }

    /// Whether a login answered with `code` ends the session: a row whose advice (at login) is
    /// to stop and wait for the user (302, 417, 422).
    public static func endsLogin(_ code: Int64) -> Bool {
        [NIMStatusCodes.webErrors, NIMStatusCodes.resCode].contains { table in
            table.rows(code).contains { $0.advice == .stop }
        }
    }

    /// 2_5 kicked reason 4 (silentlyKick): Web SDK 8.5.0 `onKicked` does not end the session but
    /// `forceDisconnect(), onDisconnect(1, "link::onKicked")`, and reconnects with its backoff; the
    /// other reasons go to `onAuthError` (`shouldReconnect = !1`, `notifyDisconnect`).
    public static let silentKickReason: Int64 = 4

    public static func kickReconnects(_ reason: Int64) -> Bool { reason == silentKickReason }
}
