import IMWireCore
import IMWireReconnect
import IMWireRegistry
import IMWireYun2win

/// `Spec/reconnect.md`: the policy tables, the reactions, the outputs, the events, the
/// properties and one state diagram per policy, all generated from `IMWireReconnect`.
package enum ReconnectSpec {
    package static let file = "Spec/reconnect.md"

    package static var blocks: [String: @Sendable () -> String] {
        var blocks: [String: @Sendable () -> String] = [
            "reconnect-policies": policies,
            "reconnect-events": events,
            "reconnect-machine": machine,
            "reconnect-properties": properties,
            "reconnect-exploration": {
                let table = ReconnectExplorer.sizeTable
                return MarkdownTable.render(table.header, table.rows)
            },
            "reconnect-outputs": outputs,
            "reconnect-rules": { SpecGenerator.rules(ReconnectRules.all) },
        ]
        for policy in ReconnectPolicies.all {
            blocks["reconnect-policy-\(policy.name)"] = { details(policy) }
            blocks["reconnect-diagram-\(policy.name)"] = { "```mermaid\n" + ReconnectDiagram.mermaid(policy) + "\n```" }
        }
        return blocks
    }

    static func policies() -> String {
        MarkdownTable.render(
            [
                "policy", "dialect", "retry delays", "budget", "heartbeat", "timeouts", "route", "reconnect flag",
                "`imwire check` judges with it",
            ],
            ReconnectPolicies.all.map { policy in
                [
                    "`\(policy.name)`", policy.dialect.rawValue,
                    policy.budget.attempts == 0 ? "none" : policy.schedule.summary, policy.budget.summary,
                    policy.heartbeat.map {
                        """
                        \($0.what) every \(DurationText.text(millis: $0.intervalMillis)), \
                        answer within \(DurationText.text(millis: $0.answerTimeoutMillis))
                        """
                            + ($0.missesBeforeDead.map { ", \($0) missed → reconnect" } ?? ", keeps pinging")
                    } ?? "not modelled",
                    [
                        policy.connectTimeoutMillis.map { "connect \(DurationText.text(millis: $0))" },
                        policy.loginTimeoutMillis.map {
                            (policy.loginResponseTimeoutMillis == nil ? "login " : "login ack ")
                                + DurationText.text(millis: $0)
                        },
                        policy.loginResponseTimeoutMillis.map { "login response \(DurationText.text(millis: $0))" },
                        policy.loginResends > 0 ? "\(policy.loginResends) login resends" : nil,
                    ].compactMap { $0 }.joined(separator: ", "),
                    policy.route.map { route in
                        [
                            route.what, route.resolveOnLogin ? "looked up at each login" : nil,
                            route.clearAfterFailures.map { "cleared after \($0) failures" },
                            route.defaultTTLMillis.map { "ttl \(DurationText.text(millis: $0))" },
                        ]
                        .compactMap { $0 }.joined(separator: "; ")
                    } ?? "",
                    policy.reconnectFlag?.name ?? "none",
                    checkerUse(policy),
                ]
            })
    }

    /// When the checker picks `policy` without `--policy` (ReconnectCheck.swift): as its
    /// dialect's default, or (yun2win) for the platform digit of a client id.
    static func checkerUse(_ policy: ReconnectPolicy) -> String {
        var uses: [String] = []
        if Dialects.standard.definition(policy.dialect)?.defaultPolicy?.name == policy.name {
            uses.append("default for \(policy.dialect.rawValue)")
        }
        if policy.dialect == .yun2win {
            let digits = "0123456789".filter {
                Yun2winPolicies.policy(forClientIDPlatformDigit: $0)?.name == policy.name
            }
            uses += digits.map { "client id platform digit \($0)" }
        }
        return (uses + ["`--policy \(policy.name)`"]).joined(separator: "; ")
    }

    static func details(_ policy: ReconnectPolicy) -> String {
        var parts = ["SDK: \(policy.sdk). Outputs: \(policy.outputs.name)."]
        parts.append(
            MarkdownTable.render(
                ["what", "value", "source", "confidence"],
                policy.facts.map { [$0.what, $0.value, $0.source, $0.confidence.rawValue] }))
        parts.append(
            MarkdownTable.render(
                ["signal", "codes", "reaction", "source", "confidence"],
                policy.rules.map { rule in
                    [
                        rule.signal.rawValue, rule.codes.map { $0.map(String.init).joined(separator: ", ") } ?? "any",
                        rule.reaction.summary, rule.source, rule.confidence.rawValue,
                    ]
                }))
        let scope = policy.registry.tables.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key.rawValue): \($0.value.map { "`\($0)`" }.joined(separator: ", "))" }
        var fallback =
            "Codes no rule names: the registry's most cautious advice in "
            + (scope.isEmpty ? "no table" : scope.joined(separator: "; "))
            + "; codes no table knows back off and reconnect, kicks stop."
        if let goaway = policy.goaway { fallback += " `goaway`: \(goaway.summary)." }
        var traits: [String] = []
        if policy.backgroundClosesConnection {
            traits.append("closes the connection in the background, reconnects in the foreground")
        }
        if policy.networkChangeResetsBackoff { traits.append("a network change restarts the schedule") }
        if policy.wakeForcesReconnect { traits.append("a wake from sleep forces a reconnect") }
        if let window = policy.chatRoomRejoinWindowMillis {
            traits.append("re-joins a transient conversation within \(DurationText.text(millis: window)) of the drop")
        }
        if policy.syncAfterLogin { traits.append("reports the sync after the login") }
        if !traits.isEmpty { fallback += " The SDK " + traits.joined(separator: "; ") + "." }
        parts.append(fallback)
        return parts.joined(separator: "\n\n")
    }

    static func outputs() -> String {
        var models: [OutputModel] = []
        for policy in ReconnectPolicies.all where !models.contains(policy.outputs) { models.append(policy.outputs) }
        return models.map { model in
            let users = ReconnectPolicies.all.filter { $0.outputs == model }.map { "`\($0.name)`" }.joined(
                separator: ", ")
            return "#### \(model.name)\n\nUsed by \(users).\n\n"
                + MarkdownTable.render(
                    ["milestone", "when", "outputs", "source", "confidence"],
                    model.rules.map { rule in
                        [
                            rule.milestone.rawValue, condition(rule.condition),
                            rule.outputs.map(template).joined(separator: "; "), rule.source, rule.confidence.rawValue,
                        ]
                    })
        }.joined(separator: "\n\n")
    }

    static func condition(_ condition: OutputCondition) -> String {
        switch condition {
        case .always: ""
        case .firstConnect: "before the first session"
        case .reconnect: "after a session"
        case .causeIn(let causes): "cause " + causes.map(\.rawValue).joined(separator: ", ")
        case .causeNotIn(let causes): "cause not " + causes.map(\.rawValue).joined(separator: ", ")
        case .codeIn(let codes): "code " + codes.map(String.init).joined(separator: ", ")
        case .codeNotIn(let codes): "code not " + codes.map(String.init).joined(separator: ", ")
        }
    }

    static func template(_ template: OutputTemplate) -> String {
        var text =
            template.kind == .status
            ? "`\(template.table)` \(template.value.map(String.init) ?? "") \(template.name ?? "")"
            : "`\(template.name ?? "")`"
        switch template.carry {
        case .nothing: break
        case .code, .codeOrZero: text += " (code)"
        case .attempt: text += " (attempt)"
        case .attemptAndDelay: text += " (attempt, delay)"
        }
        if let code = template.fixedCode { text += " (code \(code))" }
        return text
    }

    static func machine() -> String {
        [
            MarkdownTable.render(["phase", "meaning"], Phase.allCases.map { ["`\($0.rawValue)`", $0.summary] }),
            MarkdownTable.render(["timer", "meaning"], TimerKind.allCases.map { ["`\($0.rawValue)`", $0.summary] }),
            MarkdownTable.render(
                ["action", "fields", "meaning"],
                ReconnectAction.catalogue.map { ["`\($0.name)`", $0.fields, $0.meaning] }),
        ].joined(separator: "\n\n")
    }

    static func events() -> String {
        MarkdownTable.render(
            ["event", "fields", "meaning"], ReconnectEvent.catalogue.map { ["`\($0.name)`", $0.fields, $0.meaning] })
    }

    static func properties() -> String {
        MarkdownTable.render(["property", "what holds"], Property.allCases.map { ["`\($0.rawValue)`", $0.summary] })
    }
}
