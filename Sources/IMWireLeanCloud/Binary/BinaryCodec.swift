import IMWireCore
import SwiftProtobuf

/// The `lc.protobuf2.*` encoding: one `GenericCommand` per binary WebSocket message, no framing.
public enum LeanCloudBinary {
    /// Decodes one command: the strict scanner reports every deviation with its offset, then
    /// swift-protobuf builds the typed value (proto2 presence kept), then the command-level
    /// checks run. A payload over `limits.maxFrameSize` is refused before anything else.
    public static func decode(_ bytes: [UInt8], limits: Limits = .default) -> DecodedCommand {
        guard bytes.count <= limits.maxFrameSize else {
            let finding = LeanCloudRules.frameTooLarge.finding(
                "\(bytes.count) bytes, limit \(limits.maxFrameSize)", at: 0)
            return DecodedCommand(command: nil, findings: [finding], wireSize: bytes.count)
        }
        var scanner = WireScanner(limits: limits)
        let intact = bytes.withUnsafeBytes { scanner.scan($0, as: LeanCloudSchema.genericCommand) }
        var findings = scanner.findings
        guard intact else { return DecodedCommand(command: nil, findings: findings, wireSize: bytes.count) }

        var options = BinaryDecodingOptions()
        options.messageDepthLimit = limits.maxNestingDepth + 1
        let command: LCGenericCommand
        do {
            command = try LCGenericCommand(serializedBytes: bytes, partial: true, options: options)
        } catch {
            // The scanner already explains why (e.g. invalid UTF-8); add a finding only if it did not.
            if !findings.contains(where: { $0.severity == .error }) {
                findings.append(LeanCloudRules.truncated.finding("swift-protobuf rejected the bytes: \(error)", at: 0))
            }
            return DecodedCommand(command: nil, findings: findings, wireSize: bytes.count)
        }
        let present = SubMessage.present(fieldNumbers: scanner.topLevelOffsets.schemaRangeNumbers)
        findings += CommandChecks.check(command, present: present) { scanner.topLevelOffsets[$0] }
        return DecodedCommand(command: command, findings: findings, wireSize: bytes.count)
    }

    /// Canonical protobuf bytes: fields in number order, minimal varints, presence kept.
    public static func encode(_ command: LCGenericCommand) -> [UInt8] {
        // partial: true, so a command missing a `required` field still encodes (the checker
        // reports it instead); serialization cannot fail otherwise.
        (try? command.serializedBytes(partial: true)) ?? []
    }
}
