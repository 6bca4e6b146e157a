import Foundation
import Testing

@testable import IMWireCore

/// The code of the `IMWireError` `body` throws; nil when it throws none or another error.
func errorCode(_ body: () throws -> some Any) -> IMWireError.Code? {
    do {
        _ = try body()
        return nil
    } catch {
        return (error as? IMWireError)?.code
    }
}

@Suite struct IMWireErrorTests {
    @Test func theDescriptionPutsTheWhereBeforeTheReason() {
        #expect(IMWireError(.jsonSyntax, "bad").description == "bad")
        #expect(IMWireError(.jsonSyntax, "bad", path: "a.json").description == "a.json: bad")
        #expect(IMWireError(.jsonSyntax, "bad", line: 3).description == "line 3: bad")
        #expect(IMWireError(.jsonSyntax, "bad", offset: 7).description == "at offset 7: bad")
        #expect(
            IMWireError(.jsonSyntax, "bad", path: "a.jsonl", line: 3, offset: 7).description
                == "a.jsonl line 3 at offset 7: bad")
        #expect(
            IMWireError(.jsonSyntax, "bad", summary: "cannot read", path: "a.json").description
                == "cannot read a.json: bad")
        // A field and findings are kept, not printed: the reason says what they are.
        #expect(IMWireError(.codecOption, "bad", field: "encoding").description == "bad")
    }

    /// The texts the types it replaced printed, word for word.
    @Test func theTextsOfTheOldErrorsAreKept() {
        #expect(
            IMWireError.json("unexpected data after the JSON value", at: 3).description
                == "invalid JSON at offset 3: unexpected data after the JSON value")
        #expect(IMWireError.hex("not a hex digit", at: 2).description == "invalid hex at offset 2: not a hex digit")
        #expect(
            IMWireError.base64("padding before the end", at: 4).description
                == "invalid base64 at offset 4: padding before the end")
        #expect(errorCode { try JSONParser.parse("[1] 2") } == .jsonSyntax)
        #expect(errorCode { try Hex.decode("0g") } == .hexSyntax)
        #expect(errorCode { try Base64.decode("Zg") } == .base64Syntax)
    }

    @Test func equalityComparesEveryPart() {
        let error = IMWireError.json("bad", at: 3)
        #expect(error == IMWireError.json("bad", at: 3))
        #expect(error.hashValue == IMWireError.json("bad", at: 3).hashValue)
        #expect(error != IMWireError.json("bad", at: 4))
        #expect(error != IMWireError.json("worse", at: 3))
        #expect(error != IMWireError(.jsonSyntax, "bad", offset: 3))  // no summary
        #expect(error != IMWireError(.hexSyntax, "bad", summary: "invalid JSON", offset: 3))
    }

    /// A typed throws or a `Result` of it carries one reference, whatever the error holds.
    @Test func theErrorIsOneWordWide() {
        #expect(MemoryLayout<IMWireError>.size == MemoryLayout<Int>.size)
        #expect(MemoryLayout<Result<Int, IMWireError>>.size <= 2 * MemoryLayout<Int>.size)
    }

    @Test func anOffsetMovesWithItsPart() {
        #expect(IMWireError.json("bad", at: 3).offset(by: 10) == IMWireError.json("bad", at: 13))
        #expect(IMWireError(.jsonSyntax, "bad").offset(by: 10).offset == nil)
    }

    /// Every code any module declares (`extension IMWireError.Code { public static let name =
    /// Self("area.what") }`, read from the sources), one name and one meaning each: no two
    /// modules declare the same code, and each is a dotted lowercase name.
    @Test func codesAreDistinctAcrossTheModules() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
        let declaration = try Regex(#"public static let (\w+) = Self\("([^"]*)"\)"#)
        let shape = try Regex(#"^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$"#)
        var codes: [(name: String, value: String, file: String)] = []
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = "\n" + (try String(contentsOfFile: sources.appendingPathComponent(file).path, encoding: .utf8))
            for block in text.components(separatedBy: "\nextension IMWireError.Code {").dropFirst() {
                let body = block[..<(block.range(of: "\n}")?.lowerBound ?? block.endIndex)]
                for match in body.matches(of: declaration) {
                    codes.append((String(match.output[1].substring!), String(match.output[2].substring!), file))
                }
            }
        }
        // Core's 6, and the 66 the modules above it declared when the error types became codes.
        #expect(codes.count >= 72, "\(codes.count) codes found under \(sources.path)")
        for code in codes {
            #expect(code.value.wholeMatch(of: shape) != nil, "\(code.file): \(code.name) = \(code.value)")
        }
        for (value, same) in Dictionary(grouping: codes, by: \.value) where same.count > 1 {
            Issue.record("\(value) is declared \(same.count) times: \(same.map { "\($0.file) \($0.name)" })")
        }
        for (name, same) in Dictionary(grouping: codes, by: \.name) where same.count > 1 {
            Issue.record("IMWireError.Code.\(name) is declared \(same.count) times: \(same.map(\.file))")
        }
        // The scan sees what the compiler sees.
        let core = Dictionary(codes.map { ($0.name, $0.value) }) { first, _ in first }
        #expect(core["jsonSyntax"] == IMWireError.Code.jsonSyntax.rawValue)
        #expect(core["codecOptionValue"] == IMWireError.Code.codecOptionValue.rawValue)
    }
}
