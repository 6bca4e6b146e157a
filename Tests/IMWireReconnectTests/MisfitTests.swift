import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireNIM
import IMWireRegistry
import Testing

@testable import IMWireReconnect

/// The simulator reports each fed event that does not fit the state it meets
/// (`ReconnectSimulation.Misfit`), and applies it all the same.
@Suite struct MisfitTests {
    let swift = LeanCloudPolicies.swift

    /// A login answer while nobody logs in: index, step, state and reason.
    @Test func aLoginAnswerWhileIdleIsAMisfit() throws {
        let result = run(swift, [(0, .loginResponse(code: 0, waitMillis: nil)), (10, .userLogin)])
        let misfit = try #require(result.misfits.first)
        #expect(result.misfits.count == 1)
        #expect(misfit.eventIndex == 0)
        #expect(misfit.stepIndex == 0)
        #expect(misfit.timeMillis == 0)
        #expect(misfit.event == .loginResponse(code: 0, waitMillis: nil))
        #expect(misfit.state.phase == .idle)
        #expect(misfit.reason == .phase(fits: [.authenticating]))
        // Applied all the same, and ignored: the machine stays idle with nothing to do.
        #expect(result.steps[0].state == ReconnectState())
        #expect(result.steps[0].actions.isEmpty)
        #expect(
            misfit.description == """
                event 0 at 0 ms (login-response(code=0)) does not fit \
                idle: it fits only authenticating; the machine ignores it
                """)
    }

    /// A `timer-fired` for a timer that was never armed, and for one the simulator fired
    /// itself when the clock passed its due time.
    @Test func aTimerThatIsNotArmedIsAMisfit() throws {
        let never = run(swift, [(0, .userLogin), (10, .timerFired(.retry))])
        #expect(never.misfits.map(\.reason) == [.timerNotArmed(.retry)])
        #expect(never.misfits.first?.eventIndex == 1)
        #expect(never.misfits.first?.state.phase == .resolving)

        // The login timer (30 s) fires by itself at 30 010 ms and Swift reconnects at once; the
        // file's own timer-fired at 30 020 ms finds no login timer (the new attempt is connecting).
        let events: [(Int64, ReconnectEvent)] = [
            (0, .userLogin), (5, .routeResolved(ttlMillis: nil)), (10, .transportOpened),
        ]
        let fired = run(swift, events + [(30_020, .timerFired(.login))])
        let misfit = try #require(fired.misfits.first)
        #expect(fired.misfits.count == 1)
        #expect(misfit.eventIndex == 3)
        #expect(misfit.reason == .timerNotArmed(.login))
        #expect(misfit.state.phase == .connecting)
        #expect(fired.steps[misfit.stepIndex].event == .timerFired(.login))
        #expect(fired.steps[misfit.stepIndex].timeMillis == 30_020)
        #expect(fired.steps[misfit.stepIndex - 1].event == .timerFired(.login))
        #expect(fired.steps[misfit.stepIndex - 1].timeMillis == 30_010)

        // An armed timer fired early by the file fits.
        let early = run(swift, [(0, .userLogin), (5, .routeResolved(ttlMillis: nil)), (100, .timerFired(.connect))])
        #expect(early.misfits.isEmpty)
    }

    /// Time going backwards: the event is taken at the clock and reported with the clock.
    @Test func timeGoingBackwardsIsAMisfit() throws {
        var simulator = ReconnectSimulator(policy: swift)
        _ = simulator.feed(.userLogin, atMillis: 100)
        let steps = simulator.feed(.routeResolved(ttlMillis: nil), atMillis: 40)
        let misfit = try #require(simulator.misfits.first)
        #expect(simulator.misfits.count == 1)
        #expect(misfit.reason == .clockWentBack(clockMillis: 100))
        #expect(misfit.eventIndex == 1)
        #expect(misfit.stepIndex == 1)
        #expect(misfit.timeMillis == 40)
        #expect(steps.last?.timeMillis == 100)
        #expect(steps.last?.state.phase == .connecting)
        #expect(misfit.description.contains("goes back in time"))
        // Backwards and out of place: one misfit per reason.
        _ = simulator.feed(.transportOpened, atMillis: 50)
        _ = simulator.feed(.routeResolved(ttlMillis: nil), atMillis: 60)
        #expect(
            simulator.misfits.dropFirst().map(\.reason) == [
                .clockWentBack(clockMillis: 100), .clockWentBack(clockMillis: 100), .phase(fits: [.resolving]),
            ])
        #expect(simulator.misfits.dropFirst().map(\.eventIndex) == [2, 3, 3])
    }

    /// Changes that change nothing, and answers nobody waits for.
    @Test func changesThatChangeNothingAreMisfits() {
        let events: [(Int64, ReconnectEvent)] =
            [(0, .networkUp), (1, .appForeground), (2, .userLogout), (3, .userLogin)] + connect(swift, atMillis: 10)
            + [
                (20, .userLogin), (30, .heartbeatAnswered), (40, .chatRoomLeft), (50, .credentialsRefreshed),
                (60, .syncCompleted),
            ]
            + [(70, .networkDown), (80, .networkDown), (90, .appBackground), (100, .appBackground)]
        let result = run(swift, events)
        #expect(
            result.misfits.map(\.reason) == [
                .networkAlreadyUp, .alreadyForeground, .phase(fits: Phase.allCases.filter { $0 != .idle }),
                .phase(fits: [.idle, .stopped]),
                .noHeartbeatOutstanding, .noChatRoom, .phase(fits: [.refreshing]), .noSyncPending, .networkAlreadyDown,
                .alreadyBackground,
            ])
        #expect(result.misfits.map(\.eventIndex) == [0, 1, 2, 7, 8, 9, 10, 11, 13, 15])
        #expect(
            result.misfits.map(\.state.phase) == [
                .idle, .idle, .idle, .online, .online, .online, .online, .online, .offline, .suspended,
            ])
    }

    /// JMessage acknowledges a login once: a second ack does not fit.
    @Test func aSecondAckIsAMisfit() {
        let jmessage = JMessagePolicies.web
        let result = run(
            jmessage, [(0, .userLogin), (10, .transportOpened), (20, .loginAcknowledged), (30, .loginAcknowledged)])
        #expect(result.misfits.map(\.reason) == [.loginAlreadyAcknowledged])
        #expect(result.misfits.first?.eventIndex == 3)
    }

    /// Guards on the policy alone are not misfits: a `goaway` or a wake the policy has no use for fits.
    @Test func whatThePolicyIgnoresFits() {
        let nim = NIMPolicies.web
        #expect(nim.goaway == nil && !nim.wakeForcesReconnect)
        let result = run(
            nim,
            [(0, .userLogin)] + connect(nim, atMillis: 0) + [(10, .goaway), (20, .systemWake), (30, .syncCompleted)])
        #expect(result.misfits.isEmpty)
    }

    /// "Reconnect after a drop", driven through the machine: every event fits.
    @Test func aReconnectAfterADropHasNoMisfits() {
        var simulator = ReconnectSimulator(policy: swift)
        var steps = simulator.feed(.userLogin, atMillis: 0)
        steps += simulator.feed(.routeResolved(ttlMillis: 3_600_000), atMillis: 40)
        steps += simulator.feed(.transportOpened, atMillis: 90)
        steps += simulator.feed(.loginResponse(code: 0, waitMillis: nil), atMillis: 150)
        steps += simulator.feed(.transportClosed(code: 1006), atMillis: 5000)
        steps += simulator.feed(.transportOpened, atMillis: 5010)
        steps += simulator.feed(.loginResponse(code: 0, waitMillis: nil), atMillis: 5020)
        #expect(simulator.misfits.isEmpty)
        #expect(steps.last?.state.phase == .online)
        let logins = steps.flatMap(\.commands).filter { if case .sendLogin = $0 { true } else { false } }
        #expect(logins == [.sendLogin(flag: nil), .sendLogin(flag: swift.reconnectFlag?.name)])
    }

    /// A misfit in JSON: index, step, time, event, state, reason and its details.
    @Test func misfitsInJSON() throws {
        let file = EventFile(entries: [
            EventFile.Entry(timeMillis: 0, event: .userLogin),
            EventFile.Entry(timeMillis: 5, event: .timerFired(.heartbeat)),
        ])
        let simulation = try file.run(swift)
        let object = try #require(TraceFormat.json(simulation, policy: swift).objectValue)
        let misfits = try #require(object["misfits"]?.arrayValue)
        #expect(misfits.count == 1)
        let misfit = try #require(misfits.first?.objectValue)
        #expect(misfit["event_index"]?.int64Value == 1)
        #expect(misfit["step"]?.int64Value == 1)
        #expect(misfit["ms"]?.int64Value == 5)
        #expect(misfit["event"]?.objectValue?["event"]?.stringValue == "timer-fired")
        #expect(misfit["state"]?.objectValue?["phase"]?.stringValue == "resolving")
        #expect(misfit["reason"]?.stringValue == "timer-not-armed")
        #expect(misfit["timer"]?.stringValue == "heartbeat")
        #expect(object["steps"]?.arrayValue?.count == 2)
        // Without misfits the array is there and empty.
        let clean = try EventFile(entries: [EventFile.Entry(timeMillis: 0, event: .userLogin)]).run(swift)
        #expect(TraceFormat.json(clean, policy: swift).objectValue?["misfits"]?.arrayValue?.isEmpty == true)
    }

    /// The rules are the state parts of the machine's guards: in every state a short exploration
    /// of each policy reaches, an event that misfits leaves the machine as it was, with nothing
    /// to do and nothing to report.
    @Test(arguments: ReconnectPolicies.all) func everyMisfitIsIgnoredByTheMachine(policy: ReconnectPolicy) {
        let events = ReconnectExplorer.alphabet(policy)
        var frontier = [ReconnectState()]
        var seen: Set<ReconnectState> = [ReconnectState()]
        var misfits = 0
        for _ in 0..<5 {
            var next: [ReconnectState] = []
            for state in frontier {
                for event in events {
                    let transition = ReconnectMachine.step(state, event, policy: policy)
                    if let reason = ReconnectSimulation.misfit(event, in: state) {
                        misfits += 1
                        #expect(
                            transition.state == state && transition.actions.isEmpty && transition.milestones.isEmpty,
                            """
                            \(policy.name): \(event.summary) in \(state.summary) \
                            misfits (\(reason)) but the machine acts
                            """)
                    }
                    if seen.insert(transition.state).inserted { next.append(transition.state) }
                }
            }
            frontier = next
        }
        #expect(misfits > 0)
    }
}
