import ArgumentParser
import IMWire

/// Options shared by the commands that decode and encode: the codec, a codec of the registration
/// table (`Dialects.standard.codecs`) named by `--dialect` and made with the options the codecs
/// declare (`--encoding json`), which `CodecOptionArguments` takes from the command line.
struct DecodeOptions: ParsableArguments {
    @Option(help: ArgumentHelp(CodecName.help))
    var dialect: CodecName = .first

    func validate() throws { _ = try codec() }

    /// The codec `--dialect` names, made with the codec options given, and what one input of it
    /// is. A value an option refuses is a usage error whichever codec is chosen (`--encoding`
    /// with `--dialect nim` too), and options the codec does not take are left aside.
    func codec() throws -> (codec: any CanonicalCodec, unit: CanonicalCodecUnit) {
        if let problem = CodecOptionArguments.problem { throw ValidationError(problem) }
        do throws(IMWireError) {
            return try Dialects.standard.codec(dialect.definition, options: CodecOptionArguments.given)
        } catch {
            throw ValidationError(Self.flagged(error))
        }
    }

    /// A codec option's error in the command line's words: the library names the option and the
    /// value it refused; the flag lists every value it takes.
    static func flagged(_ error: IMWireError) -> String {
        guard error.code == .codecOptionValue, let name = error.field,
            let allowed = Dialects.standard.codecs.lazy.compactMap({ $0.options.first { $0.name == name }?.values })
                .first,
            let value = CodecOptionArguments.given.first(where: { $0.name == name && !allowed.contains($0.value) })?
                .value
        else { return error.description }
        return "--\(name) \(value): expected one of \(allowed.joined(separator: ", "))"
    }
}

/// `--dialect`: a canonical codec of the registration table, by name; the table lists the names
/// `--help` shows.
struct CodecName: ExpressibleByArgument {
    let definition: CanonicalCodecDefinition

    init?(argument: String) {
        guard let definition = Dialects.standard.codec(named: argument) else { return nil }
        self.definition = definition
    }

    private init(_ definition: CanonicalCodecDefinition) { self.definition = definition }

    /// The table's first codec: its first dialect's.
    static var first: CodecName { CodecName(Dialects.standard.codecs[0]) }

    static var allValueStrings: [String] { Dialects.standard.codecs.map(\.name) }

    var defaultValueDescription: String { definition.name }

    static var help: String {
        let dialects = Dialects.standard.all.compactMap(\.canonicalCodec?.name)
        let framings = allValueStrings.filter { !dialects.contains($0) }
        return "The dialect of the input: \(dialects.joined(separator: ", "))"
            + (framings.isEmpty ? "." : "; or packets without a dialect: \(framings.joined(separator: ", ")).")
    }
}

/// The codecs' options on the command line of `decode` and `encode`. Each codec declares its own
/// (`CanonicalCodecDefinition.options`) and ArgumentParser knows none of them: they are taken out
/// of the arguments before the rest is parsed, as the dialects' settings are
/// (`DialectSettingArguments`), and listed in the commands' help.
enum CodecOptionArguments {
    /// What `extract` took out of the command line (set once, before the command runs).
    nonisolated(unsafe) static var given: [(name: String, value: String)] = []
    /// What was wrong with them: an option without its value.
    nonisolated(unsafe) static var problem: String?

    /// The codec options of a command line whose command takes them (`decode`, or `encode`),
    /// removed from `arguments`.
    static func extract(
        from arguments: inout [String], decode: any ParsableCommand.Type, encode: any ParsableCommand.Type
    ) {
        let encoding = arguments.first == encode._commandName
        let extracted = Dialects.standard.codecOptions(encoding: encoding).extract(
            from: &arguments, commands: [encoding ? encode._commandName : decode._commandName])
        given = extracted.found
        problem = extracted.problem
    }

    /// The help section of the command that takes the options.
    static func help(encoding: Bool) -> String {
        Dialects.standard.codecOptions(encoding: encoding).help(title: "CODEC OPTIONS (each codec declares its own):")
    }
}
