import IMWireCore

/// A rule's reference names where its requirement is stated inside the repository:
/// `Spec/<page>.md#<anchor>`, one or more, then what in that section it rests on, e.g.
/// `Spec/leancloud.md#session-commands (close)`. Every section so named states the fact and its
/// public source (an RFC clause, an SDK's file), so a finding explains itself from the repository.
public enum SpecReferences {
    /// One `Spec/…md#anchor` of a reference.
    public struct Link: Sendable, Hashable, CustomStringConvertible {
        /// Relative to the package root, e.g. `Spec/websocket.md`.
        public let path: String
        /// Nil when the link names the whole page.
        public let anchor: String?

        public var description: String { anchor.map { "\(path)#\($0)" } ?? path }
    }

    /// The links of `reference`, in order.
    public static func links(in reference: String) -> [Link] {
        var links: [Link] = []
        _ = rewrite(reference) { link in
            links.append(link)
            return link.description
        }
        return links
    }

    /// `reference` with each link replaced by `transform`'s text for it (the rest unchanged).
    public static func rewrite(_ reference: String, _ transform: (Link) -> String) -> String {
        var text = ""
        var rest = Substring(reference)
        while let start = rest.range(of: "Spec/") {
            text += rest[..<start.lowerBound]
            let token = rest[start.lowerBound...].prefix { !" ,;()".contains($0) }
            rest = rest[token.endIndex...]
            let parts = token.split(separator: "#", maxSplits: 1)
            guard parts[0].hasSuffix(".md") else {
                text += token
                continue
            }
            text += transform(Link(path: String(parts[0]), anchor: parts.count > 1 ? String(parts[1]) : nil))
        }
        return text + rest
    }

    /// The anchors a Markdown page defines: explicit `<a id="…">` (the stable ones the rules
    /// name) and GitHub's slug of every heading.
    public static func anchors(inMarkdown text: String) -> Set<String> {
        var anchors: Set<String> = []
        for line in text.split(separator: "\n") {
            var rest = line[...]
            while let start = rest.range(of: "id=\"") {
                let value = rest[start.upperBound...].prefix { $0 != "\"" }
                anchors.insert(String(value))
                rest = rest[value.endIndex...]
            }
            if line.hasPrefix("#") { anchors.insert(slug(line.drop { $0 == "#" })) }
        }
        return anchors
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
    public static func slug(_ heading: Substring) -> String {
        String(
            heading.drop(while: { $0 == " " }).lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_"
                    ? character : nil
            })
    }

    /// What is wrong with the references of `rules`, reading the pages under `root`: a reference
    /// with no link into `Spec/`, a page that does not exist, an anchor the page does not define.
    public static func problems(_ rules: [Rule], root: String, read: (String) -> String?) -> [String] {
        var pages: [String: Set<String>?] = [:]
        var problems: [String] = []
        for rule in rules {
            let links = links(in: rule.specRef)
            if links.isEmpty { problems.append("\(rule.id): reference \"\(rule.specRef)\" names no Spec/ page") }
            for link in links {
                if pages[link.path] == nil {
                    pages[link.path] = .some(read("\(root)/\(link.path)").map(anchors(inMarkdown:)))
                }
                guard let anchors = pages[link.path] ?? nil else {
                    problems.append("\(rule.id): \(link.path) does not exist")
                    continue
                }
                if let anchor = link.anchor, !anchors.contains(anchor) {
                    problems.append("\(rule.id): \(link.path) has no anchor #\(anchor)")
                }
            }
        }
        return problems
    }
}
