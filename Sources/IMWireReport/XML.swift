/// XML and HTML text escaping for the report writers.
enum Markup {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // XML 1.0 forbids most control characters, even escaped.
            case "\u{0}"..."\u{8}", "\u{b}", "\u{c}", "\u{e}"..."\u{1f}": out += "\u{fffd}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
