import IMWireCore
import IMWireNIM
import IMWireSocketIO
import Testing

/// Every sid_cid of `NIMCommands.all` through `NIMCodec.encode` and back: a request, a response
/// and, for the commands the server starts, a push; the notify wrappers around every other
/// command. Each decoded packet must name the table's command, read `Q`/`r` into the table's
/// names, report nothing, and encode to the same bytes (directly and from its canonical JSON).
@Suite struct NIMTableRoundTripTests {
    /// A Property with every tag of `map`: tag → a value that names it.
    static func property(_ map: NIMTagMap) -> (wire: JSONObject, named: JSONObject) {
        var wire = JSONObject()
        var named = JSONObject()
        for field in map.fields {
            let value: JSONValue =
                field.tag % 2 == 0 ? .string("\(map.name).\(field.name)") : .number(JSONNumber(Int64(field.tag) * 7))
            wire.append(String(field.tag), value)
            named.append(field.name, value)
        }
        return (wire, named)
    }

    /// `r` for a command's response fields and what its decoding must read from it.
    static func responseEntries(_ command: NIMCommand) -> (r: [JSONValue], fields: JSONObject) {
        var r: [JSONValue] = []
        var fields = JSONObject()
        for (index, field) in command.response.enumerated() {
            let wire: JSONValue
            let named: JSONValue
            if let (map, isList) = NIMTagMaps.map(forField: field) {
                let (object, names) = property(map)
                wire = isList ? [.object(object), .object(object)] : .object(object)
                named = isList ? [.object(names), .object(names)] : .object(names)
            } else if command.key == "2_5" && field == "reason" {
                wire = 2  // kickedReasons 1–4
                named = wire
            } else {
                wire = index % 2 == 0 ? .string("\(command.key).\(field)") : .number(JSONNumber(Int64(index + 100)))
                named = wire
            }
            r.append(wire)
            fields.append(field, named)
        }
        return (r, fields)
    }

    /// A `Q` for the command: its stated parameter list, else one item of each simple type.
    static func parameters(_ command: NIMCommand) -> (q: [NIMParameter], names: [String?], fields: [JSONValue?]) {
        guard let specs = NIMCommands.parameters[command.key] else {
            let q = [
                NIMParameter(type: "String", value: "s"), NIMParameter(type: "long", value: 42),
                NIMParameter(type: "bool", value: "true"), NIMParameter(type: "StrArray", value: ["a", "b"]),
            ]
            return (q, q.map { _ in nil }, q.map { _ in nil })
        }
        var q: [NIMParameter] = []
        var fields: [JSONValue?] = []
        for spec in specs {
            if let map = spec.tagMap {
                let (wire, named) = property(map)
                q.append(NIMParameter(type: "Property", value: .object(wire)))
                fields.append(.object(named))
            } else {
                let type = spec.types.first ?? .long
                q.append(NIMParameter(type: type.rawValue, value: type == .string ? "x" : 1))
                fields.append(nil)
            }
        }
        return (q, specs.map(\.name), fields)
    }

