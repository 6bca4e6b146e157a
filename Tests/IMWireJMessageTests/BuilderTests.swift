import IMWireCore
import IMWireJMessage
import Testing

/// The typed event builders: each writes the wire text of a fixture (Fixtures/jmessage/event) or
/// of the Spec, equals its own decoding, and reads back the fields it was built with.
@Suite struct JMessageBuilderTests {
    private static let appkey = "4f7aef34fb361292c566a1cd"

    /// Encodes `event`, decodes the text in the direction its kind travels, and returns both.
    private func roundTrip(_ event: JMessageEvent) -> (text: String, decoded: JMessageEvent?, findings: [Finding]) {
        let bytes = JMessageCodec.encode(event)
        let direction: Direction = [JMessageEventKind.request, .reply].contains(event.kind) ? .send : .receive
        let message = JMessageCodec.decode(bytes, direction: direction)
        return (String(decoding: bytes, as: UTF8.self), message.event, message.findings)
    }

    private func decode(_ text: String, _ direction: Direction) throws -> JMessageEvent {
        try #require(JMessageCodec.decode(Array(text.utf8), direction: direction).event)
    }

    private static let hello = JMessageContent.text(
        "hello", extras: JSONObject(["k": "v"]), targetType: .single, targetID: "bob", targetName: "Bob",
        fromID: "alice",
        createTime: 1_507_882_400_000)

