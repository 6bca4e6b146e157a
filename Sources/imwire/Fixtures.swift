import ArgumentParser
import IMWire

struct Fixtures: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Work with the golden fixtures.",
        subcommands: [Verify.self])

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check every fixture: decoded form, expected findings (rule and offset), round trip.",
            discussion: "Exit 1 if any fixture does not verify.")

        @Option(help: "The fixtures directory (default: Fixtures/ of the package, found from the current directory or the executable).")
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
}
