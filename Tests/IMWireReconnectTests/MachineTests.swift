import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireNIM
import IMWireYun2win
import Testing

@testable import IMWireReconnect

@Suite struct MachineTests {
    let swift = LeanCloudPolicies.swift

    @Test func aFirstLoginResolvesOpensAndLogsInWithoutTheFlag() {
        let steps = simulate(swift, [(0, .userLogin)] + connect(swift, atMillis: 10))
        #expect(
            commands(steps) == [
                "resolve-route", "open-transport", "schedule(connect, 60000ms)", "cancel(connect)", "send-login",
                "schedule(login, 30000ms)", "cancel(login)", "schedule(heartbeat, 180000ms)",
            ])
        #expect(steps.last?.state.phase == .online)
        #expect(steps.first?.outputs.map(\.description) == ["AVIMClientStatus=1 AVIMClientStatusOpening"])
        #expect(steps.last?.outputs.map(\.description) == ["AVIMClientStatus=2 AVIMClientStatusOpened"])
    }

    @Test func swiftReconnectsAtOnceTwiceThenBacksOffWithTheFlag() {
        var events: [(Int64, ReconnectEvent)] = [(0, .userLogin)] + connect(swift, atMillis: 0)
        events += [(1000, .transportClosed(code: 1006)), (1001, .transportFailed), (1002, .transportFailed)]
        let steps = simulate(swift, events, untilMillis: 1002 + 1000)
        #expect(retryDelays(steps) == [1000])
        let opens = steps.filter { $0.commands.contains(.openTransport) }.map(\.timeMillis)
        #expect(opens == [0, 1000, 1001, 2002])
        let paused = steps.first { $0.timeMillis == 1000 }?.outputs.map(\.description) ?? []
        #expect(
            paused == [
                "AVIMClientStatus=3 AVIMClientStatusPaused code=1006", "imClientPaused(code=1006)",
                "AVIMClientStatus=4 AVIMClientStatusResuming", "imClientResuming()",
            ])
        let resumed = simulate(
            swift, events + [(2100, .transportOpened), (2101, .loginResponse(code: 0, waitMillis: nil))])
        #expect(resumed.flatMap(\.commands).contains(.sendLogin(flag: "r=true in session/open")))
        #expect(resumed.last?.outputs.map(\.description).contains("imClientResumed()") == true)
    }

    @Test func jsBacksOffOneTwoFourSeconds() {
        let js = LeanCloudPolicies.js
        var events: [(Int64, ReconnectEvent)] =
            [(0, .userLogin)] + connect(js, atMillis: 0) + [(100, .transportClosed(code: 1006))]
        var time: Int64 = 100
        for delay: Int64 in [1000, 2000, 4000] {
            time += delay
            events.append((time + 5, .transportFailed))
            time += 5
        }
        let steps = simulate(js, events)
        #expect(retryDelays(steps) == [1000, 2000, 4000, 8000])
        let schedule = steps.flatMap(\.outputs).filter { $0.name == "schedule" }.map { $0.detail ?? "" }
        #expect(
            schedule == [
                "attempt=1 delay=1000ms", "attempt=2 delay=2000ms", "attempt=3 delay=4000ms", "attempt=4 delay=8000ms",
            ])
    }

    @Test func aKickStopsAndNothingOpensUntilTheUserLogsIn() {
        let steps = simulate(
            swift, [(0, .userLogin)] + connect(swift, atMillis: 0) + [(500, .kicked(code: 4111))],
            untilMillis: 3_600_000)
        let afterKick = steps.drop { $0.timeMillis < 500 }
        #expect(afterKick.first?.commands.contains(.stop(.kicked, code: 4111)) == true)
        #expect(!afterKick.contains { $0.commands.contains(.openTransport) })
        #expect(steps.last?.state.phase == .stopped)
        #expect(
            afterKick.first?.outputs.map(\.description) == [
                "AVIMClientStatus=6 AVIMClientStatusClosed code=4111", "imClientClosed(code=4111)",
            ])
        let again = simulate(
            swift, [(0, .userLogin)] + connect(swift, atMillis: 0) + [(500, .kicked(code: 4111)), (9000, .userLogin)])
        #expect(again.last?.commands.contains(.openTransport) == true)
    }

    @Test func tokenExpiryRefreshesTheCredentialsThenReconnects() {
        let steps = simulate(
            swift,
            [(0, .userLogin)] + connect(swift, atMillis: 0) + [
                (500, .transportClosed(code: 1006)), (600, .transportOpened),
                (700, .loginResponse(code: 4112, waitMillis: nil)),
                (900, .credentialsRefreshed), (950, .transportOpened), (960, .loginResponse(code: 0, waitMillis: nil)),
            ])
        #expect(steps.first { $0.timeMillis == 700 }?.commands.contains(.refreshCredentials) == true)
        #expect(steps.first { $0.timeMillis == 700 }?.state.phase == .refreshing)
        #expect(steps.first { $0.timeMillis == 900 }?.commands.contains(.openTransport) == true)
        #expect(steps.last?.state.phase == .online)
    }

    @Test func goawayForgetsTheRouteAndReconnectsAtOnce() {
        let steps = simulate(swift, [(0, .userLogin)] + connect(swift, atMillis: 0) + [(500, .goaway)])
        #expect(steps.last?.commands == [.cancelTimer(.heartbeat), .closeTransport, .resolveRoute(clearCache: true)])
    }

    @Test func tenFailedConnectsClearTheSwiftRouteCache() {
        var events: [(Int64, ReconnectEvent)] = [(0, .userLogin), (1, .routeResolved(ttlMillis: nil))]
        for index in 0..<10 { events.append((Int64(10 + index * 40_000), .transportFailed)) }
        let steps = simulate(swift, events, untilMillis: 500_000)
        let lookups = steps.flatMap(\.commands).filter { if case .resolveRoute = $0 { true } else { false } }
        #expect(lookups == [.resolveRoute(clearCache: false), .resolveRoute(clearCache: true)])
    }

    @Test func swiftClosesInTheBackgroundAndComesBackInTheForeground() {
        let steps = simulate(
            swift, [(0, .userLogin)] + connect(swift, atMillis: 0) + [(100, .appBackground), (5000, .appForeground)])
        #expect(steps.first { $0.timeMillis == 100 }?.state.phase == .suspended)
        #expect(steps.first { $0.timeMillis == 100 }?.commands.contains(.closeTransport) == true)
        #expect(steps.last?.commands.contains(.openTransport) == true)
        let js = LeanCloudPolicies.js
        #expect(
            simulate(js, [(0, .userLogin)] + connect(js, atMillis: 0) + [(100, .appBackground)]).last?.state.phase
                == .online)
    }

    @Test func theChatRoomIsRejoinedOnlyWithinThirtyMinutes() {
        let base: [(Int64, ReconnectEvent)] =
            [(0, .userLogin)] + connect(swift, atMillis: 0) + [(10, .chatRoomJoined), (100, .networkDown)]
        let inside = simulate(swift, base + [(29 * 60_000, .networkUp)] + connect(swift, atMillis: 29 * 60_000))
        #expect(inside.flatMap(\.commands).contains(.rejoinChatRoom))
        let outside = simulate(swift, base + [(31 * 60_000, .networkUp)] + connect(swift, atMillis: 31 * 60_000))
        #expect(!outside.flatMap(\.commands).contains(.rejoinChatRoom))
        #expect(outside.flatMap(\.outputs).contains { $0.name == "transientConversationRejoinExpired" })
    }

    @Test func javaGivesUpAfterThreeAttempts() {
        let java = LeanCloudPolicies.java
        var events: [(Int64, ReconnectEvent)] =
            [(0, .userLogin)] + connect(java, atMillis: 0) + [(100, .transportFailed)]
        var time: Int64 = 100
        for delay: Int64 in [2000, 4000, 8000] {
            time += delay
            events.append((time + 1, .transportFailed))
            time += 1
        }
        let steps = simulate(java, events, untilMillis: 100_000)
        #expect(retryDelays(steps) == [2000, 4000, 8000])
        #expect(steps.last?.state.stop == StopRecord(cause: .budgetExhausted, code: nil))
    }

    @Test func csharpForgetsTheRouteAfterTenAttemptsAndGoesOn() {
        let csharp = LeanCloudPolicies.csharp
        var events: [(Int64, ReconnectEvent)] =
            [(0, .userLogin)] + connect(csharp, atMillis: 0) + [(100, .transportFailed)]
        for index in 1...11 { events.append((100 + Int64(index) * 10_000 + 1, .transportFailed)) }
        let steps = simulate(csharp, events)
        #expect(retryDelays(steps).allSatisfy { $0 == 10_000 })
        #expect(steps.flatMap(\.commands).contains(.resolveRoute(clearCache: true)))
        #expect(steps.last?.state.phase != .stopped)
    }

    @Test func nimStopsOnAWrongPasswordAndWaitsOutA416() {
        let nim = NIMPolicies.web
        let wrong = simulate(
            nim,
            [
                (0, .userLogin), (1, .routeResolved(ttlMillis: nil)), (2, .transportOpened),
                (3, .loginResponse(code: 302, waitMillis: nil)),
            ], untilMillis: 600_000)
        #expect(wrong.last?.state.stop == StopRecord(cause: .loginRejected, code: 302))
        #expect(wrong.flatMap(\.outputs).map(\.description).contains("NIMLoginStep=6 NIMLoginStepLoginFailed code=302"))
        let limited = simulate(
            nim,
            [
                (0, .userLogin), (1, .routeResolved(ttlMillis: nil)), (2, .transportOpened),
                (3, .loginResponse(code: 416, waitMillis: 30_000)),
            ])
        #expect(retryDelays(limited) == [30_000])
    }

    @Test func nimDropsTheLinkAfterTwoMissedHeartbeats() {
        let nim = NIMPolicies.web
        let steps = simulate(
            nim, [(0, .userLogin)] + connect(nim, atMillis: 0) + [(5, .syncCompleted)],
            untilMillis: 30_002 + 5000 + 5000)
        #expect(steps.flatMap(\.commands).filter { $0 == .sendHeartbeat }.count == 2)
        #expect(steps.last?.state.phase == .waiting)
        let lost = steps.flatMap(\.outputs).map(\.description)
        #expect(lost.contains("NIMLoginStep=8 NIMLoginStepSyncOK"))
        #expect(lost.contains("NIMLoginStep=9 NIMLoginStepLoseConnection"))
    }

    @Test func yun2winIsConnectedOnlyAtReturnCode11() {
        let web = Yun2winPolicies.web
        let steps = simulate(
            web,
            [
                (0, .userLogin), (1, .routeResolved(ttlMillis: nil)), (2, .transportOpened),
                (3, .loginResponse(code: 0, waitMillis: nil)), (4, .loginResponse(code: 11, waitMillis: nil)),
            ])
        #expect(steps[3].state.phase == .authenticating)
        #expect(steps[4].state.phase == .online)
        #expect(steps[4].outputs.map(\.description) == ["ConnectionStatus=1 connected code=0"])
    }

    @Test func yun2winAndroidWaitsFifteenSecondsAfterCode7() {
        let android = Yun2winPolicies.android
        let steps = simulate(
            android,
            [
                (0, .userLogin), (1, .routeResolved(ttlMillis: nil)), (2, .transportOpened),
                (3, .loginResponse(code: 7, waitMillis: nil)),
            ])
        #expect(retryDelays(steps) == [15_000])
        let kicked = simulate(android, [(0, .userLogin)] + connect(android, atMillis: 0) + [(50, .kicked(code: 10))])
        #expect(kicked.last?.outputs.map(\.description) == ["ConnectionStatus=100 disconnected code=10"])
    }

    @Test func jmessageLeavesTheNewLoginToTheApp() {
        let jmessage = JMessagePolicies.web
        let steps = simulate(
            jmessage,
            [
                (0, .userLogin), (1, .transportOpened), (2, .loginResponse(code: 0, waitMillis: nil)),
                (100, .transportClosed(code: nil)),
            ], untilMillis: 600_000)
        #expect(steps.last?.state.stop == StopRecord(cause: .disconnected, code: nil))
        #expect(steps.last?.outputs.map(\.description) == ["onDisconnect()"])
        let resent = simulate(jmessage, [(0, .userLogin), (1, .transportOpened)], untilMillis: 60_000)
        #expect(resent.flatMap(\.commands).filter { if case .sendLogin = $0 { true } else { false } }.count == 6)
        #expect(resent.last?.state.stop?.cause == .loginUnanswered)
        let info = simulate(
            jmessage,
            [
                (0, .userLogin), (1, .transportOpened), (2, .loginResponse(code: 0, waitMillis: nil)),
                (5, .kicked(code: 40)),
            ])
        #expect(info.last?.state.phase == .online)
        #expect(info.last?.outputs.map(\.description) == ["onReceiveUserLoginStatusChangeEvent(code=40)"])
    }

    @Test func staleTimersAndIdleEventsDoNothing() {
        let state = ReconnectState()
        for event in ReconnectExplorer.alphabet(swift) where event != .userLogin {
            let transition = ReconnectMachine.step(state, event, policy: swift)
            #expect(transition.actions.isEmpty, "\(event.summary)")
        }
        let online = simulate(swift, [(0, .userLogin)] + connect(swift, atMillis: 0)).last?.state ?? state
        let stale = ReconnectMachine.step(online, .timerFired(.retry), policy: swift)
        #expect(stale.actions.isEmpty && stale.state == online)
    }

    @Test func networkFlappingWaitsOfflineAndRestartsTheSchedule() {
        let steps = simulate(
            swift,
            [(0, .userLogin)] + connect(swift, atMillis: 0) + [
                (100, .networkDown), (200, .networkUp), (210, .transportFailed), (220, .networkDown), (230, .networkUp),
            ])
        #expect(steps.first { $0.timeMillis == 100 }?.state.phase == .offline)
        #expect(steps.first { $0.timeMillis == 200 }?.commands.contains(.openTransport) == true)
        // After the network comes back the schedule starts again: attempt 0 goes at once.
        #expect(steps.first { $0.timeMillis == 210 }?.commands.contains(.openTransport) == true)
        #expect(steps.last?.state.phase == .connecting)
    }

    /// JMessage: the ack switches the login timer from the 5 s ack wait to the 30 s response
    /// wait; an unanswered response re-emits the login, which waits for a new ack (5 s); the
    /// six sends share one budget, then onTimeout.
    @Test func jmessageWaitsThirtySecondsForTheResponseAfterTheAck() {
        let jmessage = JMessagePolicies.web
        let answered = simulate(
            jmessage,
            [
                (0, .userLogin), (10, .transportOpened), (200, .loginAcknowledged),
                (9000, .loginResponse(code: 0, waitMillis: nil)),
            ])
        #expect(
            commands(answered) == [
                "open-transport", "send-login", "schedule(login, 5000ms)", "cancel(login)",
                "schedule(login, 30000ms)", "cancel(login)",
            ])
        #expect(answered.last?.state.phase == .online)

        // Acked, then silent: the login goes again 30 s after the ack, and waits 5 s for its ack.
        let silent = simulate(
            jmessage, [(0, .userLogin), (10, .transportOpened), (200, .loginAcknowledged)], untilMillis: 36_000)
        let sends = silent.filter { $0.commands.contains(.sendLogin(flag: nil)) }.map(\.timeMillis)
        #expect(sends == [10, 30_200, 35_200])
        #expect(
            silent.first { $0.timeMillis == 30_200 }?.commands == [
                .sendLogin(flag: nil), .scheduleTimer(.login, delayMillis: 5000),
            ])

        // Every send acked, none answered: 6 sends 30 s apart, then stop.
        var events: [(Int64, ReconnectEvent)] = [(0, .userLogin), (10, .transportOpened), (100, .loginAcknowledged)]
        for send in 1...5 { events.append((Int64(send) * 30_100 + 100, .loginAcknowledged)) }
        let never = simulate(jmessage, events, untilMillis: 400_000)
        #expect(never.flatMap(\.commands).filter { $0 == .sendLogin(flag: nil) }.count == 6)
        #expect(never.last?.state.stop?.cause == .loginUnanswered)
        let lastAck: Int64 = 5 * 30_100 + 100
        #expect(never.last.map(\.timeMillis) == lastAck + 30_000)

        // A second ack, or an ack for a policy without a response wait, changes nothing.
        let acked = answered[2].state
        #expect(ReconnectMachine.step(acked, .loginAcknowledged, policy: jmessage).actions.isEmpty)
        let nim = simulate(
            NIMPolicies.web, [(0, .userLogin), (1, .routeResolved(ttlMillis: nil)), (2, .transportOpened)])
        let step = ReconnectMachine.step(
            nim.last?.state ?? ReconnectState(), .loginAcknowledged, policy: NIMPolicies.web)
        #expect(step.actions.isEmpty && step.state == nim.last?.state)
    }

    /// A route whose ttl is already over is used once: no ttl timer of 0 ms, and the next
    /// attempt looks the route up again.
    @Test func aRouteWithoutLifetimeIsNotCached() {
        let steps = simulate(swift, [(0, .userLogin), (10, .routeResolved(ttlMillis: 0)), (20, .transportFailed)])
        #expect(
            !steps.flatMap(\.commands).contains { if case .scheduleTimer(.routeTTL, _) = $0 { true } else { false } })
        #expect(steps.last?.commands.contains(.resolveRoute(clearCache: false)) == true)
    }

    /// LeanCloud's client shows AVIMClientStatus 0 (None) from its creation until the first
    /// open; no step shows it again. The other SDKs show nothing before the first event.
    @Test func theInitialStatusIsNone() {
        #expect(
            ReconnectMachine.initialOutputs(policy: swift).map(\.description) == [
                "AVIMClientStatus=0 AVIMClientStatusNone"
            ])
        #expect(ReconnectMachine.initialOutputs(policy: LeanCloudPolicies.java).count == 1)
        #expect(ReconnectMachine.initialOutputs(policy: LeanCloudPolicies.js).isEmpty)
        #expect(ReconnectMachine.initialOutputs(policy: NIMPolicies.web).isEmpty)
        let text = TraceFormat.text(simulate(swift, [(0, .userLogin)]), policy: swift)
        #expect(text.contains("initial: AVIMClientStatus=0 AVIMClientStatusNone"))
        let steps = simulate(
            swift, [(0, .userLogin)] + connect(swift, atMillis: 0) + [(100, .userLogout), (200, .userLogin)])
        #expect(!steps.flatMap(\.outputs).contains { $0.value == 0 })
    }
}
