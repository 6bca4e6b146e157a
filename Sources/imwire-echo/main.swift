// imwire-echo PORT: a WebSocket echo server on 127.0.0.1 built on IMWireNIO, for the
// Autobahn|Testsuite fuzzing client (Tests/Autobahn/run.sh).
let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 9001
try serveEcho(port: port)
