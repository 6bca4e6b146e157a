import IMWireCore
import Testing

@testable import IMWireLeanCloud

/// Drives a tracker with commands written as canonical JSON, one second apart by default.
private struct Session {
    var tracker: LeanCloudSessionTracker
    var frame = 0
    var time: Int64 = 0
    var findings: [Finding] = []

    init(
        options: LeanCloudSessionOptions = LeanCloudSessionOptions(),
        maxTracked: Int = Limits.default.maxPendingRequests
    ) {
        tracker = LeanCloudSessionTracker(options: options, maxTracked: maxTracked)
    }

    mutating func send(_ text: String, after seconds: Double = 1) { observe(text, .send, seconds) }
    mutating func receive(_ text: String, after seconds: Double = 1) { observe(text, .receive, seconds) }

    private mutating func observe(_ text: String, _ direction: Direction, _ seconds: Double) {
        frame += 1
        time += Int64(seconds * 1_000_000)
        let command = (try? LeanCloudCanonicalJSON.decode(json(text))) ?? LCGenericCommand()
        let decoded = LeanCloudBinary.decode(LeanCloudBinary.encode(command))
        findings += tracker.observe(decoded, direction: direction, timeMicros: time, frameIndex: frame)
    }

    mutating func finish() -> [String] {
        findings += tracker.finish(atMicros: time)
        return findings.map { "\($0.ruleID)#\($0.location.frameIndex ?? 0)" }
    }

