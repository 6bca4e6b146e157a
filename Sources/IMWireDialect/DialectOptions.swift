/// The options of one dialect's session checks (timeouts, credentials…), with defaults.
public protocol DialectOptions: Sendable {
    /// The options when nobody set them.
    static var defaults: Self { get }
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
}
