import IMWireCore

/// Checks of a decoded command (its `LeanCloudCommandFields`) against the catalogue: the cmd is present,
/// the op fits the cmd, exactly the sub-message the cmd carries. Independent of the encoding: `locate` maps a
/// GenericCommand field number to the offset where the encoding put it.
public enum LeanCloudCommandChecks {
    public static func check(_ command: LeanCloudCommandFields, locate: (Int32) -> Int?) -> [Finding] {
        var findings: [Finding] = []
        // A cmd or op that is present but not a known enum value is already reported by the
        // encoding layer; only a truly absent field is reported here.
        if command.cmd == nil {
            // An unknown cmd value says nothing about the op or sub-message it should carry.
            guard locate(1) == nil else { return findings }
            findings.append(LeanCloudRules.cmdMissing.finding("no cmd; proto2 reads it as session", at: 0))
        }
        let cmd = command.cmdOrDefault
        var cmdName: String { LeanCloudNames.name(of: cmd) }

        // Nearly every command carries exactly the sub-message it should: no list is built then.
        let expected = LeanCloudSubMessage.expected(for: cmd)
        let count = command.subMessageCount
        if count > 1 || (count == 1 && !(expected.map(command.has) ?? false)) {
            let present = command.subMessages
            if present.count > 1 {
                let names = present.map(\.fieldName).joined(separator: ", ")
                findings.append(
                    LeanCloudRules.subMessageCount.finding(
                        "\(present.count) sub-messages set: \(names)", at: locate(present[1].rawValue)))
            }
            for sub in present where sub != expected {
                let wanted = expected.map { "carries \($0.fieldName)" } ?? "carries no sub-message"
                findings.append(
                    LeanCloudRules.subMessageMismatch.finding(
                        "cmd=\(cmdName) \(wanted), found \(sub.fieldName)", at: locate(sub.rawValue)))
            }
        }

        if LeanCloudCommandCatalog.takesNoOp(cmd) {
            if let op = command.op, !LeanCloudCommandCatalog.isOp(op, of: cmd) {
                findings.append(
                    LeanCloudRules.opUnexpected.finding(
                        "cmd=\(cmdName) carries no op, found op=\(LeanCloudNames.name(of: op))", at: locate(2)))
            }
        } else if command.op == nil {
            guard locate(2) == nil else { return findings }
            let knownOps = LeanCloudCommandCatalog.ops(of: cmd).map(LeanCloudNames.name(of:)).joined(separator: ", ")
            findings.append(
                LeanCloudRules.opMissing.finding(
                    "cmd=\(cmdName) needs an op (one of \(knownOps)); absent reads as open", at: locate(1) ?? 0))
        } else if let op = command.op, !LeanCloudCommandCatalog.isOp(op, of: cmd) {
            findings.append(
                LeanCloudRules.opNotForCmd.finding(
                    "op=\(LeanCloudNames.name(of: op)) is not an op of cmd=\(cmdName)", at: locate(2)))
        }
        return findings
    }
}
