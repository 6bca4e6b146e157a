/// A canonical codec as a registration table lists it (`Dialects.codecs`, IMWireRegistry): its
/// name, the options it takes, what one input is, the JSON it encodes, and how to make it. Each
/// dialect declares its own (`DialectDefinition.canonicalCodec`) and each framing without a
/// dialect (bare MQTT) one too; `imwire decode`, `imwire encode` and the conformance testee make
/// their codecs from a table, so none of them names a dialect.
public struct CanonicalCodecDefinition: Sendable {
    /// What the table calls it: the dialect's name (`leancloud`), or the framing's (`mqtt`).
    public let name: String
    /// The options it takes, in the order they are listed.
    public let options: [CanonicalCodecOption]
    /// The canonical JSON it encodes, in a sentence or two (`imwire encode --help`).
    public let jsonForm: String
    private let unit: @Sendable (CanonicalCodecOptionValues) -> CanonicalCodecUnit
    private let make: @Sendable (CanonicalCodecOptionValues) -> any CanonicalCodec

    /// `unit` and `make` are given the options checked, with the defaults of those not given.
    public init(
        name: String, options: [CanonicalCodecOption] = [], jsonForm: String,
        unit: @escaping @Sendable (CanonicalCodecOptionValues) -> CanonicalCodecUnit,
        make: @escaping @Sendable (CanonicalCodecOptionValues) -> any CanonicalCodec
    ) {
        self.name = name
        self.options = options
        self.jsonForm = jsonForm
        self.unit = unit
        self.make = make
    }

    /// The codec with `options` (values by option name; the defaults for those not given), or
    /// why it cannot be made: an option it does not take (`codecOption`), or a value the option
    /// does not take (`codecOptionValue`).
    public func makeCodec(_ options: [String: String] = [:]) throws(IMWireError) -> any CanonicalCodec {
        make(try values(options))
    }

    /// What one input of the codec with `options` is: a text or binary frame, or packets.
    public func unit(_ options: [String: String] = [:]) throws(IMWireError) -> CanonicalCodecUnit {
        unit(try values(options))
    }

    private func values(_ given: [String: String]) throws(IMWireError) -> CanonicalCodecOptionValues {
        for name in given.keys where !options.contains(where: { $0.name == name }) {
            throw IMWireError(.codecOption, "the \(self.name) codec has no option \(name)", field: name)
        }
        var values: [String: String] = [:]
        for option in options {
            if let value = given[option.name] {
                if let allowed = option.values, !allowed.contains(value) {
                    let list =
                        allowed.count > 1
                        ? allowed.dropLast().joined(separator: ", ") + " or " + allowed[allowed.count - 1]
                        : allowed.joined()
                    throw IMWireError(
                        .codecOptionValue, "\(option.name) \(value): expected \(list)", field: option.name)
                }
                values[option.name] = value
            } else if let value = option.defaultValue {
                values[option.name] = value
            }
        }
        return CanonicalCodecOptionValues(values: values)
    }
}

/// One option of a canonical codec (LeanCloud's encoding, the MQTT version), with the values it
/// takes and its default.
public struct CanonicalCodecOption: Sendable {
    /// `encoding`, `mqtt-version`: what a command line gives as `--encoding`.
    public let name: String
    /// What it chooses, in a sentence (`imwire decode --help`).
    public let help: String
    /// The values it takes; nil: any text (a secret).
    public let values: [String]?
    /// The value when none is given; nil: none (the codec decides, as the MQTT version from a CONNECT).
    public let defaultValue: String?
    /// It changes how the codec decodes only, not what it encodes (`imwire encode` does not take it).
    public let decodingOnly: Bool

    public init(
        _ name: String, values: [String]?, default defaultValue: String? = nil, decodingOnly: Bool = false, help: String
    ) {
        self.name = name
        self.values = values
        self.defaultValue = defaultValue
        self.decodingOnly = decodingOnly
        self.help = help
    }

    /// An option whose values are the cases of `Value` (`LeanCloudEncoding`), by raw value.
    package static func oneOf<Value: CaseIterable & RawRepresentable<String>>(
        _ name: String, _: Value.Type, default defaultValue: Value? = nil, decodingOnly: Bool = false, help: String
    ) -> CanonicalCodecOption {
        CanonicalCodecOption(
            name, values: Value.allCases.map(\.rawValue), default: defaultValue?.rawValue, decodingOnly: decodingOnly,
            help: help)
    }
}

/// The options a codec is made with, checked against its declaration: a value for each option
/// given or with a default, always one the option takes.
public struct CanonicalCodecOptionValues: Sendable {
    let values: [String: String]

    /// The value of the option called `name`, nil when it has none.
    public subscript(_ name: String) -> String? { values[name] }

    /// The value of the option called `name` as `Value` (its raw value), nil when it has none.
    public subscript<Value: RawRepresentable<String>>(_ name: String, as _: Value.Type) -> Value? {
        values[name].flatMap(Value.init(rawValue:))
    }
}

/// What one input of a canonical codec is: what `imwire decode` reads, and how.
public enum CanonicalCodecUnit: Sendable, Hashable {
    /// One text frame (a WebSocket text message); a binary frame is given as such.
    case textFrame
    /// One binary frame.
    case binaryFrame
    /// One or more binary packets of a stream, which may be longer than a frame (MQTT);
    /// `payloadText`: text given is the payload of one packet (a yun2win JSON command).
    case packets(payloadText: Bool)
}

extension IMWireError.Code {
    /// An option a canonical codec does not take (`field`: the option).
    public static let codecOption = Self("codec.option")
    /// A value a canonical codec's option does not take (`field`: the option).
    public static let codecOptionValue = Self("codec.option-value")
}

extension CanonicalCodecUnit {
    /// Whether an input is bytes (given as hex on a line), not text.
    package var isBinary: Bool { self != .textFrame }

    /// Whether an input is packets of a stream, which may be longer than one frame.
    package var isPackets: Bool { if case .packets = self { true } else { false } }
}
