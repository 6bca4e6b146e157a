import IMWireCheck
import IMWireCore
import Testing

/// A 1xx response other than 101 answers no request (RFC 9110 §15.2): the final response that
/// follows is the request's, and the interim response's bytes are counted with the exchange.
@Suite struct HTTPInterimResponseTests {
    static func stream(_ t: Double, _ dir: String, _ text: String) -> String {
        #"{"type":"stream","conn":"h","t":\#(t),"dir":"\#(dir)","hex":"\#(Hex.encode(Array(text.utf8)))"}"#
    }

    @Test func continueThenOKIsOneExchange() throws {
        let request = """
            POST /socket.io/?EIO=3&transport=polling&sid=s HTTP/1.1\r\n\
            Expect: 100-continue\r\nContent-Length: 4\r\n\r\n
            """
        let interim = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n"
        let final = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        let report = check(lines: [
            Self.stream(0, "send", request), Self.stream(0.01, "receive", interim), Self.stream(0.02, "send", "1:6x"),
            Self.stream(0.03, "receive", final),
        ])
        let rules = report.allFindings.map(\.ruleID.rawValue)
        #expect(
            !rules.contains("HTTP.RESPONSE-WITHOUT-REQUEST") && !rules.contains("HTTP.REQUEST-UNANSWERED"), "\(rules)")
        let captured = request.utf8.count + interim.utf8.count + 4 + final.utf8.count
        let accounts = report.connections.map(\.account)
        #expect(accounts.reduce(0) { $0 + $1.captured } == captured)
        #expect(accounts.allSatisfy { $0.decoded + $0.skippedTotal + $0.lost == $0.captured && $0.decoded >= 0 })
    }

    @Test func aSecondFinalResponseIsStillReported() {
        let report = check(lines: [
            Self.stream(0, "send", "GET / HTTP/1.1\r\n\r\n"),
            Self.stream(
                0.01, "receive",
                "HTTP/1.1 100 Continue\r\n\r\n"
                    + String(repeating: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", count: 2)),
        ])
        #expect(report.allFindings.map(\.ruleID.rawValue).contains("HTTP.RESPONSE-WITHOUT-REQUEST"))
    }
}
