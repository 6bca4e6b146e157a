import IMWireCore
import Testing

@testable import IMWireRegistry

/// The options a command line takes from the registration table, and the codec made from them.
@Suite struct TableCommandLineTests {
    @Test func decodeTakesEachCodecOptionOnceNamingItsCodecs() {
        let declared = Dialects.standard.codecOptions(encoding: false).declared
        #expect(declared.map(\.name) == ["encoding", "secret", "mqtt-version"])
        let version = declared.first { $0.name == "mqtt-version" }
        #expect(version?.valueName == "mqtt-version")
        #expect(version?.help.hasPrefix("yun2win, mqtt: ") == true)
        #expect(version?.help.hasSuffix("(values: 3.1, 3.1.1)") == true)
        #expect(declared.first { $0.name == "secret" }?.valueName == "text")
        #expect(
            declared.first { $0.name == "encoding" }?.help.hasSuffix(
                "(values: protobuf, base64, json; default: protobuf)")
                == true)
    }

    @Test func encodeTakesOnlyWhatChangesTheFrame() {
        #expect(Dialects.standard.codecOptions(encoding: true).declared.map(\.name) == ["encoding"])
    }

    @Test func settingsAreEveryDialectsInOrder() {
        let names = Dialects.standard.settingOptions.declared.map(\.name)
        #expect(names == Dialects.standard.all.flatMap(\.settings).map(\.name))
        #expect(!names.isEmpty)
    }

    @Test func aCodecTakesItsOptionsAndLeavesOthersAside() throws {
        let leancloud = try #require(Dialects.standard.codec(named: "leancloud"))
        let nim = try #require(Dialects.standard.codec(named: "nim"))
        let json = try Dialects.standard.codec(leancloud, options: [("encoding", "json")])
        #expect(json.unit == .textFrame)
        #expect(try Dialects.standard.codec(leancloud, options: []).unit != .textFrame)
        // LeanCloud's option means nothing to NIM, but its value is still checked.
        #expect(try Dialects.standard.codec(nim, options: [("encoding", "json")]).unit == .textFrame)
        let refused = #expect(throws: IMWireError.self) {
            try Dialects.standard.codec(nim, options: [("encoding", "xml")])
        }
        #expect(refused?.code == .codecOptionValue && refused?.field == "encoding")
    }
}