    @Test func loginWritesTheFixtureText() throws {
        let login = try JMessageLogin(username: "alice", password: .plain("secret"), rid: 102)
        let (text, decoded, findings) = roundTrip(login.event)
        // Fixtures/jmessage/event/login.json
        #expect(
            text == #"""
                42["login",{"username":"alice","password":"5ebe2294ecd0e0f08eab7690d2a6ee69",\#
                "version":"2.5.0","rid":102}]
                """#)
        #expect(findings.isEmpty, "\(findings)")
        #expect(decoded == login.event)
        let view = try #require(decoded?.login)
        #expect(view == login && view.username == "alice" && view.password == "5ebe2294ecd0e0f08eab7690d2a6ee69")
        #expect(view.version == "2.5.0" && view.rid == 102)
        #expect(
            try JMessageLogin(username: "alice", password: .md5("5ebe2294ecd0e0f08eab7690d2a6ee69"), rid: 102) == login)
    }

    @Test func initIsSignedAsTheFixture() throws {
        let cInit = try JMessageInit.signed(
            appkey: Self.appkey, randomString: "022cd9fd995849b58b3ef0e943421ed9", timestamp: 1_507_882_399_401,
            secret: "master-secret-1",
            rid: 101)
        let (text, decoded, findings) = roundTrip(cInit.event)
        // The Web SDK's order: the app's arguments as the documentation passes them, fromPlatForm, rid.
        let expected =
            #"""
            42["c_init",{"appkey":"4f7aef34fb361292c566a1cd",\#
            "random_str":"022cd9fd995849b58b3ef0e943421ed9","signature":"1ac74f74c5e180a76ab28e4b8e46c7de",\#
            "timestamp":1507882399401,"flag":0,"fromPlatForm":"j","rid":101}]
            """#
        #expect(text == expected)
        #expect(findings.isEmpty && decoded == cInit.event)
        let view = try #require(decoded?.initRequest)
        #expect(view.isSigned(with: "master-secret-1") && !view.isSigned(with: "other"))
        #expect(view.timestamp == "1507882399401" && view.flag == 0 && view.fromPlatform == "j" && view.rid == 101)
        // Fixtures/jmessage/event/c-init.json has the same members (signature from
        // Fixtures/jmessage/signature/valid-ms.json).
        let fixture = try decode(
            #"""
            42["c_init",{"appkey":"4f7aef34fb361292c566a1cd",\#
            "random_str":"022cd9fd995849b58b3ef0e943421ed9","timestamp":1507882399401,"flag":0,\#
            "fromPlatForm":"j","signature":"1ac74f74c5e180a76ab28e4b8e46c7de","rid":101}]
            """#, .send)
        #expect(JSONValue.object(fixture.payload).semanticallyEquals(.object(cInit.event.payload)))
        #expect(fixture.initRequest?.signature == cInit.signature)
    }

    @Test func singleSendWritesTheFixtureText() throws {
        let send = try JMessageSend.single(Self.hello, appkey: Self.appkey, rid: 103)
        let (text, decoded, findings) = roundTrip(send.event)
        // Fixtures/jmessage/event/send-single.json
        let expected =
            #"""
            42["s_across_single_text",{"content":{"version":1,"target_type":"single","from_platform":"web",\#
            "target_id":"bob","target_name":"Bob","from_id":"alice","create_time":1507882400000,"msg_type":"text",\#
            "msg_body":{"text":"hello","extras":{"k":"v"}}},"no_offline":false,"no_notification":false,\#
            "target_name":"Bob","target_id":"bob","appkey":"4f7aef34fb361292c566a1cd","rid":103}]
            """#
        #expect(text == expected)
        #expect(findings.isEmpty, "\(findings)")
        #expect(decoded == send.event)
        let view = try #require(decoded?.send)
        #expect(view == send && !view.isGroup && view.target == "bob" && view.appkey == Self.appkey && view.rid == 103)
        #expect(view.content == Self.hello && view.content.text == "hello" && view.noOffline == false)
    }

    @Test func groupSendWritesTheFixtureText() throws {
        let content = JMessageContent.text(
            "hello", extras: JSONObject(["k": "v"]), targetType: .group, targetID: "10001", targetName: "devs",
            fromID: "alice",
            createTime: 1_507_882_400_000)
        let users = [JMessageAtUser(username: "bob", appkey: Self.appkey)]
        let send = try JMessageSend.group(
            content, appkey: Self.appkey, users: users, noOffline: nil, noNotification: nil, rid: 104)
        let (text, decoded, findings) = roundTrip(send.event)
        // Fixtures/jmessage/event/send-group.json
        let expected =
            #"""
            42["send_group_msg",{"content":{"version":1,"target_type":"group","from_platform":"web",\#
            "target_id":"10001","target_name":"devs","from_id":"alice","create_time":1507882400000,"msg_type":"text",\#
            "msg_body":{"text":"hello","extras":{"k":"v"}}},"target_gid":"10001","users":[{"username":"bob",\#
            "appkey":"4f7aef34fb361292c566a1cd"}],"appkey":"4f7aef34fb361292c566a1cd","rid":104}]
            """#
        #expect(text == expected)
        #expect(findings.isEmpty && decoded == send.event)
        let view = try #require(decoded?.send)
        #expect(view.isGroup && view.target == "10001" && view.users == users && view.content.targetName == "devs")
        // With the SDK's defaults the flags are sent too (2.4.0 `__sendMsg` always sets them).
        let defaults = try JMessageSend.group(content, appkey: Self.appkey, rid: 105)
        #expect(
            defaults.event.payload.keys == ["content", "no_offline", "no_notification", "target_gid", "appkey", "rid"])
        #expect(roundTrip(defaults.event).decoded == defaults.event)
    }

    @Test func msgSyncAndItsReceipt() throws {
        let message = JMessageSyncedMessage(
            msgID: 5001, msgType: 3, fromUID: 77, fromGID: 0, ctimeMs: 1_507_882_401_000,
            content: .text(
                "hello", extras: JSONObject(["k": "v"]), targetType: .single, targetID: "alice", targetName: "Bob",
                fromID: "bob",
                createTime: 1_507_882_400_000))
        let sync = JMessageMsgSync(messages: [message])
        let (text, decoded, findings) = roundTrip(sync.event)
        // Fixtures/jmessage/event/msg-sync.json
        let expected =
            #"""
            42["msg_sync",{"messages":[{"msg_id":5001,"msg_type":3,"from_uid":77,"from_gid":0,\#
            "ctime_ms":1507882401000,"msg_level":0,"need_receipt":false,"content":{"version":1,\#
            "target_type":"single","from_platform":"web","target_id":"alice","target_name":"Bob","from_id":"bob",\#
            "create_time":1507882400000,"msg_type":"text","msg_body":{"text":"hello","extras":{"k":"v"}}}}]}]
            """#
        #expect(text == expected)
        #expect(findings.isEmpty && decoded == sync.event && decoded?.kind == .push)
        let received = try #require(decoded?.msgSync?.messages.first)
        #expect(received == message && received.content.text == "hello" && received.fromUID == 77)

        let receipt = try JMessageMsgReceived(for: received, rid: 109)
        let reply = roundTrip(receipt.event)
        // Fixtures/jmessage/event/msg-recv-v2.json
        #expect(reply.text == #"42["msg_recv_v2",{"msg_id":5001,"msg_type":3,"from_uid":77,"from_gid":0,"rid":109}]"#)
        #expect(reply.findings.isEmpty && reply.decoded == receipt.event && reply.decoded?.kind == .reply)
        #expect(reply.decoded?.msgReceived?.msgID == 5001)
    }

    @Test func syncCheck() throws {
        let check = try JMessageSyncCheck(rid: 113)
        let (text, decoded, findings) = roundTrip(check.event)
        // Fixtures/jmessage/event/sync-check.json
        #expect(
            text == #"42["sync_check",{"sync_key":0,"sync_type":0,"sync_event_key":0,"msg_receipt_key":0,"rid":113}]"#)
        #expect(findings.isEmpty && decoded == check.event && decoded?.syncCheck?.syncKey == 0)
    }

    @Test func ackAndResponseAnswerTheRequest() throws {
        let request = try JMessageLogin(username: "alice", password: .plain("secret"), rid: 101)
        let ack = try JMessageAck(acknowledging: request.event)
        let (text, decoded, findings) = roundTrip(ack.event)
        // Fixtures/jmessage/event/ack.json
        #expect(text == #"42["ack",{"rid":101}]"#)
        #expect(findings.isEmpty && decoded == ack.event && decoded?.kind == .ack)
        #expect(decoded?.ack?.acknowledges(request.event) == true)

        let response = try JMessageResponse(answering: request.event, message: "success")
        let answer = roundTrip(response.event)
        #expect(answer.text == #"42["login",{"rid":101,"code":0,"message":"success"}]"#)
        #expect(answer.findings.isEmpty && answer.decoded == response.event)
        #expect(answer.decoded?.response?.answers(request.event) == true && answer.decoded?.response?.isSuccess == true)

        // A one-to-one send is answered under s_single_text (Fixtures/jmessage/event/send-single-response.json).
        let send = try JMessageSend.single(Self.hello, appkey: Self.appkey, rid: 103)
        let result = try JMessageResponse(answering: send.event, result: JSONObject(["msg_id": 4242]))
        let sendAnswer = roundTrip(result.event)
        #expect(sendAnswer.text == #"42["s_single_text",{"rid":103,"code":0,"msg_id":4242}]"#)
        #expect(sendAnswer.findings.isEmpty && sendAnswer.decoded?.response?.answers(send.event) == true)
    }

    @Test func syncAckCarriesThePushKey() throws {
        let push = try decode(#"42["sync_conversation",{"sync_key":33,"messages":[]}]"#, .receive)
        let ack = try JMessageSyncAck(answering: push, rid: 111)
        let (text, decoded, findings) = roundTrip(ack.event)
        // Fixtures/jmessage/event/sync-conversation-ack.json
        #expect(text == #"42["sync_conversation_ack",{"sync_key":33,"rid":111}]"#)
        #expect(findings.isEmpty && decoded == ack.event && decoded?.syncAck?.answers(push) == true)
        #expect(try JMessageSyncAck(name: "sync_event_ack", syncKey: 5, rid: 1).event.name == "sync_event_ack")
    }

    @Test func aViewOfAnotherEventIsNil() throws {
        let login = try JMessageLogin(username: "alice", password: .plain("secret"), rid: 1).event
        #expect(
            login.initRequest == nil && login.send == nil && login.ack == nil && login.msgSync == nil
                && login.response == nil)
        #expect(try JMessageAck(rid: 1).event.login == nil)
        #expect(throws: IMWireError.jmessageWrongEvent(expected: "login", found: "ack")) {
            try JMessageLogin(JMessageAck(rid: 1).event)
        }
        #expect(throws: IMWireError.jmessageNotAnswerable("msg_sync")) {
            try JMessageSyncAck(answering: JMessageMsgSync(messages: []).event, rid: 1)
        }
    }

    @Test func missingFieldsAndBadRidsAreErrors() throws {
        let noPassword = try decode(#"42["login",{"username":"alice","rid":5}]"#, .send)
        #expect(throws: IMWireError.jmessageMissingField(event: "login", field: "password")) {
            try JMessageLogin(noPassword)
        }
        #expect(noPassword.login == nil)
        // Fixtures/jmessage/event/bad-cinit-no-signature.json
        let unsigned = try decode(
            #"""
            42["c_init",{"appkey":"4f7aef34fb361292c566a1cd","random_str":"022cd9fd995849b58b3ef0e943421ed9",\#
            "timestamp":1507882399401,"flag":0,"fromPlatForm":"j","rid":101}]
            """#, .send)
        #expect(throws: IMWireError.jmessageMissingField(event: "c_init", field: "signature")) {
            try JMessageInit(unsigned)
        }
        let noRid = try decode(
            #"42["login",{"username":"alice","password":"5ebe2294ecd0e0f08eab7690d2a6ee69"}]"#, .send)
        #expect(throws: IMWireError.jmessageMissingField(event: "login", field: "rid")) { try JMessageLogin(noRid) }
        let stringTarget = try decode(
            #"42["s_across_single_text",{"content":{"version":1},"target_id":"bob","rid":3}]"#, .send)
        #expect(throws: IMWireError.jmessageMissingField(event: "s_across_single_text", field: "target_type")) {
            try JMessageSend(stringTarget)
        }

        #expect(throws: IMWireError.jmessageRidOutOfRange(0)) {
            try JMessageLogin(username: "a", password: .plain("p"), rid: 0)
        }
        #expect(throws: IMWireError.jmessageRidOutOfRange(2_147_483_647)) { try JMessageAck(rid: 2_147_483_647) }
        #expect(throws: IMWireError.jmessageTargetTypeMismatch(event: "send_group_msg", targetType: "single")) {
            try JMessageSend.group(Self.hello, appkey: Self.appkey, rid: 1)
        }
        #expect(JMessageRid.range.contains(JMessageRid.random()))
    }

    @Test func theBuilderWritesWhatTheStringAPIWrote() throws {
        // Before: a name and a payload, the MD5 computed and the order kept by the caller.
        var payload = JSONObject()
        payload.append("username", "alice")
        payload.append("password", "5ebe2294ecd0e0f08eab7690d2a6ee69")
        payload.append("version", "2.5.0")
        payload.append("rid", 102)
        let before = JMessageEvent(name: "login", payload: payload, kind: .request)
        // After.
        let after = try JMessageLogin(username: "alice", password: .plain("secret"), rid: 102)
        #expect(before == after.event && JMessageCodec.encode(before) == JMessageCodec.encode(after.event))
    }
}
