// Any JSON may be a login (a password, a token, a signature): formatted (`print`,
// interpolation, `String(reflecting:)`, `dump`), a value, an object or a member shows each
// credential (`CredentialFields`: a string under a key such as `password`) as its length, as the
// messages that carry them do (issue 37: nothing leaked). What IMWire writes goes through
// `JSONWriter`, which writes every byte.

// A value and an object have no children for `dump`: a member alone cannot tell that it is in
// NIM's login, whose credentials are keyed by tag.
extension JSONValue: CustomStringConvertible, CustomReflectable {
    /// Compact JSON text, each credential as its length: `{"user":"alice","password":16 bytes}`.
    public var description: String { CredentialFields.formatted(self) }

    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension JSONObject: CustomStringConvertible, CustomReflectable {
    /// As `JSONValue.object` shows it.
    public var description: String { CredentialFields.formatted(.object(self)) }

    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension JSONObject.Member: CustomStringConvertible, CustomReflectable {
    /// `"password":16 bytes`, as its object shows it.
    public var description: String {
        String(CredentialFields.formatted(.object(JSONObject([self]))).dropFirst().dropLast())
    }

    /// No children: `dump` shows the description, not the value a credential's key names.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
