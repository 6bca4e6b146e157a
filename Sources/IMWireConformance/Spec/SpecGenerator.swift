import IMWireCapture
import IMWireCheck
import IMWireCompression
import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireMQTT
import IMWireNIM
import IMWireReconnect
import IMWireRegistry
import IMWireSocketIO
import IMWireTLS
import IMWireTransport
import IMWireWebSocket

/// Generates the tables of `Spec/` from the code. A Spec file marks each generated block with
/// `<!-- BEGIN GENERATED: name -->` … `<!-- END GENERATED: name -->`; `render` replaces the
/// blocks and leaves the prose alone. `imwire spec --write` applies it; a test fails on drift.
public enum SpecGenerator {
    /// The Spec files that carry generated blocks, relative to the package root.
    public static let files =
        ["Spec/rules.md"] + Dialects.standard.all.map(\.specPage)
        + [
            "Spec/websocket.md", "Spec/http.md", "Spec/captures.md", "Spec/tls.md", "Spec/mqtt.md", "Spec/socketio.md",
            ReconnectSpec.file,
        ]
        + StatusSpec.files

    public static let blocks: [String: @Sendable () -> String] =
        ([
            "rules": rulesTable,
            "leancloud-error-codes": { MarkdownTable.statusCodes(LeanCloudStatusCodes.imErrors) },
            "leancloud-commands": leanCloudCommands,
            "leancloud-command-types": leanCloudCommandTypes,
            "leancloud-subprotocols": leanCloudSubprotocols,
            "leancloud-schema": leanCloudSchema,
            "socketio-rules": { rules(SocketIORules.all) },
            "websocket-rules": { rules(WebSocketRules.all + CompressionRules.all) },
            "http-rules": { rules(HTTPRules.all) },
            "capture-rules": { rules(CaptureRules.all + CheckRules.all + LiveRules.all) },
            "tls-rules": { rules(TLSRules.all) },
            "mqtt-rules": { rules(MQTTRules.all) },
            "reconnect-rules": { rules(ReconnectRules.all) },
            "nim-commands": nimCommands,
            "nim-tag-maps": nimTagMaps,
            "nim-parameters": nimParameters,

            "jmessage-events": jmessageEvents,
        ] as [String: @Sendable () -> String]).merging(StatusSpec.blocks) { handWritten, _ in handWritten }
        .merging(dialectRuleBlocks) { handWritten, _ in handWritten }
        .merging(ReconnectSpec.blocks) { handWritten, _ in handWritten }

