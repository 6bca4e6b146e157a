import IMWireCore
import IMWireIO

/// A golden fixture file (`Spec/fixtures.schema.json`): an input, its decoded form, and the verdict.
public struct Fixture: Sendable {
    /// A finding a fixture expects: the rule and, when it matters, the byte offset.
    public struct ExpectedFinding: Sendable, Hashable, CustomStringConvertible {
        public let rule: RuleID
        public let offset: Int?
        public var description: String { offset.map { "\(rule)@\($0)" } ?? "\(rule)" }
    }

    public let path: String
    public let object: JSONObject
    public let dialect: String
    public let layer: String
    public let encoding: String?
    /// Expected findings at warning or error; empty means "ok".
    public let expected: [ExpectedFinding]

    /// A fixture file that does not follow `Spec/fixtures.schema.json`.
    public struct FormatError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(path: String, limits: Limits = .default) throws(FormatError) {
        let bytes: [UInt8]
        do { bytes = try FileByteSource.readAll(path: path, limit: limits.maxFrameSize * 4) } catch {
            throw FormatError(description: error.description)
        }
        let root: JSONValue
        do { root = try JSONParser.parse(bytes, maxDepth: limits.maxJSONDepth) } catch {
            throw FormatError(description: "\(path): \(error)")
        }
        guard case .object(let object) = root else { throw FormatError(description: "\(path): not a JSON object") }
        self.path = path
        self.object = object
        guard let dialect = object["dialect"]?.stringValue, let layer = object["layer"]?.stringValue,
            object["description"]?.stringValue != nil, let expect = object["expect"]
        else { throw FormatError(description: "\(path): description, dialect, layer and expect are required") }
        self.dialect = dialect
        self.layer = layer
        encoding = object["encoding"]?.stringValue
        switch expect {
        case .string("ok"):
            expected = []
        case .object:
            expected = [try Fixture.expectation(expect, path)]
        case .array(let items):
            var list: [ExpectedFinding] = []
            for item in items { list.append(try Fixture.expectation(item, path)) }
            expected = list
        default:
            throw FormatError(description: "\(path): expect must be \"ok\", {rule, offset} or a list of them")
        }
    }

    private static func expectation(_ value: JSONValue, _ path: String) throws(FormatError) -> ExpectedFinding {
        guard let rule = value["rule"]?.stringValue else {
            throw FormatError(description: "\(path): expect entry without rule")
        }
        let offset = value["offset"]?.int64Value.flatMap { Int(exactly: $0) }
        return ExpectedFinding(rule: RuleID(rule), offset: offset)
    }

    public var description: String { object["description"]?.stringValue ?? "" }
    public var decoded: JSONValue? { object["decoded"] }

    /// The input bytes: `bytes_hex`, or the UTF-8 of `text`.
    public func input() throws(FormatError) -> [UInt8] {
        if let hex = object["bytes_hex"]?.stringValue {
            do { return try Hex.decode(hex) } catch { throw FormatError(description: "\(path): bytes_hex: \(error)") }
        }
        if let text = object["text"]?.stringValue { return Array(text.utf8) }
        throw FormatError(description: "\(path): neither bytes_hex nor text")
    }
}

/// The outcome of verifying one fixture.
public struct FixtureResult: Sendable {
    public let path: String
    public let problems: [String]
    public var passed: Bool { problems.isEmpty }
}
