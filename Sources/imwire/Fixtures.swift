import ArgumentParser
import Foundation
import IMWire

struct Fixtures: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Work with the golden fixtures.",
        subcommands: [Verify.self, Export.self])

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every fixture: decoded form, expected findings (rule and offset), round trip.",
            discussion: "Exit 1 if any fixture does not verify.")

        @Option(
            help: """
                The fixtures directory (default: Fixtures/ of the package, \
                found from the current directory or the executable).
                """)
        var dir: String?

        @Flag(help: "List every fixture, not only failures.")
        var verbose = false

        func run() throws {
            guard let dir = dir ?? PackageRoot.locate().map({ $0 + "/Fixtures" }) else {
                throw unreadable("no IMWire package here or above; give --dir")
            }
            guard Directory.isDirectory(dir) else { throw unreadable("\(dir) is not a directory") }
            let results = FixtureVerifier.verify(directory: dir)
            for result in results where verbose || !result.passed {
                print("\(result.passed ? "ok  " : "FAIL") \(result.path)")
                for problem in result.problems { print("     \(problem)") }
            }
            let failed = results.filter { !$0.passed }.count
            print("\(counted(results.count, "fixture")), \(results.count - failed) verified, \(failed) failed")
            if failed > 0 { throw ExitCode(1) }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the fixtures as Wycheproof-style vector files, one per conformance suite.",
            discussion: "Files: <out>/<suite>.json (Spec/conformance-vectors.schema.json).")

        enum Format: String, ExpressibleByArgument { case vectors }

        @Option(help: "Output format: vectors.")
        var format: Format = .vectors

        @Option(help: "The directory to write (created when missing).")
        var out: String

        @Option(help: "The fixtures directory (default: Fixtures/ of the package).")
        var dir: String?

        func run() throws {
            guard let dir = dir ?? PackageRoot.locate().map({ $0 + "/Fixtures" }) else {
                throw unreadable("no IMWire package here or above; give --dir")
            }
            let (cases, problems) = ConformanceCases.load(directory: dir)
            guard problems.isEmpty else { throw unreadable(problems.joined(separator: "\n")) }
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let files = ConformanceVectors.files(cases)
            for file in files { try TextFile.write(JSONWriter.pretty(file.json) + "\n", to: out + "/" + file.name) }
            print("\(counted(files.count, "file")), \(counted(cases.count, "test")) in \(out)")
        }
    }
}
