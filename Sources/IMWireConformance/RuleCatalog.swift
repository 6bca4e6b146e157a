import IMWireCapture
import IMWireCore
import IMWireCompression
import IMWireJMessage
import IMWireLeanCloud
import IMWireMQTT
import IMWireNIM
import IMWireSocketIO
import IMWireReconnect
import IMWireWebSocket
import IMWireYun2win

/// Every rule IMWire checks, from every layer; `imwire rules` prints it and `Spec/rules.md` is
/// generated from it.
public enum RuleCatalog {
    public static let all: [Rule] =
        CaptureRules.all + CheckRules.all + CompressionRules.all + WebSocketRules.all + MQTTRules.all
        + SocketIORules.all + LeanCloudRules.all + Yun2winRules.all + NIMRules.all + JMessageRules.all + ReconnectRules.all

    public static func rule(_ id: RuleID) -> Rule? { all.first { $0.id == id } }
}
