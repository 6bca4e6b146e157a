#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Directory listing without Foundation.
package enum Directory {
    /// Every regular file under `path` whose name ends with `suffix`, recursively, sorted by path.
    package static func files(under path: String, suffix: String) -> [String] {
        var result: [String] = []
        collect(path, suffix: suffix, into: &result)
        return result.sorted()
    }

    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func collect(_ path: String, suffix: String, into result: inout [String]) {
        guard let handle = opendir(path) else { return }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let child = path.hasSuffix("/") ? path + name : path + "/" + name
            if isDirectory(child) {
                collect(child, suffix: suffix, into: &result)
            } else if name.hasSuffix(suffix) {
                result.append(child)
            }
        }
    }
}
