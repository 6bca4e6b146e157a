/// The topics yun2win clients publish to (yun2win.md §4). No SDK subscribes; the server delivers
/// to the connection implicitly.
public enum Yun2winTopic: Sendable, Hashable {
    /// `y2w/session/<sessionId>`: sendMessage and updateSession. The demos' session id is
    /// `<businessType>_<businessId>` or `y2wIMApp_<uid>`.
    case session(sessionID: String)
    /// `y2w/single<clientId>` (no separator visible in the iOS binary; UNCONFIRMED): updateToken.
    case single(suffix: String)
    case other(String)

    public static let sessionPrefix = "y2w/session/"
    public static let singlePrefix = "y2w/single"

    public init(_ topic: String) {
        if topic.hasPrefix(Self.sessionPrefix), topic.count > Self.sessionPrefix.count {
            self = .session(sessionID: String(topic.dropFirst(Self.sessionPrefix.count)))
        } else if topic.hasPrefix(Self.singlePrefix) {
            self = .single(suffix: String(topic.dropFirst(Self.singlePrefix.count)))
        } else {
            self = .other(topic)
        }
    }

    public var name: String {
        switch self {
        case .session(let id): Self.sessionPrefix + id
        case .single(let suffix): Self.singlePrefix + suffix
        case .other(let topic): topic
        }
    }

    /// The session id's business type and id (`p2p`, `7`), split at the first `_`.
    public var sessionParts: (type: String, id: String)? {
        guard case .session(let sessionID) = self, let underscore = sessionID.firstIndex(of: "_") else { return nil }
        return (String(sessionID[..<underscore]), String(sessionID[sessionID.index(after: underscore)...]))
    }
}