    /// `text` with every generated block replaced by its current content.
    public static func render(_ text: String) throws(IMWireError) -> String {
        var output: [Substring] = []
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            output.append(line)
            guard let name = marker(line, "BEGIN") else { continue }
            guard let generate = blocks[name] else { throw IMWireError(.specRender, "unknown generated block \(name)") }
            while let inner = lines.first, marker(inner, "END") == nil { lines.removeFirst() }
            guard let end = lines.popFirst(), marker(end, "END") == name else {
                throw IMWireError(.specRender, "block \(name) has no matching END marker")
            }
            output.append(Substring(generate()))
            output.append(end)
        }
        return output.joined(separator: "\n")
    }

    private static func marker(_ line: Substring, _ kind: String) -> String? {
        let prefix = "<!-- \(kind) GENERATED: "
        guard line.hasPrefix(prefix), line.hasSuffix(" -->") else { return nil }
        return String(line.dropFirst(prefix.count).dropLast(4))
    }

    static func rulesTable() -> String { rules(RuleCatalog.all, anchored: true) }

    /// `<dialect>-rules`: each registered dialect's rules, for its Spec page.
    static let dialectRuleBlocks: [String: @Sendable () -> String] = Dictionary(
        uniqueKeysWithValues: Dialects.standard.all.map { definition in
            ("\(definition.dialect.rawValue)-rules", { @Sendable in rules(definition.rules) })
        })

    /// A table of `rules` for a page in `Spec/`, each reference a link; `anchored`: each row
    /// has the rule's anchor (`ruleAnchor`), as the whole catalogue in `Spec/rules.md` does.
    public static func rules(_ rules: [Rule], anchored: Bool = false) -> String {
        MarkdownTable.render(
            ["rule", "severity", "lenient", "layer", "dialect", "what it checks", "reference"],
            rules.map {
                [
                    (anchored ? "<a id=\"\(ruleAnchor($0.id))\"></a>" : "") + "`\($0.id)`", $0.severity.description,
                    $0.lenientSeverity.description, $0.layer.rawValue, $0.dialect?.rawValue ?? "", $0.summary,
                    linked($0.specRef),
                ]
            })
    }

    /// The anchor of a rule's row in `Spec/rules.md`: `LC.MISSING-ACK` → `lc-missing-ack`.
    public static func ruleAnchor(_ id: RuleID) -> String {
        String(id.rawValue.lowercased().map { $0 == "." ? "-" : $0 })
    }

    /// `reference` with each `Spec/…` link written as a Markdown link relative to `Spec/`.
    static func linked(_ reference: String) -> String {
        SpecReferences.rewrite(reference) { link in
            let relative = link.description.dropFirst("Spec/".count)
            return "[\(relative)](\(relative))"
        }
    }

    static func leanCloudCommands() -> String {
        MarkdownTable.render(
            ["cmd/op", "client sends as", "server sends as", "usual answer", "confidence", "what it does", "source"],
            LeanCloudCommandCatalog.all.map { spec in
                [
                    "`\(spec.key)`", spec.clientRole?.rawValue ?? "",
                    spec.serverRoles.map(\.rawValue).joined(separator: ", "),
                    spec.answers.map { "`\($0)`" }.joined(separator: ", "), spec.confidence.rawValue, spec.summary,
                    spec.source,
                ]
            })
    }

    static func leanCloudCommandTypes() -> String {
        MarkdownTable.render(
            ["value", "cmd", "sub-message", "ops"],
            LCCommandType.allCases.map { cmd in
                [
                    "\(cmd.rawValue)", "`\(LeanCloudNames.name(of: cmd))`",
                    LeanCloudSubMessage.expected(for: cmd).map { "`\($0.fieldName)` (\($0.rawValue))" } ?? "none",
                    LeanCloudCommandCatalog.takesNoOp(cmd)
                        ? "none"
                        : LeanCloudCommandCatalog.ops(of: cmd).map { "`\(LeanCloudNames.name(of: $0))`" }.joined(
                            separator: ", "),
                ]
            })
    }

    static func leanCloudSubprotocols() -> String {
        MarkdownTable.render(
            ["subprotocol", "encoding", "frames", "offline messages", "historical"],
            LeanCloudSubprotocol.known.compactMap(LeanCloudSubprotocol.init).map { sub in
                [
                    "`\(sub.name)`", sub.encoding.rawValue, sub.encoding.isText ? "text" : "binary",
                    sub.offlineStrategy.map { "\($0.rawValue): \($0.summary)" } ?? "",
                    sub.isHistorical ? "yes (JS before 2017-05-23)" : "",
                ]
            })
    }

    static func nimCommands() -> String {
        MarkdownTable.render(
            ["sid_cid", "service", "command (cmdConfig)", "handler (packetConfig)", "response r[]", "started by"],
            NIMCommands.all.map { command in
                [
                    "`\(command.key)`", command.service + (command.handlerService.map { " (handler: \($0))" } ?? ""),
                    command.command.map { "`\($0)`" } ?? "",
                    command.handler.map { "`\($0)`" } ?? (command.isNotifyWrapper ? "notify wrapper" : ""),
                    command.response.joined(separator: ", "),
                    command.origin == .request ? "client" : "server (INFERRED)",
                ]
            })
    }

    static func nimTagMaps() -> String {
        NIMTagMaps.all.map { map in
            "#### \(map.name)\n\n"
                + MarkdownTable.render(["tag", "field"], map.fields.map { ["\($0.tag)", "`\($0.name)`"] })
        }.joined(separator: "\n\n")
    }

    static func nimParameters() -> String {
        MarkdownTable.render(
            ["sid_cid", "command", "Q parameters (type, tag map)"],
            NIMCommands.parameters.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
                let specs = NIMCommands.parameters[key] ?? []
                let list = specs.map { spec in
                    spec.name + (spec.types.isEmpty ? "" : ": " + spec.types.map(\.rawValue).joined(separator: "|"))
                        + (spec.tagMap.map { " (\($0.name))" } ?? "") + (spec.required ? ", required" : "")
                }
                return [
                    "`\(key)`", NIMCommands.all.first { $0.key == key }?.name ?? "",
                    list.isEmpty ? "none" : list.joined(separator: "; "),
                ]
            })
    }

    static func jmessageEvents() -> String {
        MarkdownTable.render(
            ["event", "role", "payload always has", "since", "what it does"],
            JMessageEvents.all.map {
                [
                    "`\($0.name)`", $0.role.rawValue, $0.required.map { "`\($0)`" }.joined(separator: ", "), $0.since,
                    $0.summary,
                ]
            })
    }

    static func leanCloudSchema() -> String {
        var sections: [String] = []
        for message in LeanCloudSchema.messages {
            sections.append(
                "#### \(message.name)\n\n"
                    + MarkdownTable.render(
                        ["#", "label", "type", "name"],
                        message.fields.map { ["\($0.number)", $0.label.rawValue, $0.type.protoName, "`\($0.name)`"] }))
        }
        for enumeration in LeanCloudSchema.enums {
            sections.append(
                "#### enum \(enumeration.name)\n\n"
                    + MarkdownTable.render(
                        ["value", "name"], enumeration.values.map { ["\($0.number)", "`\($0.name)`"] }))
        }
        return sections.joined(separator: "\n\n")
    }
}

/// GitHub-flavoured markdown tables with escaped cells.
package enum MarkdownTable {
    package static func render(_ header: [String], _ rows: [[String]]) -> String {
        func line(_ cells: [String]) -> String {
            "| " + cells.map(escape).joined(separator: " | ") + " |"
        }
        return ([line(header), "|" + String(repeating: "---|", count: header.count)] + rows.map(line)).joined(
            separator: "\n")
    }

    private static func escape(_ cell: String) -> String {
        var out = ""
        for char in cell {
            switch char {
            case "|": out += "\\|"
            case "\n": out += " "
            default: out.append(char)
            }
        }
        return out
    }

    package static func statusCodes(_ codes: [StatusCode]) -> String {
        render(
            ["code", "name", "meaning", "class", "travels as", "confidence", "source"],
            codes.map { code in
                [
                    "\(code.number)", code.name.isEmpty ? "" : "`\(code.name)`",
                    code.meaning + (code.original.map { " (\($0))" } ?? ""), code.codeClass.rawValue,
                    code.travel.rawValue,
                    code.confidence.rawValue, code.sources,
                ]
            })
    }
}

extension IMWireError.Code {
    /// A Spec file whose generated blocks cannot be rendered (an unknown block, a missing END
    /// marker).
    public static let specRender = Self("spec.render")
}
