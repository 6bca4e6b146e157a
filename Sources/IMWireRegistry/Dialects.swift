import IMWireCore
import IMWireDialect
import IMWireJMessage
import IMWireLeanCloud
import IMWireNIM
import IMWireYun2win

/// The registration table: every dialect IMWire speaks, as its module defines it. The checker,
/// the rule catalogue, the status registry and the policy catalogue read dialects from here
/// only; adding a dialect adds its module, a line here, and its documentation.
public enum Dialects {
    /// In `Dialect` order.
    public static let all: [DialectDefinition] = [
        LeanCloudDialect.definition,
        NIMDialect.definition,
        JMessageDialect.definition,
        Yun2winDialect.definition,
    ]

    /// The order in which a connection that names nothing is tried against each dialect's
    /// recognition of its first message: the socket.io dialects and MQTT first, whose shapes are
    /// distinctive, LeanCloud's protobuf (which many bytes decode as) last.
    public static let recognitionOrder: [DialectDefinition] = [
        NIMDialect.definition,
        JMessageDialect.definition,
        Yun2winDialect.definition,
        LeanCloudDialect.definition,
    ]

    private static let byDialect: [Dialect: DialectDefinition] = Dictionary(uniqueKeysWithValues: all.map { ($0.dialect, $0) })

    /// The definition of `dialect`.
    public static func definition(_ dialect: Dialect) -> DialectDefinition {
        guard let definition = byDialect[dialect] else { preconditionFailure("\(dialect) is not registered in Dialects.all") }
        return definition
    }

    /// The dialect a subprotocol names, if one claims it.
    public static func dialect(forSubprotocol name: String) -> Dialect? {
        all.first { $0.claimsSubprotocol(name) }?.dialect
    }

    /// The dialect that speaks over a framing, if one claims it.
    public static func dialect(for framing: Framing) -> Dialect? {
        all.first { $0.claimsFraming(framing) }?.dialect
    }

    /// The first dialect, in `recognitionOrder`, whose recognition accepts `message`.
    public static func recognise(_ message: WireMessage, limits: Limits) -> Dialect? {
        recognitionOrder.first { $0.recognisesFirstMessage(message, limits) }?.dialect
    }
}
