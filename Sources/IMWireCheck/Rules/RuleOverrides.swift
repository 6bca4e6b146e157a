import IMWireCore

extension RuleCatalog {
    /// `ID=ACTION` entries (`imwire check --rule`, `proxy`, `serve`) as actions by rule, or the
    /// problem with the first entry that is not an action for a rule of the catalogue (a command
    /// line puts its flag before it).
    package static func ruleActions(_ entries: [String]) -> (actions: [RuleID: RuleAction], problem: String?) {
        var actions: [RuleID: RuleAction] = [:]
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let action = RuleAction(rawValue: parts[1]) else {
                return ([:], "\(entry): expected ID=off|info|warn|error")
            }
            guard rule(RuleID(parts[0])) != nil else {
                return ([:], "\(entry): unknown rule \(parts[0]) (see imwire rules)")
            }
            actions[RuleID(parts[0])] = action
        }
        return (actions, nil)
    }
}
