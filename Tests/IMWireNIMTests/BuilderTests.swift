import IMWireCore
import IMWireNIM
import Testing

/// The typed request builders: each writes the wire text of a fixture (Fixtures/nim/packet),
/// equals its own decoding, and reads back the fields it was built with.
@Suite struct NIMBuilderTests {
    /// Encodes `request`, decodes the text as a client message and returns the text and the request.
    private func roundTrip(_ request: NIMRequest) -> (text: String, decoded: NIMRequest?, findings: [Finding]) {
        let bytes = NIMCodec.encode(.request(request))
        let message = NIMCodec.decode(bytes, direction: .send)
        guard case .request(let decoded)? = message.items.first?.nim else {
            return (String(decoding: bytes, as: UTF8.self), nil, message.findings)
        }
        return (String(decoding: bytes, as: UTF8.self), decoded, message.findings)
    }

    @Test func loginWritesTheFixtureText() throws {
        let request = NIMLogin(appKey: "app-key-1", account: "alice", token: "token-1", os: "Chrome", deviceId: "dev-1")
            .request(ser: 1)
        let (text, decoded, findings) = roundTrip(request)
        // Fixtures/nim/packet/login-request.json
        #expect(
            text
                == #"""
                3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"3":16,"4":"Chrome","6":190,\#
                "9":1,"13":"dev-1","18":"app-key-1","19":"alice","40":"8.5.0","1000":"token-1"}}]}
                """#
        )
        #expect(findings.isEmpty, "\(findings)")
        #expect(decoded == request)
        let login = try #require(decoded?.login)
        #expect(login.appKey == "app-key-1" && login.account == "alice" && login.token == "token-1")
        #expect(
            login.clientType == .web && login.os == "Chrome" && login.sdkVersion == 190 && login.protocolVersion == 1)
        #expect(login.deviceId == "dev-1" && login.sdkHumanVersion == "8.5.0")
        #expect(decoded?.field("account") == "alice")
    }

    @Test func loginTakesOtherFieldsByNameInTagOrder() throws {
        let login = try NIMLogin(
            appKey: "k", account: "a", token: "t", sdkVersion: nil, protocolVersion: nil, sdkHumanVersion: nil
        )
        .setting("customTag", "tag-1").setting("authType", 1)
        let (text, decoded, findings) = roundTrip(login.request(ser: 7))
        #expect(
            text == #"""
                3:::{"SID":2,"CID":3,"SER":7,"Q":[{"t":"Property","v":{"3":16,\#
                "18":"k","19":"a","38":"tag-1","115":1,"1000":"t"}}]}
                """#)
        #expect(findings.isEmpty, "\(findings)")
        #expect(decoded == login.request(ser: 7))
        #expect(decoded?.login == login)
        #expect(decoded?.login?.property["customTag"] == "tag-1")
    }

    @Test func heartbeatAndLogout() {
        let (text, decoded, findings) = roundTrip(.heartbeat)
        // Fixtures/nim/packet/heartbeat-request.json
        #expect(text == #"3:::{"SID":1,"CID":2,"SER":0,"Q":[]}"#)
        #expect(findings.isEmpty && decoded == .heartbeat && decoded?.isHeartbeat == true)
        let logout = roundTrip(.logout(ser: 9))
        #expect(logout.text == #"3:::{"SID":2,"CID":6,"SER":9,"Q":[]}"#)
        #expect(logout.findings.isEmpty && logout.decoded == .logout(ser: 9) && logout.decoded?.isLogout == true)
        #expect(logout.decoded?.command?.name == "logout")
    }

    @Test func sendMsgWritesTheFixtureText() throws {
        let message = NIMSendMsg.text("hi", to: "bob", idClient: "c-1")
        let (text, decoded, findings) = roundTrip(message.request(ser: 3))
        // Fixtures/nim/packet/send-msg.json
        #expect(
            text == #"""
                3:::{"SID":7,"CID":1,"SER":3,"Q":[{"t":"Property",\#
                "v":{"0":0,"1":"bob","8":0,"9":"hi","11":"c-1"}}]}
                """#)
        #expect(findings.isEmpty, "\(findings)")
        #expect(decoded == message.request(ser: 3))
        let view = try #require(decoded?.sendMsg)
        #expect(view == message)
        #expect(
            view.scene == .p2p && view.to == "bob" && view.type == .text && view.body == "hi" && view.idClient == "c-1")
    }

    @Test func sendMsgPicksTheCommandByScene() throws {
        let team = try NIMSendMsg.text("hello", to: "team-1", scene: .team, idClient: "c-2").setting(
            "custom", "{\"k\":1}")
        let request = team.request(ser: 4)
        #expect(request.sid == 8 && request.cid == 2 && request.command?.name == "sendTeamMsg")
        let (text, decoded, findings) = roundTrip(request)
        let expected = #"""
            3:::{"SID":8,"CID":2,"SER":4,"Q":[{"t":"Property","v":{"0":1,\#
            "1":"team-1","8":0,"9":"hello","11":"c-2","15":"{\"k\":1}"}}]}
            """#
        #expect(text == expected)
        #expect(findings.isEmpty && decoded == request && decoded?.sendMsg == team)
        let superTeam = NIMSendMsg.text("x", to: "st", scene: .superTeam, idClient: "c-3").request(ser: 5)
        #expect(superTeam.sid == 21 && superTeam.cid == 2 && roundTrip(superTeam).decoded == superTeam)
    }

    @Test func syncWritesTheFixtureText() throws {
        let sync = try NIMSync(timetags: ["myInfo": 0, "offlineMsgs": 0, "teams": 0, "roamingMsgs": 0])
        let (text, decoded, findings) = roundTrip(sync.request(ser: 2))
        // Fixtures/nim/packet/sync-request.json
        #expect(text == #"3:::{"SID":5,"CID":1,"SER":2,"Q":[{"t":"Property","v":{"1":0,"2":0,"3":0,"7":0}}]}"#)
        #expect(findings.isEmpty && decoded == sync.request(ser: 2))
        let view = try #require(decoded?.sync)
        #expect(view == sync && view[timetag: "teams"] == 0 && view[timetag: "friends"] == nil)
        #expect(view.timetags.map(\.field) == ["myInfo", "offlineMsgs", "teams", "roamingMsgs"])
    }

    @Test func genericPropertyByFieldName() throws {
        // The example of nim.md #request, built by name in another order: the tags come out ascending.
        let property = try NIMProperty(
            NIMTagMaps.msg, ["idClient": "<idClient>", "body": "hi", "type": 0, "to": "bob", "scene": 0])
        let request = try NIMRequest(sid: 7, cid: 1, ser: 42, property: property)
        #expect(
            JSONWriter.string(request.json)
                == #"""
                {"SID":7,"CID":1,"SER":42,"Q":[{"t":"Property",\#
                "v":{"0":0,"1":"bob","8":0,"9":"hi","11":"<idClient>"}}]}
                """#)
        let (_, decoded, findings) = roundTrip(request)
        #expect(findings.isEmpty && decoded == request)
        #expect(try decoded?.property(NIMTagMaps.msg) == property)
        #expect(property["body"] == "hi" && property["pushContent"] == nil)
        #expect(property.fields.keys == ["scene", "to", "type", "body", "idClient"])
    }

    @Test func anUnknownFieldIsAnErrorNotADrop() {
        #expect(throws: IMWireError.nimUnknownField(map: "login", field: "acount")) {
            try NIMProperty(NIMTagMaps.login, ["account": "alice", "acount": "typo"])
        }
        #expect(throws: IMWireError.nimUnknownField(map: "msg", field: "text")) {
            try NIMSendMsg.text("hi", to: "bob", idClient: "c-1").setting("text", "hi")
        }
        #expect(throws: IMWireError.nimUnknownField(map: "sync", field: "everything")) {
            try NIMSync(timetags: ["myInfo": 0, "everything": 0])
        }
        #expect(throws: IMWireError.nimUnknownField(map: "login", field: "password")) {
            try NIMLogin(appKey: "k", account: "a", token: "t").setting("password", "p")
        }
    }

    @Test func aMissingRequiredFieldIsAnError() throws {
        let noToken = try NIMProperty(NIMTagMaps.login, ["appKey": "k", "account": "alice"])
        #expect(throws: IMWireError.nimMissingField(map: "login", field: "token")) { try NIMLogin(noToken) }
        #expect(throws: IMWireError.nimMissingField(map: "login", field: "account")) {
            try NIMLogin(appKey: "k", account: "a", token: "t").setting("account", nil)
        }
        let wrongType = try NIMProperty(NIMTagMaps.login, ["appKey": "k", "account": 7, "token": "t"])
        #expect(throws: IMWireError.nimWrongType(map: "login", field: "account", expected: "a string")) {
            try NIMLogin(wrongType)
        }
        let noIdClient = try NIMProperty(NIMTagMaps.msg, ["scene": 0, "to": "bob", "type": 0])
        #expect(throws: IMWireError.nimMissingField(map: "msg", field: "idClient")) { try NIMSendMsg(noIdClient) }

        // A decoded login without its token: the throwing view says why, the optional one is nil.
        let text = #"3:::{"SID":2,"CID":3,"SER":1,"Q":[{"t":"Property","v":{"18":"k","19":"alice"}}]}"#
        guard case .request(let request)? = NIMCodec.decode(Array(text.utf8), direction: .send).items.first?.nim else {
            Issue.record("no request")
            return
        }
        #expect(throws: IMWireError.nimMissingField(map: "login", field: "token")) { try NIMLogin(request) }
        #expect(request.login == nil)
        #expect(throws: IMWireError.nimMissingProperty(command: "2_3 login")) {
            try NIMLogin(NIMRequest(sid: 2, cid: 3, ser: 1))
        }
    }

    @Test func aViewOfAnotherCommandIsNil() throws {
        let login = NIMLogin(appKey: "k", account: "a", token: "t").request(ser: 1)
        #expect(login.sendMsg == nil && login.sync == nil && NIMRequest.heartbeat.login == nil)
        #expect(throws: IMWireError.nimWrongCommand(expected: "2_3 login", found: "1_2 heartbeat")) {
            try NIMLogin(NIMRequest.heartbeat)
        }
        #expect(throws: IMWireError.nimPropertyNotTaken(command: "7_1 sendMsg", map: "login")) {
            try NIMRequest(sid: 7, cid: 1, ser: 1, property: NIMProperty(NIMTagMaps.login))
        }
        #expect(throws: IMWireError.nimPropertyNotTaken(command: "2_6 logout", map: "login")) {
            try NIMRequest(sid: 2, cid: 6, ser: 1, property: NIMProperty(NIMTagMaps.login))
        }
        // A wire Property with a tag the map lacks is reported, not renamed.
        #expect(throws: IMWireError.nimUnknownTag(map: "login", tag: "999")) {
            try NIMProperty(NIMTagMaps.login, tagged: JSONObject(["19": "alice", "999": 1]))
        }
    }

    @Test func theBuilderWritesWhatTheStringAPIWrote() {
        // Before: type strings and numeric tags, nothing checked.
        let before = NIMRequest(
            sid: 2, cid: 3, ser: 1,
            params: [
                NIMParameter(
                    type: "Property",
                    value: [
                        "3": 16, "4": "Chrome", "6": 190, "9": 1, "13": "dev-1", "18": "app-key-1", "19": "alice",
                        "40": "8.5.0", "1000": "t",
                    ])
            ])
        // After: fields by name.
        let after = NIMLogin(appKey: "app-key-1", account: "alice", token: "t", os: "Chrome", deviceId: "dev-1")
            .request(ser: 1)
        #expect(NIMCodec.encode(.request(before)) == NIMCodec.encode(.request(after)))
        // The hand-made request lacks the names the decoder adds, so it does not equal its decoding;
        // the built one does.
        #expect(before != after && before.login == after.login)
    }
}
