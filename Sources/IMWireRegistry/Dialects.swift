import IMWireCore
import IMWireDialect
import IMWireJMessage
import IMWireLeanCloud
import IMWireMQTT
import IMWireNIM
import IMWireSocketIO
import IMWireYun2win

/// A registration table: the dialects a checker reads connections as, each as its module defines
/// it. `standard` holds the four IMWire speaks; a program adds its own with `adding(_:)` and gives
/// the result to the checker (`CheckOptions.dialects`), so a new dialect edits no lower layer and
/// no command. The checker, the rule catalogue, the status registry and the policy catalogue read
/// dialects from a table only. The table lists canonical codecs too: each dialect's, and those of
/// framings without a dialect (bare MQTT), which `imwire decode` and `encode` and the conformance
/// testee make theirs from.
public final class Dialects: Sendable {
    /// IMWire's own dialects: LeanCloud, NIM, JMessage, yun2win; and the codecs of the framings
    /// they speak over: MQTT, socket.io 0.9, engine.io 3.
    public static let standard = Dialects(
        [LeanCloudDialect.definition, NIMDialect.definition, JMessageDialect.definition, Yun2winDialect.definition],
        // The socket.io dialects and MQTT first, whose shapes are distinctive; LeanCloud's
        // protobuf (which many bytes decode as) last.
        recognitionOrder: [
            NIMDialect.definition, JMessageDialect.definition, Yun2winDialect.definition, LeanCloudDialect.definition,
        ],
        framingCodecs: [
            MQTTCanonicalCodec.definition, SocketIO09CanonicalCodec.definition, EngineIOCanonicalCodec.definition,
        ])

    /// In registration order.
    public let all: [DialectDefinition]
    /// The order in which a connection that names nothing is tried against each dialect's
    /// recognition of its first message.
    public let recognitionOrder: [DialectDefinition]
    /// Reconnect-judge rules whose finding a dialect rule already gives (every dialect's
    /// `judgeFindingsReportedBy`, merged).
    package let judgeFindingsReportedBy: [RuleID: Set<RuleID>]
    /// Every rule some judge finding defers to.
    package let judgeDeferredRules: Set<RuleID>
    /// Every canonical codec, by its name: the dialects' in registration order, then the
    /// framings'. A name is listed once (the first codec of that name).
    public let codecs: [CanonicalCodecDefinition]
    private let framingCodecs: [CanonicalCodecDefinition]
    private let byDialect: [Dialect: DialectDefinition]

    private init(
        _ all: [DialectDefinition], recognitionOrder: [DialectDefinition], framingCodecs: [CanonicalCodecDefinition]
    ) {
        self.all = all
        self.recognitionOrder = recognitionOrder
        self.framingCodecs = framingCodecs
        var names: Set<String> = []
        codecs = (all.compactMap(\.canonicalCodec) + framingCodecs).filter { names.insert($0.name).inserted }
        byDialect = Dictionary(all.map { ($0.dialect, $0) }) { first, _ in first }
        judgeFindingsReportedBy = all.reduce(into: [:]) { table, definition in
            table.merge(definition.judgeFindingsReportedBy) { $0.union($1) }
        }
        judgeDeferredRules = judgeFindingsReportedBy.values.reduce(into: []) { $0.formUnion($1) }
    }

    /// This table and `definition`, which is tried for a connection that names nothing before
    /// the last dialect of `recognitionOrder` (LeanCloud's catch-all protobuf). A definition of a
    /// dialect already in the table replaces it.
    public func adding(_ definition: DialectDefinition) -> Dialects {
        func replacing(_ list: [DialectDefinition]) -> [DialectDefinition]? {
            guard let index = list.firstIndex(where: { $0.dialect == definition.dialect }) else { return nil }
            var list = list
            list[index] = definition
            return list
        }
        if let all = replacing(all), let order = replacing(recognitionOrder) {
            return Dialects(all, recognitionOrder: order, framingCodecs: framingCodecs)
        }
        return Dialects(
            all + [definition],
            recognitionOrder: recognitionOrder.dropLast() + [definition] + recognitionOrder.suffix(1),
            framingCodecs: framingCodecs)
    }

    /// This table and `codec`, the codec of a framing without a dialect (as bare MQTT's), listed
    /// after the others; a framing codec of the same name is replaced.
    public func adding(_ codec: CanonicalCodecDefinition) -> Dialects {
        Dialects(
            all, recognitionOrder: recognitionOrder,
            framingCodecs: framingCodecs.filter { $0.name != codec.name } + [codec])
    }

    /// The canonical codec called `name` (`leancloud`, `mqtt`), nil when the table has none.
    public func codec(named name: String) -> CanonicalCodecDefinition? { codecs.first { $0.name == name } }

    /// The definition of `dialect`, nil when it is not in this table.
    public func definition(_ dialect: Dialect) -> DialectDefinition? { byDialect[dialect] }

    /// The dialect called `name` (`nim`), if it is in this table.
    public func named(_ name: String) -> Dialect? { byDialect[Dialect(name)]?.dialect }

    /// The dialect a subprotocol names, if one claims it.
    public func dialect(forSubprotocol name: String) -> Dialect? {
        all.first { $0.claimsSubprotocol(name) }?.dialect
    }

    /// The dialect that speaks over a framing, if one claims it.
    public func dialect(for framing: Framing) -> Dialect? {
        all.first { $0.claimsFraming(framing) }?.dialect
    }

    /// The first dialect, in `recognitionOrder`, whose recognition accepts `message`.
    public func recognise(_ message: WireMessage, limits: Limits) -> Dialect? {
        recognitionOrder.first { $0.recognisesFirstMessage(message, limits) }?.dialect
    }

    /// Every dialect's rules, dialect by dialect.
    package var rules: [Rule] { all.flatMap(\.rules) }
}

/// A table shows as the names of its dialects: its definitions hold every rule, table and policy.
extension Dialects: CustomStringConvertible, CustomReflectable {
    public var description: String { "Dialects(" + all.map(\.dialect.rawValue).joined(separator: ", ") + ")" }
    public var customMirror: Mirror { Mirror(self, children: ["dialects": all.map(\.dialect.rawValue)]) }
}
