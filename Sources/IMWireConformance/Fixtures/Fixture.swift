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

    /// The fixture at `path`; a file that cannot be read throws `fileRead`, one that does not
    /// follow `Spec/fixtures.schema.json` `fixtureFormat`.
    public init(path: String, limits: Limits = .default) throws(IMWireError) {
        let bytes = try FileByteSource.readAll(path: path, limit: limits.maxFrameSize * 4)
        let root: JSONValue
        do { root = try JSONParser.parse(bytes, maxDepth: limits.maxJSONDepth) } catch {
            throw IMWireError(.fixtureFormat, "\(error)", path: path)
        }
        guard case .object(let object) = root else {
            throw IMWireError(.fixtureFormat, "not a JSON object", path: path)
        }
        self.path = path
        self.object = object
        guard let dialect = object["dialect"]?.stringValue, let layer = object["layer"]?.stringValue,
            object["description"]?.stringValue != nil, let expect = object["expect"]
        else { throw IMWireError(.fixtureFormat, "description, dialect, layer and expect are required", path: path) }
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
            throw IMWireError(.fixtureFormat, "expect must be \"ok\", {rule, offset} or a list of them", path: path)
        }
    }

    private static func expectation(_ value: JSONValue, _ path: String) throws(IMWireError) -> ExpectedFinding {
        guard let rule = value["rule"]?.stringValue else {
            throw IMWireError(.fixtureFormat, "expect entry without rule", path: path)
        }
        let offset = value["offset"]?.int64Value.flatMap { Int(exactly: $0) }
        return ExpectedFinding(rule: RuleID(rule), offset: offset)
    }

    public var description: String { object["description"]?.stringValue ?? "" }
    public var decoded: JSONValue? { object["decoded"] }

    /// The input bytes: `bytes_hex`, or the UTF-8 of `text`.
    public func input() throws(IMWireError) -> [UInt8] {
        if let hex = object["bytes_hex"]?.stringValue {
            do { return try Hex.decode(hex) } catch {
                throw IMWireError(.fixtureFormat, "bytes_hex: \(error)", path: path)
            }
        }
        if let text = object["text"]?.stringValue { return Array(text.utf8) }
        throw IMWireError(.fixtureFormat, "neither bytes_hex nor text", path: path)
    }
}

/// The outcome of verifying one fixture.
public struct FixtureResult: Sendable {
    public let path: String
    public let problems: [String]
    public var passed: Bool { problems.isEmpty }
}

extension IMWireError.Code {
    /// A fixture file that does not follow `Spec/fixtures.schema.json` (`path`: the file), or
    /// a conformance case the testee cannot run.
    public static let fixtureFormat = Self("fixture.format")
}
