import IMWireCore
import IMWireLeanCloud
import SwiftProtobuf

enum LeanCloudFuzzing {
    /// Decode; what decodes re-encodes and decodes to the same command; findings are deterministic.
    static func binary(_ input: FuzzInput) -> [String] {
        var violations: [String] = []
        let first = LeanCloudBinary.decode(input.payload, limits: input.limits)
        let second = LeanCloudBinary.decode(input.payload, limits: input.limits)
        if !sameFindings(first.findings, second.findings) { violations.append("findings differ between two decodes") }
        guard let command = first.command else {
            if !first.findings.contains(where: { $0.severity == .error }) {
                violations.append("nothing decoded but no error finding")
            }
            return violations
        }
        let bytes = LeanCloudBinary.encode(command)
        let again = LeanCloudBinary.decode(bytes, limits: .default)
        if again.command != command { violations.append("re-encoded bytes decode to a different command") }
        if LeanCloudBinary.encode(again.command ?? LCGenericCommand()) != bytes {
            violations.append("encoding is not stable")
        }
        violations += jsonRoundTrip(command)
        return violations
    }

    /// The canonical JSON of a command decodes back to the same JSON.
    static func jsonRoundTrip(_ command: LCGenericCommand) -> [String] {
        let json = LeanCloudCanonicalJSON.encode(command)
        guard let back = try? LeanCloudCanonicalJSON.decode(json) else {
            return ["canonical JSON \(json) does not decode"]
        }
        return LeanCloudCanonicalJSON.encode(back) == json ? [] : ["canonical JSON round trip changed \(json)"]
    }

    /// The text encodings (variant 0: base64, otherwise flat JSON).
    static func text(_ input: FuzzInput) -> [String] {
        let codec = LeanCloudCodec(encoding: input.variant == 0 ? .base64 : .json, limits: input.limits)
        var violations: [String] = []
        let first = codec.decode(input.payload)
        if !sameFindings(first.findings, codec.decode(input.payload).findings) {
            violations.append("findings differ between two decodes")
        }
        guard let command = first.command else { return violations }
        let frame = LeanCloudCodec(encoding: codec.encoding).encode(command)
        let again = LeanCloudCodec(encoding: codec.encoding).decode(frame)
        // A command with no field left is `{}` in lc.json, which is the keep-alive.
        if again.kind == .heartbeat, command == LCGenericCommand() { return violations }
        guard let decodedAgain = again.command else {
            return violations + ["re-encoded frame does not decode: \(again.findings)"]
        }
        if LeanCloudCanonicalJSON.encode(decodedAgain) != LeanCloudCanonicalJSON.encode(command) {
            violations.append("re-encoded frame decodes to a different command")
        }
        return violations + jsonRoundTrip(command)
    }

    /// Rules whose inputs IMWire rejects although swift-protobuf accepts them (Spec/leancloud.md):
    /// varints beyond 64 bits (swift-protobuf drops the bits) and tags over five bytes inside a
    /// group (swift-protobuf reads those loosely, upb refuses them), nesting past IMWire's limit,
    /// and frames over the size limit.
    static let allowedRejections: Set<RuleID> = ["PB.VARINT-TOO-LONG", "PB.NESTING-TOO-DEEP", "PB.FRAME-TOO-LARGE"]

    /// IMWire's one-pass decoder and swift-protobuf's generated decoder must agree on
    /// accept/reject, except for the listed strict rejections, and when both accept, on every
    /// field the checker reads (`LeanCloudCommandFields`) and on the typed value built on demand.
    static func differential(_ input: FuzzInput) -> [String] {
        let ours = LeanCloudBinary.decode(input.payload, limits: input.limits)
        var options = BinaryDecodingOptions()
        options.messageDepthLimit = 100
        let theirs = try? LCGenericCommand(serializedBytes: input.payload, partial: true, options: options)
        switch (ours.fields, theirs) {
        case (let fields?, let reference?):
            let differences = fields.differences(from: reference)
            var violations =
                differences.isEmpty ? [] : ["both accept, fields differ: " + differences.joined(separator: "; ")]
            if ours.command != reference { violations.append("both accept, typed values differ") }
            return violations
        case (nil, _?):
            let rules = Set(ours.findings.filter { $0.severity == .error }.map(\.ruleID))
            return rules.isDisjoint(with: allowedRejections)
                ? ["IMWire rejects what swift-protobuf accepts: \(ours.findings)"] : []
        case (_?, nil):
            return ["IMWire accepts what swift-protobuf rejects"]
        case (nil, nil):
            return []
        }
    }
}
