import IMWireCore
import Testing

/// A message's bytes never show when it is formatted: a login's carry its password.
@Suite struct WireMessageFormattingTests {
    static let login = WireMessage(
        direction: .send, frameType: .text,
        payload: Array(#"42["login",{"username":"alice","password":"hunter2-secret"}]"#.utf8))

    @Test func everyFormShowsTheSizeAndNotTheBytes() {
        var dumped = ""
        dump(Self.login, to: &dumped)
        for text in ["\(Self.login)", String(reflecting: Self.login), String(describing: Self.login), dumped] {
            // Neither as text nor as the numbers of its bytes, as the default form writes them.
            #expect(!text.contains("hunter2") && !text.contains("alice"), "\(text)")
            #expect(!text.contains(Self.login.payload.prefix(6).map(String.init).joined(separator: ", ")), "\(text)")
            #expect(text.contains("\(Self.login.payload.count) bytes"), "\(text)")
        }
        #expect("\(Self.login)" == "WireMessage(send, text, \(Self.login.payload.count) bytes)")
    }
}
