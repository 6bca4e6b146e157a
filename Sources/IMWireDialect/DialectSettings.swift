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
    /// Sets `value` in `options`, or throws why it cannot.
    public let apply: @Sendable (_ value: String, _ options: inout DialectOptionSet) throws(DialectSettingError) -> Void

    public init(
        name: String, valueName: String, help: String, excludes: String? = nil,
        apply: @escaping @Sendable (String, inout DialectOptionSet) throws(DialectSettingError) -> Void
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
        DialectSetting(name: name, valueName: "seconds", help: help) { value, options throws(DialectSettingError) in
            guard let seconds = Double(value), seconds > 0, seconds < 1e9 else {
                throw DialectSettingError(.invalidValue, "--\(name) \(value): expected a number of seconds above 0")
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
            path, options throws(DialectSettingError) in
            let secret: String
            do throws(IMWireError) { secret = try SecretFile.read(path) } catch {
                throw DialectSettingError(.unreadableFile, "--\(name): \(error.description)")
            }
            set(&options[Options.self], secret)
        }
    }
}

/// Why a dialect setting's value was refused.
public struct DialectSettingError: Error, Sendable, CustomStringConvertible {
    /// What a command makes of it: a usage error, or input it cannot read.
    public enum Kind: Sendable {
        /// The value is not one the setting takes (a usage error).
        case invalidValue
        /// The file the value names cannot be read.
        case unreadableFile
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

extension DialectOptionSet {
    /// Applies `values` (by setting name; the last value of a setting given twice) with
    /// `settings`, in the order `settings` lists them (so that one setting can read another's
    /// value whatever order the command line had). A name `settings` lacks, or two settings that
    /// exclude each other, is an invalid value.
    public mutating func apply(_ values: [(name: String, value: String)], settings: [DialectSetting])
        throws(DialectSettingError)
    {
        var given: [String: String] = [:]
        for (name, value) in values {
            guard settings.contains(where: { $0.name == name }) else {
                throw DialectSettingError(.invalidValue, "unknown option '--\(name)'")
            }
            given[name] = value
        }
        for setting in settings {
            guard let value = given[setting.name] else { continue }
            if let other = setting.excludes, given[other] != nil {
                throw DialectSettingError(.invalidValue, "--\(other) and --\(setting.name) exclude each other")
            }
            try setting.apply(value, &self)
        }
    }
}
