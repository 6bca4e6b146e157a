import Testing

@testable import IMWireCore

/// The options a registration table declares, taken out of a command line and listed in a help section.
@Suite struct TableOptionsTests {
    let options = TableOptions([
        ("nim-timeout", "seconds", "How long a NIM client may wait."),
        ("secret-file", "file", "A file whose first line is the secret."),
    ])

    @Test func takesBothSpellingsAndLeavesTheRest() {
        var arguments = ["check", "a.jsonl", "--nim-timeout", "8", "--lenient", "--secret-file=s.txt", "--x", "1"]
        let (found, problem) = options.extract(from: &arguments, commands: ["check", "proxy"])
        #expect(found.map { "\($0.name)=\($0.value)" } == ["nim-timeout=8", "secret-file=s.txt"])
        #expect(problem == nil)
        #expect(arguments == ["check", "a.jsonl", "--lenient", "--x", "1"])
    }

    @Test func nothingForAnotherCommandOrAfterTheTerminator() {
        var other = ["decode", "--nim-timeout", "8"]
        #expect(options.extract(from: &other, commands: ["check"]).found.isEmpty)
        #expect(other == ["decode", "--nim-timeout", "8"])
        var terminated = ["check", "--", "--nim-timeout", "8"]
        #expect(options.extract(from: &terminated, commands: ["check"]).found.isEmpty)
        #expect(terminated == ["check", "--", "--nim-timeout", "8"])
    }

    @Test func anOptionWithoutItsValueIsAProblem() {
        var arguments = ["check", "--nim-timeout", "--lenient", "a.jsonl"]
        let (found, problem) = options.extract(from: &arguments, commands: ["check"])
        #expect(found.isEmpty)
        #expect(problem == "missing value for '--nim-timeout <seconds>'")
        #expect(arguments == ["check", "--lenient", "a.jsonl"])
        var last = ["check", "--secret-file"]
        #expect(options.extract(from: &last, commands: ["check"]).problem == "missing value for '--secret-file <file>'")
    }

    @Test func helpIsLaidOutAsArgumentParserLaysOutOptions() {
        let long = TableOptions([
            ("a-very-long-option-name", "value", String(repeating: "word ", count: 20).trimmingSuffixSpaces)
        ])
        #expect(
            options.help(title: "T:") == """
                T:
                  --nim-timeout <seconds>
                                          How long a NIM client may wait.
                  --secret-file <file>    A file whose first line is the secret.
                """)
        let lines = long.help(title: "T:").split(separator: "\n")
        #expect(lines[1] == "  --a-very-long-option-name <value>")
        #expect(lines.dropFirst(2).allSatisfy { $0.count <= 79 && $0.hasPrefix(String(repeating: " ", count: 26)) })
        #expect(lines.dropFirst(2).flatMap { $0.split(separator: " ") }.count == 20)
    }
}

extension String {
    fileprivate var trimmingSuffixSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
