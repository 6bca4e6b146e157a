import Dispatch
import IMWireCore
import Synchronization

extension CaptureSharder {
    /// `imwire shard`: each capture of `paths` sharded on its own into `directory` (which exists),
    /// and the manifest lines of all their shards, in the order of `paths`. With several
    /// captures the connections cut between consecutive files are found
    /// (`Options.tracksConnections`), and with `jobs` above 1 up to `jobs` captures are sharded
    /// at once (the jobs shared among them). `warn` gets, in the order of `paths`, the problems
    /// of a file that no shard repeats and the connections a file goes on with from the one
    /// before. The first capture that fails (in that order) throws.
    package static func shard(
        paths: [String], into directory: String, options: Options, warn: (String) -> Void
    ) throws(IMWireError) -> [String] {
        var options = options
        options.tracksConnections = paths.count > 1
        let atOnce = min(options.jobs, paths.count)
        options.jobs = max(1, options.jobs / atOnce)
        let results = Mutex([Swift.Result<Result, IMWireError>?](repeating: nil, count: paths.count))
        let next = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: atOnce) { [options] _ in
            while case let index = next.add(1, ordering: .relaxed).oldValue, index < paths.count {
                let result = Swift.Result { () throws(IMWireError) in
                    try shard(path: paths[index], into: directory, options: options)
                }
                results.withLock { $0[index] = result }
            }
        }
        var lines: [String] = []
        var previous: (capture: String, result: Result)?
        for (capture, outcome) in zip(paths, results.withLock { $0 }) {
            guard let outcome else { preconditionFailure("every capture has its outcome") }
            let result = try outcome.get()
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
