import ArgumentParser
import IMWire

struct SpecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spec",
        abstract: "Regenerate the generated tables in Spec/ from the code.",
        discussion:
            """
            Without --write, exit 1 if any Spec file is out of date. Either way, exit \
            1 if a rule's reference names a Spec page or anchor that does not exist.
            """
    )

    @Option(help: "The package root (default: found from the current directory or the executable).")
    var root: String?

    @Flag(help: "Rewrite the Spec files in place.")
    var write = false

    @Option(help: "Only this Spec file (repeatable), e.g. Spec/status-codes/nim.md.")
    var file: [String] = []

    func validate() throws {
        for name in file where !SpecGenerator.files.contains(name) {
            throw ValidationError(
                "\(name) has no generated blocks; known: \(SpecGenerator.files.joined(separator: ", "))")
        }
    }

    func run() throws {
        guard let root = root ?? PackageRoot.locate() else {
            throw unreadable("no IMWire package here or above; give --root")
        }
        var stale: [String] = []
        for file in SpecGenerator.files where self.file.isEmpty || self.file.contains(file) {
            let path = "\(root)/\(file)"
            let current: String
            do { current = String(decoding: try FileByteSource.readAll(path: path), as: UTF8.self) } catch {
                throw unreadable(error.description)
            }
            let rendered = try SpecGenerator.render(current)
            guard rendered != current else { continue }
            stale.append(file)
            if write {
                do { try TextFile.write(rendered, to: path) } catch { throw unreadable("\(error)") }
                print("rewrote \(file)")
            }
        }
        let unresolved = SpecReferences.problems(RuleCatalog.all, root: root) { path in
            (try? FileByteSource.readAll(path: path)).map { String(decoding: $0, as: UTF8.self) }
        }
        for problem in unresolved { print("unresolved reference: \(problem)") }
        if !write, !stale.isEmpty {
            print("out of date: \(stale.joined(separator: ", ")) (run imwire spec --write)")
            throw ExitCode(1)
        }
        if !unresolved.isEmpty { throw ExitCode(1) }
        if stale.isEmpty { print("Spec is up to date; every rule's reference resolves") }
    }
}
