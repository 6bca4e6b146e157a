import IMWireCore
import IMWireDialect

/// What a command line takes from a registration table: the dialects' settings (`check`, `proxy`,
/// `serve`) and the codecs' options (`decode`, `encode`), options no command declares, and the
/// codec `decode` and `encode` make from them. A dialect added to the table brings its own.
extension Dialects {
    /// Every dialect's settings, in registration order.
    package var settings: [DialectSetting] { all.flatMap(\.settings) }

    /// The dialects' settings as options of a command line.
    package var settingOptions: TableOptions { TableOptions(settings.map { ($0.name, $0.valueName, $0.help) }) }

    /// Each codec option a command takes once (two codecs over MQTT take the same version), with
    /// the help that names the codecs that take it, its values and its default. `encode`
    /// (`encoding`) takes the options that change what a codec writes.
    package func codecOptions(encoding: Bool) -> TableOptions {
        var declared: [(option: CanonicalCodecOption, codecs: [String])] = []
        for codec in codecs {
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

    /// The codec `definition` makes with the codec options `given`, and what one input of it is.
    /// A value an option refuses is an error whichever codec is chosen (`--encoding` with
    /// `--dialect nim` too), and options the codec does not take are left aside.
    package func codec(
        _ definition: CanonicalCodecDefinition, options given: [(name: String, value: String)]
    ) throws(IMWireError) -> (codec: any CanonicalCodec, unit: CanonicalCodecUnit) {
        for (name, value) in given {
            for codec in codecs where codec.options.contains(where: { $0.name == name }) {
                _ = try codec.unit([name: value])
            }
        }
        let options = Dictionary(given.filter { given in definition.options.contains { $0.name == given.name } }) {
            $1
        }
        return (try definition.makeCodec(options), try definition.unit(options))
    }
}
