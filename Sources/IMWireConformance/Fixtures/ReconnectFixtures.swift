import IMWireCore
import IMWireReconnect
import IMWireRegistry

/// Reconnect golden traces (`Fixtures/reconnect/<vendor>/*.json`, layer `reconnect`): the
/// `input` event file run through the named `policy` must give exactly the `trace` steps and
/// the `final` state (Spec/reconnect.md §2).
enum ReconnectFixtures {
    static func verify(_ fixture: Fixture) throws(IMWireError) -> [String] {
        guard let name = fixture.object["policy"]?.stringValue, let policy = ReconnectPolicies.named(name) else {
            throw IMWireError(
                .fixtureFormat, "policy must name one of \(ReconnectPolicies.names.joined(separator: ", "))",
                path: fixture.path)
        }
        guard let input = fixture.object["input"]?.objectValue, let expected = fixture.object["trace"]?.arrayValue
        else {
            throw IMWireError(
                .fixtureFormat, "reconnect fixtures need input {seed, until?, events} and trace", path: fixture.path)
        }
        let file: EventFile
        do { file = try EventFile.parse(document: input) } catch {
            throw IMWireError(.fixtureFormat, "input: \(error)", path: fixture.path)
        }
        var problems: [String] = []
        if policy.dialect.rawValue != fixture.dialect {
            problems.append("policy \(policy.name) is \(policy.dialect.rawValue), the fixture says \(fixture.dialect)")
        }
        let steps: [TraceStep]
        do { steps = try file.run(policy).steps } catch {
            throw IMWireError(.fixtureFormat, "\(error)", path: fixture.path)
        }
        let actual = steps.map(TraceFormat.json)
        if actual.count != expected.count { problems.append("\(actual.count) steps, expected \(expected.count)") }
        for (index, (got, want)) in zip(actual, expected).enumerated() where !got.semanticallyEquals(want) {
            problems.append("step \(index): \(got), expected \(want)")
            break
        }
        if let final = fixture.object["final"], let last = steps.last,
            !TraceFormat.json(last.state).semanticallyEquals(final)
        {
            problems.append("final state \(TraceFormat.json(last.state)), expected \(final)")
        }
        return problems + FixtureVerifier.compare([], fixture.expected)
    }
}
