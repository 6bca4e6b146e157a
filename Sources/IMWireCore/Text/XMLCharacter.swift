extension Unicode.Scalar {
    /// Whether XML 1.0 allows this character in a document (`Char`, §2.2): tab, LF, CR,
    /// U+0020–U+D7FF, U+E000–U+FFFD, U+10000 and above. No other one may appear, not even as a
    /// character reference, so an escaper must replace it (the report writers, the conformance
    /// runner's JUnit).
    public var isXMLCharacter: Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...: true
        default: false
        }
    }
}
