import IMWireCore

/// The `lc.protobuf2.*` encoding: one `GenericCommand` per binary WebSocket message, no framing.
public enum LeanCloudBinary {
    /// Decodes one command: the strict scanner reports every deviation with its offset and, in
    /// the same pass, records the fields the session rules read (`LeanCloudCommandFields`), then the
    /// command-level checks run. swift-protobuf builds the typed value only when
    /// `LeanCloudDecodedCommand.command` is read. A payload over `limits.maxFrameSize` is refused before
    /// anything else (and a payload over 4 GiB whatever the limit: `LeanCloudCommandFields.maxBytes`).
    public static func decode(_ bytes: [UInt8], limits: Limits = .default) -> LeanCloudDecodedCommand {
        guard bytes.count <= min(limits.maxFrameSize, LeanCloudCommandFields.maxBytes) else {
            let finding = LeanCloudRules.frameTooLarge.finding(
                "\(bytes.count) bytes, limit \(min(limits.maxFrameSize, LeanCloudCommandFields.maxBytes))", at: 0)
            return LeanCloudDecodedCommand(fields: nil, findings: [finding], wireSize: bytes.count)
        }
        var scanner = WireScanner(limits: limits)
        let fields = scanner.scanCommand(bytes)
        var findings = scanner.findings
        if let fields {
            let checked = bytes.withUnsafeBytes { raw in
                LeanCloudCommandChecks.check(fields) { scanner.firstTopLevelTag(of: $0, in: raw) }
            }
            if !checked.isEmpty { findings += checked }  // nearly always empty: appending nothing was 1% of a check
        }
        return LeanCloudDecodedCommand(fields: fields, findings: findings, wireSize: bytes.count)
    }

    /// The fields of a command given as protobuf bytes, or nil when they do not decode (the
    /// scanner's findings are not kept): what `LeanCloudDecodedCommand` holds for a command built as a value.
    static func fields(of bytes: [UInt8], limits: Limits = .default) -> LeanCloudCommandFields? {
        var scanner = WireScanner(limits: limits)
        return scanner.scanCommand(bytes)
    }

    /// Canonical protobuf bytes: fields in number order, minimal varints, presence kept.
    public static func encode(_ command: LCGenericCommand) -> [UInt8] {
        // partial: true, so a command missing a `required` field still encodes (the checker
        // reports it instead); serialization cannot fail otherwise.
        (try? command.serializedBytes(partial: true)) ?? []
    }
}
