import IMWireCore

extension CaptureSharder {
    /// `imwire shard`: each capture of `paths` sharded on its own into `directory` (which exists),
    /// in order, and the manifest lines of all their shards. With several captures the
    /// connections cut between consecutive files are found (`Options.tracksConnections`).
    /// `warn` gets, as they are found, the problems of a file that no shard repeats and the
    /// connections a file goes on with from the one before.
    package static func shard(
        paths: [String], into directory: String, options: Options, warn: (String) -> Void
    ) throws(IMWireError) -> [String] {
        var options = options
        options.tracksConnections = paths.count > 1
        var lines: [String] = []
        var previous: (capture: String, result: Result)?
        for capture in paths {
            let result = try shard(path: capture, into: directory, options: options)
            for problem in result.fileProblems {
                warn("\(capture): [\(problem.ruleID)] \(problem.message): no shard repeats it")
            }
            lines += result.shards.map(\.manifestLine)
            // A connection the previous file left open and this one goes on with, without a SYN:
            // each file is sharded and checked on its own, so it is two connections.
            if let previous {
                let cut = result.continued(from: previous.result)
                if !cut.isEmpty { warn(cutWarning(cut, of: previous.capture, goingOnIn: capture)) }
            }
            previous = (capture, result)
        }
        return lines
    }

    /// The warning about connections of `previous` that go on in `capture`.
    package static func cutWarning(_ cut: [TCPConnectionKey], of previous: String, goingOnIn capture: String)
        -> String
    {
        let shown = cut.prefix(5).map(\.description).joined(separator: ", ")
        return """
            \(cut.count) TCP connection\(cut.count == 1 ? "" : "s") of \
            \(previous) \(cut.count == 1 ? "goes" : "go") on in \(capture) \
            (\(shown)\(cut.count > 5 ? ", …" : "")): each file is checked on its own, so \
            each is two connections there; merge the files first (mergecap) to check them whole
            """
    }
}
