/// Options that a registration table declares and ArgumentParser does not know (the dialects'
/// settings, the codecs' options): taken out of a command line before the rest is parsed, and
/// listed in a help section of their own.
package struct TableOptions: Sendable {
    /// Each option without its dashes, the name of its value, and its help.
    package let declared: [(name: String, valueName: String, help: String)]

    package init(_ declared: [(name: String, valueName: String, help: String)]) { self.declared = declared }

    /// The options of a command line whose command is one of `commands`, removed from
    /// `arguments`: `--name value` or `--name=value`. Nothing after `--`. An option without its
    /// value (at the end, or before another option) stops the extraction with the problem it is.
    package func extract(from arguments: inout [String], commands: [String]) -> (
        found: [(name: String, value: String)], problem: String?
    ) {
        guard let first = arguments.first, commands.contains(first) else { return ([], nil) }
        let names = Set(declared.map(\.name))
        var found: [(name: String, value: String)] = []
        var problem: String?
        var kept: [String] = [first]
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                kept += arguments[(index - 1)...]
                break
            }
            guard argument.hasPrefix("--") else {
                kept.append(argument)
                continue
            }
            let option = argument.dropFirst(2)
            let name = String(option.prefix { $0 != "=" })
            guard names.contains(name) else {
                kept.append(argument)
                continue
            }
            if option.count > name.count {
                found.append((name, String(option.dropFirst(name.count + 1))))
            } else {
                // As ArgumentParser reads its options: another option is no value.
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    problem = "missing value for '--\(name) <\(valueName(name))>'"
                    kept += arguments[index...]
                    break
                }
                found.append((name, arguments[index]))
                index += 1
            }
        }
        arguments = kept
        return (found, problem)
    }

    private func valueName(_ name: String) -> String { declared.first { $0.name == name }?.valueName ?? "value" }

    /// A help section titled `title`, laid out as ArgumentParser lays out options (help at column
    /// 26, lines of at most 79 columns, which it then leaves alone).
    package func help(title: String) -> String {
        var lines = [title]
        for option in declared {
            var line = "  --\(option.name) <\(option.valueName)>"
            var words = option.help.split(separator: " ").map(String.init)
            if line.count > 24 {
                lines.append(line)
                line = ""
            }
            line += String(repeating: " ", count: 26 - line.count)
            while !words.isEmpty {
                let word = words.removeFirst()
                if line.count + 1 + word.count > 79, line.count > 26 {
                    lines.append(line)
                    line = String(repeating: " ", count: 26)
                }
                line += (line.count > 26 ? " " : "") + word
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
