import IMWire
import Testing

/// The code of `Sources/IMWire/IMWire.docc/CheckerPipeline.md`, run.
@Suite struct DocCSnippetCheckerPipeline {
    static func command(_ json: String) throws -> [UInt8] {
        LeanCloudCodec(encoding: .protobuf).encode(try LeanCloudCanonicalJSON.decode(JSONParser.parse(json)))
    }

    /// A proxy that sees whole WebSocket messages hands them to the checker as capture events.
    @Test func feedTheCheckerEvents() throws {
        let checker = Checker(options: CheckOptions())
        var closes: [String] = []
        checker.onClose = { connection, _, code in closes.append("\(connection) \(code ?? 0)") }
        let open = try Self.command(#"{"cmd":"session","op":"open","appId":"app","peerId":"alice","i":1}"#)
        let query = try Self.command(#"{"cmd":"conv","op":"query","i":2,"convMessage":{}}"#)
        checker.consume(
            ConnectionInput(connection: "c1", time: 0, kind: .open(ConnectionInfo(subprotocol: "lc.protobuf2.3"))))
        checker.consume(
            ConnectionInput(
                connection: "c1", time: 10_000,
                kind: .message(WireMessage(direction: .send, frameType: .binary, payload: open))))
        checker.consume(
            ConnectionInput(
                connection: "c1", time: 20_000,
                kind: .message(WireMessage(direction: .send, frameType: .binary, payload: query))))
        checker.consume(
            ConnectionInput(
                connection: "c1", time: 40_000_000, kind: .close(CloseInfo(code: 1000, initiator: .send, isLast: true)))
        )
        let report = checker.finish(source: "proxy")
        #expect(closes == ["c1 1000"])
        #expect(report.connections.first?.dialect == .leancloud)
        // conv/query before session/opened, and neither request answered within 30 s:
        let findings = report.allFindings.filter { $0.severity >= .warning }
        #expect(
            findings.map { "#\($0.location.frameIndex ?? 0) \($0.ruleID)" } == [
                "#1 LC.REQUEST-UNANSWERED", "#2 LC.BEFORE-SESSION-OPEN", "#2 LC.REQUEST-UNANSWERED",
            ])
    }

    /// Reads the connections an assembler gives and checks each with its dialect's connection.
    final class DialectReader: ConnectionEvents {
        var findings: [String: [Finding]] = [:]
        var readers: [Int: any DialectConnection] = [:]  // by `LogicalConnection.slot`
        var pings = 0

        func message(
            _ message: WireMessage, of connection: LogicalConnection, at place: InputPlace, frame: Int, via: String?
        ) {
            guard let reader = reader(for: connection, first: message) else { return }
            findings[connection.id, default: []] +=
                reader.observe(message, timeMicros: place.time, frameIndex: frame).findings
        }

        func ping(_ direction: Direction, of connection: LogicalConnection, at place: InputPlace) {
            pings += 1
            readers[connection.slot]?.observePing(direction, timeMicros: place.time)
        }

        func finding(_ finding: Finding, of connection: LogicalConnection, at place: InputPlace, frame: Int?) {
            findings[connection.id, default: []].append(finding)
        }

        func ended(_ connection: LogicalConnection) {
            guard let reader = readers.removeValue(forKey: connection.slot) else { return }
            findings[connection.id, default: []] += reader.finish(
                atMicros: connection.lastTime, frameIndex: connection.messages)
        }

        /// The connection's dialect: what the capture or the upgrade named, else what its first message looks like.
        func reader(for connection: LogicalConnection, first message: WireMessage) -> (any DialectConnection)? {
            if let reader = readers[connection.slot] { return reader }
            let info = connection.info
            guard
                let dialect = info.dialect ?? info.subprotocol.flatMap(Dialects.standard.dialect(forSubprotocol:))
                    ?? connection.framing.flatMap(Dialects.standard.dialect(for:))
                    ?? Dialects.standard.recognise(message, limits: .default),
                let definition = Dialects.standard.definition(dialect)
            else { return nil }
            let made = definition.makeConnection(DialectContext(subprotocol: info.subprotocol, url: info.url))
            readers[connection.slot] = made
            return made
        }
    }

    /// A proxy that sees TCP bytes: the assembler finds the upgrade, the frames and the messages.
    @Test func assembleConnectionsFromBytes() throws {
        let deflate = PerMessageDeflateParameters()
        var key: UInt32 = 99
        let client = try WebSocketMessageEncoder(
            direction: .send, permessageDeflate: deflate,
            maskingKey: {
                key &+= 1
                return key
            })
        let server = try WebSocketMessageEncoder(direction: .receive, permessageDeflate: deflate)
        let open = try Self.command(#"{"cmd":"session","op":"open","appId":"app","peerId":"alice","i":1}"#)
        let opened = try Self.command(#"{"cmd":"session","op":"opened","peerId":"alice","i":1}"#)

        let assembler = ConnectionAssembler()
        let reader = DialectReader()
        let events: [ConnectionInput.Kind] = [
            .stream(.send, DocCSnippetLeanCloud.request),
            .stream(.receive, DocCSnippetLeanCloud.response),
            .stream(.send, try client.message(.binary, open)),
            .stream(.receive, try server.message(.binary, opened)),
            .stream(.send, client.control(.ping)),
            .stream(.send, client.close(.normalClosure)),
            .close(CloseInfo(isLast: true)),
        ]
        for (index, kind) in events.enumerated() {
            assembler.consume(
                ConnectionInput(connection: "10.0.0.2:50412-10.0.0.1:443", time: Int64(index) * 10_000, kind: kind),
                number: 0, to: reader)
        }
        assembler.finish(to: reader)
        #expect(reader.pings == 1)
        #expect(reader.findings["10.0.0.2:50412-10.0.0.1:443", default: []].filter { $0.severity >= .warning }.isEmpty)
        #expect(reader.findings.count == 1)
    }

    @Test func everyDialectIsRegistered() {
        #expect(Dialects.standard.all.map(\.dialect) == [.leancloud, .nim, .jmessage, .yun2win])
        #expect(Dialects.standard.dialect(forSubprotocol: "lc.protobuf2.3") == .leancloud)
        let connection = Dialects.standard.definition(.nim)?.makeConnection(DialectContext())
        #expect(connection?.dialect == .nim && connection is NIMConnection)
        #expect(Dialects.standard.definition(Dialect("wechat")) == nil)
    }
}
