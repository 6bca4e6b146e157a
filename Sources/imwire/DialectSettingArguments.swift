import ArgumentParser
import IMWire

/// A command that checks traffic and so takes the settings each dialect declares
/// (`DialectDefinition.settings`: `--nim-timeout 8`, `--secret-file F`).
protocol TakesDialectSettings: ParsableCommand {}

extension TakesDialectSettings {
    /// Tries the settings the command line gave (from `validate()`, so that a usage error is
    /// shown with the command's usage).
    func validateDialectSettings() throws {
        if let problem = DialectSettingArguments.problem { throw ValidationError(problem) }
        var scratch = DialectOptionSet()
        try applyDialectSettings(to: &scratch)
    }

    /// Sets the dialect settings the command line gave in `options`: exit 64 for a value a
    /// setting refuses, 2 for a file one cannot read.
    func applyDialectSettings(to options: inout DialectOptionSet) throws {
        do { try options.apply(DialectSettingArguments.given, settings: DialectSettingArguments.settings) } catch {
            let text = DialectSettingArguments.flagged(error)
            switch error.code {
            case .dialectSettingFile: throw unreadable(text)
            default: throw ValidationError(text)
            }
        }
    }
}

/// The dialects' settings on the command line. ArgumentParser knows only the options a command
/// declares, and a command declares none of a dialect's: they are taken out of the arguments
/// before the rest is parsed, and listed in the help of the commands that take them.
enum DialectSettingArguments {
    /// What `extract` took out of the command line (set once, before the command runs).
    nonisolated(unsafe) static var given: [(name: String, value: String)] = []
    /// What was wrong with them: a setting without its value.
    nonisolated(unsafe) static var problem: String?

    static var settings: [DialectSetting] { Dialects.standard.all.flatMap(\.settings) }

    /// A settings error in the command line's words: the library names settings, each is a flag here.
    static func flagged(_ error: IMWireError) -> String {
        guard let name = error.field else { return error.description }
        switch error.code {
        case .dialectSettingUnknown: return "unknown option '--\(name)'"
        case .dialectSettingsExclusive:
            return "--\(settings.first { $0.name == name }?.excludes ?? "") and --\(name) exclude each other"
        default: return "--" + error.description  // the reason starts with the setting's name
        }
    }

    static var options: TableOptions { TableOptions(settings.map { ($0.name, $0.valueName, $0.help) }) }

    /// The settings of a command line whose command takes them (`check`, `proxy`, `serve`),
    /// removed from `arguments`. A setting without its value is left for
    /// `validateDialectSettings` to report.
    static func extract(from arguments: inout [String], commands: [any TakesDialectSettings.Type]) -> [(
        name: String, value: String
    )] {
        let (found, problem) = options.extract(from: &arguments, commands: commands.map { $0._commandName })
        self.problem = problem
        return found
    }

    /// The help section of the commands that take the settings.
    static var help: String { options.help(title: "DIALECT OPTIONS (each dialect declares its own):") }
}

/// Options that a registration table declares and ArgumentParser does not know (the dialects'
/// settings, the codecs' options): taken out of a command line before the rest is parsed, and
/// listed in a help section of their own.
struct TableOptions {
    /// Each option without its dashes, the name of its value, and its help.
    let declared: [(name: String, valueName: String, help: String)]

    init(_ declared: [(name: String, valueName: String, help: String)]) { self.declared = declared }

    /// The options of a command line whose command is one of `commands`, removed from
    /// `arguments`: `--name value` or `--name=value`. Nothing after `--`. An option without its
    /// value (at the end, or before another option) stops the extraction with the problem it is.
    func extract(from arguments: inout [String], commands: [String]) -> (
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
    func help(title: String) -> String {
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
