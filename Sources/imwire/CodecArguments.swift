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
        let given = CodecOptionArguments.given
        let definition = dialect.definition
        for (name, value) in given {
            for codec in Dialects.standard.codecs where codec.options.contains(where: { $0.name == name }) {
                do throws(IMWireError) { _ = try codec.unit([name: value]) } catch {
                    let allowed = codec.options.first { $0.name == name }?.values ?? []
                    throw ValidationError("--\(name) \(value): expected one of \(allowed.joined(separator: ", "))")
                }
            }
        }
        let options = Dictionary(given.filter { given in definition.options.contains { $0.name == given.name } }) {
            $1
        }
        do throws(IMWireError) {
            return (try definition.makeCodec(options), try definition.unit(options))
        } catch {
            throw ValidationError(error.description)
        }
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

extension CanonicalCodecUnit {
    /// Whether an input is bytes (given as hex on a line), not text.
    var isBinary: Bool { self != .textFrame }

    /// Whether an input is packets of a stream, which may be longer than one frame.
    var isPackets: Bool { if case .packets = self { true } else { false } }
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

    /// Each option a command takes once (two codecs over MQTT take the same version), with the
    /// help that names the codecs that take it, its values and its default. `encode` takes the
    /// options that change what a codec writes.
    static func options(encoding: Bool) -> TableOptions {
        var declared: [(option: CanonicalCodecOption, codecs: [String])] = []
        for codec in Dialects.standard.codecs {
            for option in codec.options where !(encoding && option.decodingOnly) {
                if let index = declared.firstIndex(where: { $0.option.name == option.name }) {
                    declared[index].codecs.append(codec.name)
                } else {
                    declared.append((option, [codec.name]))
                }
            }
        }
        return TableOptions(
            declared.map { option, codecs in
                var help = codecs.joined(separator: ", ") + ": " + option.help
                if let values = option.values {
                    help +=
                        " (values: \(values.joined(separator: ", "))"
                        + (option.defaultValue.map { "; default: \($0)" } ?? "") + ")"
                }
                return (option.name, option.values == nil ? "text" : option.name, help)
            })
    }

    /// The codec options of a command line whose command takes them (`decode`, or `encode`),
    /// removed from `arguments`.
    static func extract(
        from arguments: inout [String], decode: any ParsableCommand.Type, encode: any ParsableCommand.Type
    ) {
        let encoding = arguments.first == encode._commandName
        let extracted = options(encoding: encoding).extract(
            from: &arguments, commands: [encoding ? encode._commandName : decode._commandName])
        given = extracted.found
        problem = extracted.problem
    }

    /// The help section of the command that takes the options.
    static func help(encoding: Bool) -> String {
        options(encoding: encoding).help(title: "CODEC OPTIONS (each codec declares its own):")
    }
}
