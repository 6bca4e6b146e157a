import IMWireCore

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
            // XML 1.0 forbids most control characters, U+FFFE and U+FFFF, even escaped.
            case _ where !scalar.isXMLCharacter: out += "\u{fffd}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
