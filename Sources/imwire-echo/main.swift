// imwire-echo PORT: a WebSocket echo server on 127.0.0.1 built on IMWireNIO, for the
// Autobahn|Testsuite fuzzing client (Tests/Autobahn/run.sh).
// imwire-echo --client ws://HOST:PORT [--agent NAME]: the Autobahn client loop on IMWireNIO
// against `wstest -m fuzzingserver` (Tests/Autobahn/run.sh --client).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--client", arguments.count >= 2 {
    let url = arguments[1]
    var agent = "imwire"
    var rest = arguments.dropFirst(2)
    while let option = rest.popFirst() {
        switch option {
        case "--agent" where !rest.isEmpty: agent = rest.removeFirst()
        default:
            throw ClientError(
                description: "usage: imwire-echo PORT | imwire-echo --client ws://HOST:PORT [--agent NAME]")
        }
    }
    try runFuzzingServerClient(url: url, agent: agent)
} else {
    let port = arguments.first.flatMap { Int($0) } ?? 9001
    try serveEcho(port: port)
}