    mutating func open(peer: String = "tom") {
        send(#"{"cmd":"session","op":"open","appId":"app","peerId":"\#(peer)","i":1,"sessionMessage":{"ua":"js/5"}}"#)
        receive(#"{"cmd":"session","op":"opened","peerId":"\#(peer)","i":1,"sessionMessage":{"st":"T","stTtl":60}}"#)
    }
}

@Suite struct SessionTrackerTests {
    @Test func cleanSessionHasNoFindings() {
        var session = Session()
        session.open()
        session.send(#"{"cmd":"conv","op":"start","i":2,"convMessage":{"m":["tom","jerry"]}}"#)
        session.receive(#"{"cmd":"conv","op":"started","i":2,"convMessage":{"cid":"C1","cdate":"2024"}}"#)
        session.send(
            #"{"cmd":"direct","i":3,"directMessage":{"cid":"C1","msg":"{\"_lctype\":-1,\"_lctext\":\"hi\"}"}}"#)
        session.receive(#"{"cmd":"ack","i":3,"ackMessage":{"uid":"M1","t":"5"}}"#)
        session.receive(
            #"{"cmd":"direct","directMessage":{"id":"M2","cid":"C1","fromPeerId":"jerry","timestamp":"6","msg":"hey"}}"#
        )
        session.send(#"{"cmd":"ack","ackMessage":{"cid":"C1","mid":"M2"}}"#)
        session.send(#"{"cmd":"read","readMessage":{"convs":[{"cid":"C1","timestamp":"6"}]}}"#)
        session.send(#"{"cmd":"session","op":"close","i":4,"sessionMessage":{}}"#)
        session.receive(#"{"cmd":"session","op":"closed","i":4}"#)
        #expect(session.finish().isEmpty)
    }

    /// Found by the CaptureChecker fuzz target (Fuzz/FailCases/CaptureChecker/crash-21339e5a…):
    /// a pcapng timestamp of Int64.max trapped in `finish` (`time + 1`); times far apart
    /// trapped in the timeout checks (`time - request.time`).
    @Test func extremeTimesDoNotTrap() {
        for (first, last) in [
            (Int64.max, Int64.max), (Int64.min, Int64.max), (Int64.max, Int64.min), (Int64.min, Int64.min),
        ] {
            var tracker = LeanCloudSessionTracker(options: LeanCloudSessionOptions())
            let open =
                (try? LeanCloudCanonicalJSON.decode(
                    json(
                        #"""
                        {"cmd":"session","op":"open","appId":"app",\#
                        "peerId":"tom","i":1,"sessionMessage":{"ua":"js/5"}}
                        """#))) ?? LCGenericCommand()
            let query =
                (try? LeanCloudCanonicalJSON.decode(json(#"{"cmd":"conv","op":"query","i":2,"convMessage":{}}"#)))
                ?? LCGenericCommand()
            _ = tracker.observe(
                LeanCloudBinary.decode(LeanCloudBinary.encode(open)), direction: .send, timeMicros: first, frameIndex: 1
            )
            _ = tracker.observe(
                LeanCloudBinary.decode(LeanCloudBinary.encode(query)), direction: .send, timeMicros: last, frameIndex: 2
            )
            let rules = tracker.finish(atMicros: last).map(\.ruleID.rawValue)
            #expect(!rules.isEmpty, "\(first) \(last)")
        }
    }

    @Test func repliesAreMatchedByI() {
        var session = Session()
        session.open()
        session.receive(#"{"cmd":"conv","op":"started","i":9,"convMessage":{"cid":"C1"}}"#)
        session.send(#"{"cmd":"conv","op":"query","i":5,"convMessage":{}}"#)
        session.send(#"{"cmd":"conv","op":"query","i":5,"convMessage":{}}"#)
        session.receive(#"{"cmd":"conv","op":"updated","i":5,"convMessage":{}}"#)
        #expect(
            session.finish() == ["LC.RESPONSE-WITHOUT-REQUEST#3", "LC.DUPLICATE-I#5", "LC.RESPONSE-OP-UNEXPECTED#6"])
    }

    @Test func unansweredRequestsTimeOut() {
        var session = Session(options: LeanCloudSessionOptions(requestTimeoutMicros: 10_000_000))
        session.open()
        session.send(#"{"cmd":"logs","i":7,"logsMessage":{"cid":"C1"}}"#)
        session.send(#"{"cmd":"logs","i":8,"logsMessage":{"cid":"C1"}}"#, after: 11)
        session.send(#"{"cmd":"echo","i":9}"#, after: 2)
        #expect(
            session.finish() == [
                "LC.REQUEST-UNANSWERED#3", "LC.REQUEST-PENDING-AT-END#4", "LC.REQUEST-PENDING-AT-END#5",
            ])
    }

    @Test func nothingBeforeTheSessionIsOpen() {
        var session = Session()
        session.send(#"{"cmd":"echo","i":1}"#)
        session.receive(#"{"cmd":"echo","i":1}"#)
        session.send(#"{"cmd":"direct","i":2,"directMessage":{"cid":"C1","msg":"x"}}"#)
        session.receive(#"{"cmd":"error","i":2,"errorMessage":{"code":4105,"reason":"SESSION_REQUIRED"}}"#)
        #expect(session.finish() == ["LC.BEFORE-SESSION-OPEN#3", "LC.ERROR-REPLY#4"])
    }

    @Test func kickedSessionsMustBeReopenedByTheUser() {
        var session = Session()
        session.open()
        session.receive(
            #"""
            {"cmd":"session","op":"closed","peerId":"tom",\#
            "sessionMessage":{"code":4111,"reason":"SESSION_CONFLICT"}}
            """#)
        session.send(#"{"cmd":"direct","peerId":"tom","i":2,"directMessage":{"cid":"C1","msg":"x"}}"#)
        session.send(#"{"cmd":"session","op":"open","appId":"app","peerId":"tom","i":3,"sessionMessage":{"r":true}}"#)
        session.receive(#"{"cmd":"session","op":"opened","peerId":"tom","i":3}"#)
        session.receive(#"{"cmd":"ack","i":2,"ackMessage":{"uid":"x"}}"#)
        #expect(session.finish() == ["LC.ERROR-REPLY#3", "LC.COMMAND-AFTER-KICK#4", "LC.REOPEN-AFTER-KICK#5"])
    }

    @Test func freshOpenAfterKickIsFine() {
        var session = Session()
        session.open()
        session.receive(#"{"cmd":"session","op":"closed","sessionMessage":{"code":4115}}"#)
        session.send(#"{"cmd":"session","op":"open","appId":"app","peerId":"tom","i":3,"sessionMessage":{"r":false}}"#)
        session.receive(#"{"cmd":"session","op":"opened","peerId":"tom","i":3}"#)
        session.send(#"{"cmd":"echo","i":4}"#)
        session.receive(#"{"cmd":"echo","i":4}"#)
        #expect(session.finish() == ["LC.ERROR-REPLY#3"])
    }

    @Test func receivedMessagesNeedAcks() {
        var session = Session(options: LeanCloudSessionOptions(ackTimeoutMicros: 5_000_000))
        session.open()
        session.receive(
            #"{"cmd":"direct","directMessage":{"id":"M1","cid":"C1","fromPeerId":"jerry","timestamp":"100"}}"#)
        session.receive(
            #"{"cmd":"direct","directMessage":{"id":"M2","cid":"C1","fromPeerId":"jerry","timestamp":"200"}}"#)
        session.receive(#"{"cmd":"direct","directMessage":{"id":"M3","cid":"R1","transient":true}}"#)
        session.receive(#"{"cmd":"direct","directMessage":{"id":"M4","cid":"R2","convType":2}}"#)
        session.receive(#"{"cmd":"direct","directMessage":{"id":"M5","cid":"C2","fromPeerId":"tom"}}"#)
        // JS batch covers M2 only
        session.send(#"{"cmd":"ack","ackMessage":{"cid":"C1","fromts":"150","tots":"200"}}"#)
        session.send(#"{"cmd":"echo","i":2}"#, after: 10)
        session.receive(#"{"cmd":"echo","i":2}"#)
        #expect(session.finish() == ["LC.MISSING-ACK#3"])
    }

    /// The genuine JS SDK (leancloud-realtime 5.0.0-rc.7) acks the first push at once and holds
    /// the next one's ack in a 1 s throttle; logging out right after it leaves that push
    /// unacknowledged (Fixtures/captures/vendor-sdk/leancloud/leancloud-ackclose.pcapng): an
    /// info naming the push, as a request in the same spot is named.
    @Test func aPushStillWithinItsAckTimeAtTheEndIsNamed() {
        var session = Session(options: LeanCloudSessionOptions(ackTimeoutMicros: 5_000_000))
        session.open()
        session.receive(
            #"{"cmd":"direct","directMessage":{"id":"M1","cid":"C1","fromPeerId":"bob","timestamp":"100"}}"#)
        session.send(#"{"cmd":"ack","ackMessage":{"cid":"C1","fromts":"100","tots":"100"}}"#, after: 0.004)
        session.receive(
            #"{"cmd":"direct","directMessage":{"id":"M2","cid":"C1","fromPeerId":"bob","timestamp":"400"}}"#, after: 0.3
        )
        session.send(#"{"cmd":"session","op":"close","i":3}"#, after: 0.004)
        session.receive(#"{"cmd":"session","op":"closed","i":3}"#, after: 0.002)
        #expect(session.finish() == ["LC.ACK-PENDING-AT-END#5"])
        #expect(LeanCloudRules.ackPendingAtEnd.severity == .info)
    }

    @Test func theClientsUserAgentNamesItsPolicy() {
        #expect(LeanCloudPolicies.policy(forUserAgent: "js/5.0.0-rc.7")?.name == "leancloud-js")
        #expect(LeanCloudPolicies.policy(forUserAgent: "LeanCloud-Swift-SDK/17.10.1")?.name == "leancloud-swift")
        #expect(LeanCloudPolicies.policy(forUserAgent: "LeanCloud-Objc-SDK/13.8.0")?.name == "leancloud-swift")
        #expect(LeanCloudPolicies.policy(forUserAgent: "LeanCloud-CSharp-SDK/2.0.0")?.name == "leancloud-csharp")
        #expect(LeanCloudPolicies.policy(forUserAgent: "ios/v3.4.0-beta.4") == nil)
        #expect(LeanCloudPolicies.policy(forUserAgent: "") == nil)
    }

    @Test func unacknowledgedPushesAreTrackedUpToALimit() {
        var session = Session(options: LeanCloudSessionOptions(ackTimeoutMicros: 5_000_000))
        session.open()
        for n in 0..<(Limits.default.maxPendingRequests + 3) {
            session.receive(
                #"{"cmd":"direct","directMessage":{"id":"M\#(n)","cid":"C1","fromPeerId":"jerry"}}"#, after: 0)
        }
        session.send(#"{"cmd":"echo","i":2}"#, after: 10)
        let missing = session.finish().filter { $0.hasPrefix("LC.MISSING-ACK#") }
        #expect(missing.count == Limits.default.maxPendingRequests)
        #expect(
            missing.first == "LC.MISSING-ACK#3"
                && missing.last == "LC.MISSING-ACK#\(Limits.default.maxPendingRequests + 2)")
    }

    /// `Limits.maxPendingRequests` sets the bound: at 2, two of five unanswered requests and
    /// two of five unacknowledged pushes are followed.
    @Test func theLimitOfTrackedRequestsIsTheLimitsOne() {
        var session = Session(options: LeanCloudSessionOptions(ackTimeoutMicros: 5_000_000), maxTracked: 2)
        session.open()
        for n in 0..<5 {
            session.send(#"{"cmd":"conv","op":"query","i":\#(n + 10)}"#, after: 0)
            session.receive(
                #"{"cmd":"direct","directMessage":{"id":"M\#(n)","cid":"C1","fromPeerId":"jerry"}}"#, after: 0)
        }
        session.send(#"{"cmd":"echo","i":2}"#, after: 60)
        let findings = session.finish()
        #expect(findings.filter { $0.hasPrefix("LC.MISSING-ACK#") }.count == 2)
        #expect(findings.filter { $0.hasPrefix("LC.REQUEST-UNANSWERED#") }.count == 2)
    }

    @Test func sizeGoawayAndDirection() {
        var session = Session()
        session.open()
        let big = String(repeating: "x", count: 5200)
        session.send(#"{"cmd":"direct","i":2,"directMessage":{"cid":"C1","msg":"\#(big)"}}"#)
        session.receive(#"{"cmd":"ack","i":2,"ackMessage":{"code":4109,"reason":"FRAME_TOO_LONG"}}"#)
        session.send(#"{"cmd":"session","op":"opened","i":3}"#)
        session.receive(#"{"cmd":"read","readMessage":{}}"#)
        session.receive(#"{"cmd":"goaway"}"#)
        session.send(#"{"cmd":"echo","i":4}"#)
        session.send(#"{"cmd":"echo","i":5}"#)
        session.receive(#"{"cmd":"echo","i":4}"#)
        session.receive(#"{"cmd":"echo","i":5}"#)
        session.receive(#"{"cmd":"error","i":3,"errorMessage":{"code":4114,"reason":"x"}}"#)
        #expect(
            session.finish() == [
                "LC.COMMAND-TOO-LARGE#3", "LC.ERROR-REPLY#4", "LC.WRONG-DIRECTION#5", "LC.WRONG-DIRECTION#6",
                "LC.GOAWAY#7", "LC.GOAWAY-IGNORED#8", "LC.ERROR-REPLY#12",
            ])
    }

    @Test func commandsAfterOwnCloseAreReported() {
        var session = Session()
        session.open()
        session.send(#"{"cmd":"session","op":"close","i":2,"sessionMessage":{}}"#)
        session.receive(#"{"cmd":"session","op":"closed","i":2}"#)
        session.send(#"{"cmd":"direct","directMessage":{"cid":"C1","msg":"late"}}"#)
        #expect(session.finish() == ["LC.COMMAND-AFTER-CLOSE#5", "LC.REQUEST-WITHOUT-I#5"])
    }

    @Test func signaturesAreVerifiedWithTheMasterKey() {
        let key = "masterKey"
        let timestamp: Int64 = 1_700_000_000_000
        let good = LeanCloudSignature.sign("app:tom::\(timestamp):n1", masterKey: key)
        var session = Session(options: LeanCloudSessionOptions(credentials: .init(masterKey: key)))
        session.send(
            #"""
            {"cmd":"session","op":"open","appId":"app","peerId":"tom","i":1,\#
            "sessionMessage":{"s":"\#(good)","t":"\#(timestamp)","n":"n1"}}
            """#)
        session.receive(#"{"cmd":"session","op":"opened","peerId":"tom","i":1}"#)
        session.send(
            #"{"cmd":"conv","op":"start","i":2,"convMessage":{"m":["b","a"],"s":"00","t":"\#(timestamp)","n":"n2"}}"#)
        session.receive(#"{"cmd":"error","i":2,"errorMessage":{"code":4302,"reason":"CONVERSATION_SIGNATURE_FAILED"}}"#)
        #expect(session.finish() == ["LC.SIGNATURE-MISMATCH#3", "LC.ERROR-REPLY#4"])
    }

    @Test func typedMessagesAreChecked() {
        var session = Session()
        session.open()
        session.send(
            #"{"cmd":"direct","i":2,"directMessage":{"cid":"C1","msg":"{\"_lctype\":-2,\"_lctext\":\"pic\"}"}}"#)
        session.receive(#"{"cmd":"ack","i":2,"ackMessage":{"uid":"M"}}"#)
        #expect(session.finish() == ["LC.RICH-MESSAGE-INVALID#3"])
    }
}
