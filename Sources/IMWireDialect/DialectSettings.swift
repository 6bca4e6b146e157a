import IMWireCore
import IMWireIO

/// One setting of a dialect's checks that the commands which check traffic offer as
/// `--<name> VALUE` (`--nim-timeout 8`). The dialect declares it beside its options
/// (`DialectDefinition.settings`), so no command names a dialect.
public struct DialectSetting: Sendable {
    /// The option without its dashes: `nim-timeout`.
    public let name: String
    /// What the value is, for `--help`: `seconds`.
    public let valueName: String
    public let help: String
    /// A setting this one cannot be given with (`secret-file` and `secret`).
    public let excludes: String?
    /// Sets `value` in `options`, or throws why it cannot: `dialectSettingValue` (or
    /// `dialectSettingFile`) with the setting as the error's field and a reason that starts with
    /// its name.
    public let apply: @Sendable (_ value: String, _ options: inout DialectOptionSet) throws(IMWireError) -> Void

    public init(
        name: String, valueName: String, help: String, excludes: String? = nil,
        apply: @escaping @Sendable (String, inout DialectOptionSet) throws(IMWireError) -> Void
    ) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.excludes = excludes
        self.apply = apply
    }

    /// A number of seconds, more than zero, kept as microseconds at `field`.
    public static func seconds<Options: DialectOptions>(
        _ name: String, help: String, _ field: WritableKeyPath<Options, Int64> & Sendable
    ) -> DialectSetting {
        DialectSetting(name: name, valueName: "seconds", help: help) { value, options throws(IMWireError) in
            guard let seconds = Double(value), seconds > 0, seconds < 1e9 else {
                throw IMWireError(
                    .dialectSettingValue, "\(name) \(value): expected a number of seconds above 0", field: name)
            }
            options[Options.self][keyPath: field] = Int64(seconds * 1_000_000)
        }
    }

    /// A secret given as text, which every user of the machine sees in `ps`.
    public static func secret<Options: DialectOptions>(
        _ name: String, help: String, excludes: String? = nil,
        _ set: @escaping @Sendable (inout Options, String) -> Void
    ) -> DialectSetting {
        DialectSetting(name: name, valueName: "text", help: help, excludes: excludes) { value, options in
            set(&options[Options.self], value)
        }
    }

    /// A secret read from the file the value names (`SecretFile`: a trailing newline dropped),
    /// kept out of `ps`.
    public static func secretFile<Options: DialectOptions>(
        _ name: String, help: String, excludes: String? = nil,
        _ set: @escaping @Sendable (inout Options, String) -> Void
    ) -> DialectSetting {
        DialectSetting(name: name, valueName: "FILE", help: help, excludes: excludes) {
            path, options throws(IMWireError) in
            let secret: String
            do throws(IMWireError) { secret = try SecretFile.read(path) } catch {
                throw IMWireError(.dialectSettingFile, "\(name): \(error.description)", field: name)
            }
            set(&options[Options.self], secret)
        }
    }
}

extension IMWireError.Code {
    /// A value a dialect setting does not take (`field`: the setting; the reason starts with
    /// its name and the value: `nim-timeout soon: expected a number of seconds above 0`).
    public static let dialectSettingValue = Self("dialect.setting-value")
    /// A file a dialect setting names that cannot be read (`field`: the setting; the reason
    /// starts with its name: `secret-file: cannot read F: No such file or directory`).
    public static let dialectSettingFile = Self("dialect.setting-file")
    /// A setting no dialect declares (`field`: its name).
    public static let dialectSettingUnknown = Self("dialect.setting-unknown")
    /// Two settings given that exclude each other (`field`: the one that names the other in
    /// its `excludes`).
    public static let dialectSettingsExclusive = Self("dialect.settings-exclusive")
}

extension DialectOptionSet {
    /// Applies `values` (by setting name; the last value of a setting given twice) with
    /// `settings`, in the order `settings` lists them (so that one setting can read another's
    /// value whatever order the command line had). A name `settings` lacks
    /// (`dialectSettingUnknown`), two settings that exclude each other
    /// (`dialectSettingsExclusive`), a value a setting refuses (`dialectSettingValue`) or a file
    /// it cannot read (`dialectSettingFile`) throws; errors name settings, never a command's flags.
    public mutating func apply(_ values: [(name: String, value: String)], settings: [DialectSetting])
        throws(IMWireError)
    {
        var given: [String: String] = [:]
        for (name, value) in values {
            guard settings.contains(where: { $0.name == name }) else {
                throw IMWireError(.dialectSettingUnknown, "unknown setting '\(name)'", field: name)
            }
            given[name] = value
        }
        for setting in settings {
            guard let value = given[setting.name] else { continue }
            if let other = setting.excludes, given[other] != nil {
                throw IMWireError(
                    .dialectSettingsExclusive, "\(other) and \(setting.name) exclude each other", field: setting.name)
            }
            try setting.apply(value, &self)
        }
    }
}
