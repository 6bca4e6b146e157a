/// How one connection of a client ended, as the capture shows it. Codes are the vendor's numbers.
public enum ConnectionEnd: Sendable, Hashable {
    /// Still open when the capture ended.
    case open
    /// The user logged out (LeanCloud `session/close`, NIM 2_6 logout, MQTT DISCONNECT before
    /// the client's own close): the next connection is a fresh login.
    case clientLogout
    /// The transport closed, with its close code when it had one (WebSocket close code).
    case closed(code: Int64?)
    /// The transport broke without a close (TCP reset, the capture's end of the stream).
    case lost
    /// A kick or conflict push with its code or reason (LeanCloud `session/closed` 4111,
    /// NIM 2_5 reason, yun2win PUBLISH returnCode 10, JMessage login-status reason).
    case kicked(code: Int64)
    /// The login was refused with this code; `waitMicros` is the wait the server asked for
    /// (NIM 416 `r[0]` seconds, as µs).
    case loginRejected(code: Int64, waitMicros: Int64?)
    /// The server asked the client to move (LeanCloud `goaway`).
    case goaway
}

/// The login of one connection.
public struct LoginObservation: Sendable, Hashable {
    /// When the login (or handshake) was sent, µs.
    public var sent: Int64
    /// Whether it carried the protocol's reconnect flag; nil when the protocol has none or the
    /// capture does not show it.
    public var reconnectFlag: Bool?
    /// When the login was accepted, µs; nil when it was not (refused, unanswered).
    public var accepted: Int64?

    public init(sent: Int64, reconnectFlag: Bool?, accepted: Int64?) {
        self.sent = sent
        self.reconnectFlag = reconnectFlag
        self.accepted = accepted
    }
}

/// The client's keep-alive packets on one connection, kept as first, last and longest gap so
/// memory stays constant however long the connection lives.
public struct KeepAliveLog: Sendable, Hashable {
    public private(set) var count = 0
    public private(set) var first: Int64?
    public private(set) var last: Int64?
    /// The longest gap between two consecutive packets: where it starts and how long it is.
    public private(set) var longestGap: (start: Int64, length: Int64)?

    public init() {}

    package init(_ times: [Int64]) {
        for time in times { record(time) }
    }

    /// A log as its fields say (one read back from storage).
    package init(count: Int, first: Int64?, last: Int64?, longestGap: (start: Int64, length: Int64)?) {
        self.count = count
        self.first = first
        self.last = last
        self.longestGap = longestGap
    }

    /// One keep-alive packet at `time` µs (times out of order are taken as the last one).
    package mutating func record(_ time: Int64) {
        count += 1
        if let last {
            let gap = time.minus(last)
            if gap > (longestGap?.length ?? -1) { longestGap = (last, gap) }
        } else {
            first = time
        }
        last = max(last ?? time, time)
    }

    public static func == (a: KeepAliveLog, b: KeepAliveLog) -> Bool {
        a.count == b.count && a.first == b.first && a.last == b.last && a.longestGap?.start == b.longestGap?.start
            && a.longestGap?.length == b.longestGap?.length
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(first)
        hasher.combine(last)
    }

    /// The longest stretch without a keep-alive packet between `start` and `end`: where it
    /// starts and how long it is.
    package func longestSilence(from start: Int64, to end: Int64) -> (start: Int64, length: Int64) {
        guard let first, let last else { return (start, max(0, end.minus(start))) }
        var longest = (start: start, length: max(0, first.minus(start)))
        if let gap = longestGap, gap.length > longest.length, gap.start >= start { longest = gap }
        if end.minus(last) > longest.length { longest = (last, end.minus(last)) }
        return longest
    }
}

/// One connection of a client as the checker saw it: the input of the reconnect judge. Times
/// are microseconds, as in the capture.
public struct ConnectionObservation: Sendable, Hashable {
    /// The capture's connection id (findings point at it).
    public var connection: String
    /// When the transport was opened (the first packet), µs.
    public var opened: Int64
    public var login: LoginObservation?
    /// The client's heartbeats (LeanCloud ping frames or `echo`, NIM 1_2); for yun2win every
    /// client MQTT packet (keep-alive counts any packet).
    public var keepAlive: KeepAliveLog
    /// False when the capture cannot show the client's keep-alive packets (WebSocket pings in a
    /// transcript of whole messages): the heartbeat is not judged then.
    public var keepAliveVisible: Bool
    /// When the connection ended, µs; nil while `end` is `.open`.
    public var ended: Int64?
    public var end: ConnectionEnd
    /// The transport came up (NIM: socket.io connect), whether or not a login followed.
    public var linkUp: Bool

    public init(
        connection: String, opened: Int64, login: LoginObservation?, keepAlive: KeepAliveLog = KeepAliveLog(),
        keepAliveVisible: Bool = true, ended: Int64?, end: ConnectionEnd, linkUp: Bool = false
    ) {
        self.linkUp = linkUp
        self.connection = connection
        self.opened = opened
        self.login = login
        self.keepAlive = keepAlive
        self.keepAliveVisible = keepAliveVisible
        self.ended = ended
        self.end = end
    }

    public var established: Bool { login?.accepted != nil }
}
