import IMWireCore

// The core knows no dialect; its tests name two, as the dialects' modules do.
extension Dialect {
    static let leancloud = Dialect("leancloud")
    static let nim = Dialect("nim")
}