    /// Decodes `bytes`, expects one NIM packet and no finding; checks the wire form both ways.
    static func decodeOne(_ bytes: [UInt8], _ direction: Direction, _ what: String) -> NIMPacket? {
        let message = NIMCodec.decode(bytes, direction: direction)
        #expect(message.findings.isEmpty, "\(what): \(message.findings)")
        guard message.items.count == 1, let packet = message.items[0].nim else {
            Issue.record("\(what): \(message.items.count) items, no NIM packet")
            return nil
        }
        #expect(message.items[0].socketIO.type == .message, "\(what)")
        #expect(NIMCodec.encode(packet) == bytes, "\(what): re-encoded differently")
        do {
            let again = try NIMCanonicalJSON.decode(NIMCanonicalJSON.encode(packet))
            #expect(NIMCodec.encode(again) == bytes, "\(what): canonical JSON encodes differently")
        } catch { Issue.record("\(what): canonical JSON does not decode: \(error)") }
        // The shape alone says request or response.
        #expect(
            NIMCodec.decode(bytes, direction: nil).items.first?.nim == packet, "\(what): differs without a direction")
        return packet
    }

    @Test func everyCommandTravelsAsRequestResponseAndPush() {
        var requests = 0
        var responses = 0
        var pushes = 0
        for command in NIMCommands.all {
            let what = "\(command.key) \(command.name)"
            // Request.
            let ser: Int64 = command.key == "1_2" ? 0 : Int64(requests % 32767 + 1)
            let (q, names, fields) = Self.parameters(command)
            let bytes = NIMCodec.encode(.request(NIMRequest(sid: command.sid, cid: command.cid, ser: ser, params: q)))
            if case .request(let request)? = Self.decodeOne(bytes, .send, "request " + what) {
                requests += 1
                #expect(request.command == command, "request \(what)")
                #expect(request.command?.name == command.name)
                #expect((request.sid, request.cid, request.ser) == (command.sid, command.cid, ser))
                #expect(
                    request.params.map(\.type) == q.map(\.type) && request.params.map(\.value) == q.map(\.value),
                    "request \(what)")
                #expect(request.params.map(\.name) == names, "request \(what)")
                #expect(request.params.map(\.fields) == fields, "request \(what)")
                let canonical = NIMCanonicalJSON.encode(.request(request))
                #expect(
                    canonical["command"]?.stringValue == command.command
                        && canonical["service"]?.stringValue == command.service)
            } else {
                Issue.record("request \(what) did not decode as a request")
            }
            // Response (and a push: the same shape, ser 0) unless it is a wrapper, done below.
            guard !command.isNotifyWrapper else { continue }
            let (r, expected) = Self.responseEntries(command)
            var kinds: [(String, Int64)] = [("response", ser)]
            if command.origin == .push { kinds.append(("push", 0)) }
            for (kind, ser) in kinds {
                let packet = NIMResponse(
                    sid: command.sid, cid: command.cid, ser: ser, code: 200, r: r.isEmpty ? nil : r)
                guard
                    case .response(let response)? = Self.decodeOne(
                        NIMCodec.encode(.response(packet)), .receive, "\(kind) \(what)")
                else {
                    Issue.record("\(kind) \(what) did not decode as a response")
                    continue
                }
                if kind == "push" { pushes += 1 } else { responses += 1 }
                #expect(response.command == command && response.isSuccess && response.r == packet.r, "\(kind) \(what)")
                #expect(response.fields == expected, "\(kind) \(what): \(response.fields)")
                #expect(response.fields.keys == command.response, "\(kind) \(what)")
                let canonical = NIMCanonicalJSON.encode(.response(response))
                #expect(canonical["command"]?.stringValue == (command.handler ?? command.command), "\(kind) \(what)")
            }
        }
        #expect(NIMCommands.all.count == 274)
        #expect(requests == 274 && responses == 270)
        #expect(pushes == NIMCommands.all.filter { $0.origin == .push && !$0.isNotifyWrapper }.count)
    }

    /// Each wrapper around every other command: the inner command named, its body read like
    /// that command's `r`.
    @Test func everyNotifyWrapperCarriesEveryCommand() {
        let wrappers = NIMCommands.all.filter(\.isNotifyWrapper)
        #expect(wrappers.map(\.key) == ["4_1", "4_2", "4_10", "4_11"])
        var checked = 0
        for wrapper in wrappers {
            for command in NIMCommands.all where !command.isNotifyWrapper {
                let what = "\(wrapper.key)[\(command.key) \(command.name)]"
                let (body, expected) = Self.responseEntries(command)
                let header: JSONValue = [
                    "sid": .number(JSONNumber(command.sid)), "cid": .number(JSONNumber(command.cid)),
                ]
                let r: [JSONValue] = [0, ["headerPacket": header, "body": .array(body)]]
                let packet = NIMResponse(sid: wrapper.sid, cid: wrapper.cid, ser: 0, code: 200, r: r)
                guard
                    case .response(let response)? = Self.decodeOne(NIMCodec.encode(.response(packet)), .receive, what),
                    let inner = response.inner
                else {
                    Issue.record("\(what): no inner packet")
                    continue
                }
                checked += 1
                #expect(response.command == wrapper && response.fields.isEmpty, "\(what)")
                #expect(inner.command == command && inner.command?.name == command.name, "\(what)")
                #expect(inner.body == .array(body) && inner.fields == expected, "\(what): \(inner.fields)")
                let canonical = NIMCanonicalJSON.encode(.response(response))
                #expect(canonical["inner"]?["command"]?.stringValue == (command.handler ?? command.name), "\(what)")
                #expect(canonical["inner"]?["fields"] == (expected.isEmpty ? nil : .object(expected)), "\(what)")
            }
        }
        #expect(checked == 4 * 270)
    }

    /// The round trips above fail when the decoder misnames: a tag map field or a command
    /// name that differs is seen.
    @Test func theRoundTripNoticesAWrongName() {
        let command = NIMCommands.command(sid: 7, cid: 2)!
        let (r, expected) = Self.responseEntries(command)
        var wrong = expected
        wrong["msg"] = ["to": "nobody"]
        let packet = NIMResponse(sid: 7, cid: 2, ser: 0, code: 200, r: r)
        guard
            case .response(let response)? = NIMCodec.decode(NIMCodec.encode(.response(packet)), direction: .receive)
                .items.first?.nim
        else {
            Issue.record("7_2 did not decode")
            return
        }
        #expect(response.fields == expected && response.fields != wrong)
        #expect(response.command?.name == "msg" && response.command?.name != NIMCommands.command(sid: 7, cid: 3)?.name)
    }
}
