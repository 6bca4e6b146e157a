import ArgumentParser
import IMWire

struct Reconnect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The reconnect state machine: run an event file through a vendor policy, list the policies.",
        subcommands: [Simulate.self, Policies.self])

    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the state/action trace of an event file under a policy.",
            discussion: """
                The events file is JSON \
                ({"seed": 0, "until": 60000, "events": [{"ms": 0, "event": "user-login"}, …]}), \
                a golden trace of Fixtures/reconnect/ (its input and policy are used), or JSONL (one event \
                object per line); Spec/reconnect.md lists every event and its fields. Timers the machine \
                asks for fire when the clock passes them. An event that does not fit the state it meets \
                (an answer nobody waits for, a timer that is not armed, a network or app change that \
                changes nothing, a time before the clock; Spec/reconnect.md §2) is applied all the same \
                and reported: a warning line per misfit on standard error, and with --format json in \
                "misfits". Exit 1 when there is a misfit (the trace is printed all the same), 2 for an \
                unreadable file, 64 when neither the file nor --policy names a policy.
                """)

        @Option(
            help: ArgumentHelp(
                "The policy (default: the file's): \(ReconnectPolicies.names.joined(separator: ", ")).",
                valueName: "name"))
        var policy: String?

        @Option(name: .customLong("events"), help: "The events file (JSON or JSONL); - for standard input.")
        var eventsPath: String

        @Option(help: "text or json.")
        var format: OutputFormat = .text

        @Option(help: "Seed of the random input (jitter); overrides the file's seed.")
        var seed: UInt64?

        func validate() throws {
            if let policy, ReconnectPolicies.named(policy) == nil {
                throw ValidationError(
                    "unknown policy \(policy); known: \(ReconnectPolicies.names.joined(separator: ", "))")
            }
        }

        func run() throws {
            let text: String
            do {
                text = String(decoding: try FileByteSource.readAll(path: eventsPath, limit: 16 << 20), as: UTF8.self)
            } catch { throw unreadable(error.description) }
            var file: EventFile
            do { file = try EventFile.parse(text) } catch { throw unreadable("\(eventsPath): \(error)") }
            if let seed { file.seed = seed }
            guard let name = policy ?? file.policy else {
                print("imwire: --policy is required: \(eventsPath) names no policy", to: &standardError)
                throw ExitCode.validationFailure
            }
            guard let policy = ReconnectPolicies.named(name) else {
                throw unreadable(
                    "\(eventsPath): unknown policy \(name); known: \(ReconnectPolicies.names.joined(separator: ", "))")
            }
            let simulation: ReconnectSimulation
            do { simulation = try file.run(policy) } catch { throw unreadable("\(eventsPath): \(error)") }
            switch format {
            case .text: print(TraceFormat.text(simulation.steps, policy: policy), terminator: "")
            case .json: print(JSONWriter.pretty(TraceFormat.json(simulation, policy: policy)))
            }
            for misfit in simulation.misfits { print("imwire: warning: \(misfit)", to: &standardError) }
            if !simulation.misfits.isEmpty { throw ExitCode(1) }
        }
    }

    struct Policies: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the policies with their schedule, budget and heartbeat.")

        func run() throws {
            for policy in ReconnectPolicies.all {
                print("\(policy.name) (\(policy.dialect.rawValue)): \(policy.sdk)")
                print(
                    """
                      delays: \(policy.budget.attempts == 0 ? "none" : policy.schedule.summary); \
                    budget: \(policy.budget.summary)
                    """)
                if let heartbeat = policy.heartbeat {
                    print(
                        """
                          heartbeat: \(heartbeat.what) every \(DurationText.text(millis: heartbeat.intervalMillis)), \
                        answer within \(DurationText.text(millis: heartbeat.answerTimeoutMillis))
                        """
                    )
                }
                if let flag = policy.reconnectFlag { print("  reconnect flag: \(flag.name)") }
            }
        }
    }
}
