/// Enum value names as the schema spells them (`members_joined`), from the generated tables.
public enum LeanCloudNames {
    public static func name(of cmd: LCCommandType) -> String {
        LeanCloudSchema.enumeration(LeanCloudSchema.commandTypeEnum).name(of: Int32(cmd.rawValue)) ?? "\(cmd.rawValue)"
    }

    public static func name(of op: LCOpType) -> String {
        LeanCloudSchema.enumeration(LeanCloudSchema.opTypeEnum).name(of: Int32(op.rawValue)) ?? "\(op.rawValue)"
    }

    public static func commandType(named name: String) -> LCCommandType? {
        LeanCloudSchema.enumeration(LeanCloudSchema.commandTypeEnum).number(of: name).flatMap {
            LCCommandType(rawValue: Int($0))
        }
    }

    public static func opType(named name: String) -> LCOpType? {
        LeanCloudSchema.enumeration(LeanCloudSchema.opTypeEnum).number(of: name).flatMap { LCOpType(rawValue: Int($0)) }
    }

    /// A one-line label for a command: `session/open i=1`, `direct`, `ack i=2`.
    public static func summary(of command: LCGenericCommand) -> String {
        var text = command.hasCmd ? name(of: command.cmd) : "(no cmd)"
        if command.hasOp { text += "/" + name(of: command.op) }
        if command.hasI { text += " i=\(command.i)" }
        if command.hasSessionMessage, command.sessionMessage.hasCode { text += " code=\(command.sessionMessage.code)" }
        if command.hasErrorMessage, command.errorMessage.hasCode { text += " code=\(command.errorMessage.code)" }
        if command.hasAckMessage, command.ackMessage.hasCode { text += " code=\(command.ackMessage.code)" }
        return text
    }

    /// The same label from a command's `LeanCloudCommandFields`.
    public static func summary(of command: LeanCloudCommandFields) -> String {
        var text = command.cmd.map(name(of:)) ?? "(no cmd)"
        if let op = command.op { text += "/" + name(of: op) }
        if let i = command.i { text += " i=\(i)" }
        for code in [LeanCloudCommandFields.Field.sessionCode, .errorCode, .ackCode] {
            if let value = command.int32(code) { text += " code=\(value)" }
        }
        return text
    }
}
