extension ConformanceSuite {
    /// The suites `names` names (`imwire conformance run --suite`, repeatable), or the first name
    /// that is no suite.
    package static func named(_ names: [String]) -> (suites: Set<ConformanceSuite>, unknown: String?) {
        var selected: Set<ConformanceSuite> = []
        for name in names {
            guard let suite = ConformanceSuite(rawValue: name) else { return ([], name) }
            selected.insert(suite)
        }
        return (selected, nil)
    }
}
