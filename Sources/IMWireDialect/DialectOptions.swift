/// The options of one dialect's session checks (timeouts, credentials…), with defaults.
public protocol DialectOptions: Sendable {
    /// The options when nobody set them.
    static var defaults: Self { get }
    /// The options as text that differs when the findings might (a merge compares shards' by
    /// it, and writes it into reports): by default every stored property; options holding a
    /// secret say only whether it is set.
    var settingsDescription: String { get }
}

extension DialectOptions {
    public var settingsDescription: String { String(describing: self) }
}

/// The options of every dialect in one value, each found by its type: the checker carries the set
/// without knowing any dialect, and each dialect reads its own (`options[NIMSessionOptions.self]`).
public struct DialectOptionSet: Sendable {
    private var values: [ObjectIdentifier: any DialectOptions] = [:]

    public init() {}

    /// The options of type `Options`: as set, else their defaults.
    public subscript<Options: DialectOptions>(_ type: Options.Type) -> Options {
        get { values[ObjectIdentifier(type)] as? Options ?? Options.defaults }
        set { values[ObjectIdentifier(type)] = newValue }
    }

    /// Each option set that differs from its defaults, as `settingsDescription`, sorted.
    public var settingsDescriptions: [String] {
        values.values.compactMap { options in
            let text = options.settingsDescription
            return text == Self.defaultsDescription(of: options) ? nil : text
        }.sorted()
    }

    private static func defaultsDescription<Options: DialectOptions>(of _: Options) -> String {
        Options.defaults.settingsDescription
    }
}
