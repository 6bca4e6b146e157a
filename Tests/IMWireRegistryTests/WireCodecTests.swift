import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireMQTT
import IMWireNIM
import IMWireSocketIO
import IMWireYun2win
import Testing

/// Every dialect's codec, and every framing's, keeps the typed contract (`WireCodec`) the same way: what it encodes
/// decodes back clean, with a summary and canonical JSON; bytes that are no unit of it decode
/// with findings and no JSON.
@Suite struct WireCodecTests {
    func roundTrip<Codec: WireCodec>(
        _ codec: Codec, _ value: Codec.Value, as input: CanonicalInput, summary: String, json: String
    ) {
        let decoded = codec.decodeValue(codec.encode(value), as: input)
        #expect(decoded.findings.isEmpty, "\(decoded.findings)")
        #expect(decoded.summary == summary)
        #expect(codec.canonicalJSON(decoded).map { JSONWriter.string($0) } == json)
    }

    func garbage<Codec: WireCodec>(_ codec: Codec, as input: CanonicalInput) {
        let decoded = codec.decodeValue(Array("\u{1}\u{2}not a unit".utf8), as: input)
        #expect(!decoded.findings.isEmpty)
        #expect(codec.canonicalJSON(decoded) == nil)
    }

    @Test func leanCloud() {
        var command = LCGenericCommand()
        (command.cmd, command.op, command.peerID, command.i) = (.session, .open, "alice", 1)
        for encoding in LeanCloudEncoding.allCases {
            roundTrip(
                LeanCloudCodec(encoding: encoding), command, as: CanonicalInput(binary: encoding == .protobuf),
                summary: "session/open i=1", json: #"{"cmd":"session","op":"open","peerId":"alice","i":1}"#)
        }
        garbage(LeanCloudCodec(encoding: .json), as: CanonicalInput(binary: false))
    }

    @Test func nim() throws {
        let login = NIMLogin(appKey: "app", account: "alice", token: "tok").request(ser: 1)
        let codec = NIMCodec()
        let decoded = codec.decodeValue(
            codec.encode(.request(login)), as: CanonicalInput(binary: false, direction: .send))
        #expect(decoded.findings.isEmpty)
        #expect(decoded.summary == "2_3 login ser=1")
        #expect(codec.canonicalJSON(decoded).map { JSONWriter.string($0) }?.contains(#""nim":"#) == true)
        garbage(codec, as: CanonicalInput(binary: false))
    }

    @Test func jmessage() throws {
        let login = try JMessageLogin(username: "alice", password: .plain("secret"), rid: 102)
        let codec = JMessageCodec()
        let decoded = codec.decodeValue(codec.encode(login.event), as: CanonicalInput(binary: false, direction: .send))
        #expect(decoded.findings.isEmpty)
        #expect(decoded.summary.contains("login"))
        #expect(codec.canonicalJSON(decoded).map { JSONWriter.string($0) }?.contains(#""jmessage":"#) == true)
        garbage(codec, as: CanonicalInput(binary: false))
    }

    @Test func yun2win() {
        let codec = Yun2winCodec()
        roundTrip(
            codec, .pingreq, as: CanonicalInput(binary: true, direction: .send), summary: "PINGREQ",
            json: #"[{"mqtt":{"type":"PINGREQ"},"yun2win":null}]"#)
        let two = codec.decodeValue(codec.encode(.pingreq) + codec.encode(.pingreq), as: CanonicalInput(binary: true))
        #expect(two.units.count == 2 && two.summary == "PINGREQ, PINGREQ")
        let cut = codec.decodeValue(Array(codec.encode(.pingreq).prefix(1)), as: CanonicalInput(binary: true))
        #expect(cut.units.count == 1 && !cut.findings.isEmpty && codec.canonicalJSON(cut) == nil)
    }

    @Test func mqtt() {
        let codec = MQTTCanonicalCodec()
        roundTrip(codec, .pingreq, as: CanonicalInput(binary: true), summary: "PINGREQ", json: #"[{"type":"PINGREQ"}]"#)
        let cut: DecodedUnits<MQTTDecodedPacket> = codec.decodeValue([0xc0], as: CanonicalInput(binary: true))
        #expect(!cut.findings.isEmpty && codec.canonicalJSON(cut) == nil)
    }

    @Test func socketIO09() {
        let codec = SocketIO09CanonicalCodec()
        roundTrip(
            codec, [.message("hi"), .message("there")], as: CanonicalInput(binary: false),
            summary: "message; message",
            json:
                #"{"packets":[{"type":"message","endpoint":"","data":"hi"},"#
                + #"{"type":"message","endpoint":"","data":"there"}]}"#
        )
        garbage(codec, as: CanonicalInput(binary: false))
    }

    @Test func engineIO() {
        let codec = EngineIOCanonicalCodec()
        roundTrip(
            codec, EngineIOPacket(type: .ping, payload: .text("probe")), as: CanonicalInput(binary: false),
            summary: "ping probe", json: #"{"engineio":{"type":"ping","data":"probe"},"socketio":null}"#)
        garbage(codec, as: CanonicalInput(binary: false))
    }
}
