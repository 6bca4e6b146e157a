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
            switch error.kind {
            case .invalidValue: throw ValidationError(error.description)
            case .unreadableFile: throw unreadable(error.description)
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

    /// The settings of a command line whose command takes them (`check`, `proxy`, `serve`),
    /// removed from `arguments`: `--name value` or `--name=value`. Nothing after `--`. A setting
    /// without its value is left for `validateDialectSettings` to report.
    static func extract(from arguments: inout [String], commands: [any TakesDialectSettings.Type]) -> [(name: String, value: String)] {
        guard let first = arguments.first, commands.contains(where: { $0._commandName == first }) else { return [] }
        let names = Set(settings.map(\.name))
        var found: [(name: String, value: String)] = []
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
                guard index < arguments.count else {
                    problem = "missing value for '--\(name) <\(valueName(name))>'"
                    break
                }
                found.append((name, arguments[index]))
                index += 1
            }
        }
        arguments = kept
        return found
    }

    private static func valueName(_ name: String) -> String { settings.first { $0.name == name }?.valueName ?? "value" }

    /// The help section of the commands that take the settings, laid out as ArgumentParser lays
    /// out options (help at column 26, lines of at most 79 columns, which it then leaves alone).
    static var help: String {
        var lines = ["DIALECT OPTIONS (each dialect declares its own):"]
        for setting in settings {
            var line = "  --\(setting.name) <\(setting.valueName)>"
            var words = setting.help.split(separator: " ").map(String.init)
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
