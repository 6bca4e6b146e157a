#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The IMWire package's root directory (the one holding `Package.swift`, `Spec/` and
/// `Fixtures/`), so commands that read the Spec or the fixtures work from any directory: the
/// current directory or one above it, else the directory the running executable was built in
/// (`.build/<triple>/debug/imwire` lies inside the package).
package enum PackageRoot {
    /// The root, or nil when neither the current directory nor the executable is inside one.
    package static func locate() -> String? {
        for start in [currentDirectory(), executablePath()].compactMap({ $0 }) {
            if let root = enclosingRoot(of: start) { return root }
        }
        return nil
    }

    /// Whether `path` is the package's root.
    package static func isRoot(_ path: String) -> Bool {
        access(path + "/Package.swift", F_OK) == 0 && Directory.isDirectory(path + "/Spec")
            && Directory.isDirectory(path + "/Fixtures")
    }

    /// `path` or the nearest directory above it that is a root.
    package static func enclosingRoot(of path: String) -> String? {
        var candidate = path
        while true {
            if isRoot(candidate) { return candidate }
            guard let slash = candidate.lastIndex(of: "/"), candidate != "/" else { return nil }
            candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
        }
    }

    private static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
