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
        do { try options.apply(DialectSettingArguments.given, settings: Dialects.standard.settings) } catch {
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

    /// A settings error in the command line's words: the library names settings, each is a flag here.
    static func flagged(_ error: IMWireError) -> String {
        guard let name = error.field else { return error.description }
        switch error.code {
        case .dialectSettingUnknown: return "unknown option '--\(name)'"
        case .dialectSettingsExclusive:
            let excluded = Dialects.standard.settings.first { $0.name == name }?.excludes ?? ""
            return "--\(excluded) and --\(name) exclude each other"
        default: return "--" + error.description  // the reason starts with the setting's name
        }
    }

    static var options: TableOptions { Dialects.standard.settingOptions }

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
