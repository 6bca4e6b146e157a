/// `count` and `noun`, the noun in the plural unless the count is one: `1 message`,
/// `2 messages`, `0 findings`. `plural` for nouns that do not take an `s`.
public func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
