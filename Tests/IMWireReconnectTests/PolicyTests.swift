import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireNIM
import IMWireRegistry
import IMWireYun2win
import Testing

@testable import IMWireReconnect

@Suite struct PolicyTests {
    @Test func everyNameOfTheIssueIsAPolicy() {
        let names = [
            "leancloud-swift", "leancloud-js", "leancloud-java", "leancloud-csharp", "nim-web", "jmessage-web",
            "yun2win-web", "yun2win-android", "yun2win-ios",
        ]
        #expect(ReconnectPolicies.names == names)
        for name in names { #expect(ReconnectPolicies.named(name)?.name == name) }
        #expect(ReconnectPolicies.named("leancloud") == nil)
        for definition in Dialects.standard.all { #expect(definition.defaultPolicy?.dialect == definition.dialect) }
        #expect(Yun2winPolicies.policy(forClientIDPlatformDigit: "1")?.name == "yun2win-android")
        #expect(Yun2winPolicies.policy(forClientIDPlatformDigit: "7") == nil)
    }

    @Test(arguments: ReconnectPolicies.all)
    func everyPolicyReadsTablesTheRegistryHasAndCitesItsFacts(_ policy: ReconnectPolicy) {
        for (_, names) in policy.registry.tables {
            for name in names {
                #expect(StatusRegistry.standard.table(policy.registry.vendor, name) != nil, "\(policy.name): \(name)")
            }
        }
        #expect(policy.registry.vendor == policy.dialect)
        #expect(policy.outputs.vendor == policy.dialect)
        #expect(!policy.facts.isEmpty)
        #expect(policy.facts.allSatisfy { !$0.source.isEmpty })
        #expect(policy.rules.allSatisfy { !$0.source.isEmpty })
        #expect(!policy.acceptCodes.isEmpty)
    }

    @Test func leanCloudCodes() {
        let swift = LeanCloudPolicies.swift
        #expect(swift.reaction(.kick, 4111) == .stop(.kicked))
        #expect(swift.reaction(.kick, 4115) == .stop(.kicked))
        #expect(swift.reaction(.login, 4112) == .refreshCredentials)
        #expect(swift.reaction(.login, 4102) == .stop(.loginRejected))
        #expect(swift.reaction(.close, 1006) == .retry)
        #expect(swift.reaction(.route, 404) == .stop(.routeRejected))
        #expect(swift.reaction(.route, 500) == .retry)
        let js = LeanCloudPolicies.js
        for code: Int64 in [4100, 4103, 4110] { #expect(js.reaction(.close, code) == .stop(.closeCode)) }
        // JS reconnects on every other close, even one whose IM meaning is fatal.
        #expect(js.reaction(.close, 4102) == .retry)
        #expect(swift.reaction(.close, 4102) == .stop(.closeCode))
    }

    @Test func nimCodes() {
        let nim = NIMPolicies.web
        for code: Int64 in [302, 417, 422] { #expect(nim.reaction(.login, code) == .stop(.loginRejected)) }
        #expect(nim.reaction(.login, 416) == .retryAfterServerWait)
        #expect(nim.reaction(.login, 500) == .retry)
        for reason: Int64 in 1...3 { #expect(nim.reaction(.kick, reason) == .stop(.kicked)) }
        // silentlyKick: the Web SDK 8.5.0 reconnects (Fixtures/captures/vendor-sdk/nim/nim-kick-silent)
        #expect(nim.reaction(.kick, 4) == .retry)
        #expect(nim.reaction(.route, nil) == .proceedWithoutRoute)
        #expect(nim.explain(.login, 503).basis.hasPrefix("registry:"))
    }

    @Test func jmessageLoginStatusReasons() {
        let jmessage = JMessagePolicies.web
        for reason: Int64 in [1, 2, 70, 10001, 10002] { #expect(jmessage.reaction(.kick, reason) == .stop(.kicked)) }
        #expect(jmessage.reaction(.kick, 40) == .ignore)
        #expect(jmessage.reaction(.login, 880104) == .stop(.loginRejected))
        #expect(jmessage.budget.attempts == 0)
    }

    @Test func yun2winReturnCodes() {
        for policy in Yun2winPolicies.all {
            for code: Int64 in [2, 3, 4] {
                #expect(policy.reaction(.login, code) == .stop(.loginRejected), "\(policy.name) \(code)")
            }
            for code: Int64 in [5, 6] { #expect(policy.reaction(.login, code) == .refreshCredentials) }
            #expect(policy.reaction(.kick, 10) == .stop(.kicked))
        }
        #expect(Yun2winPolicies.android.reaction(.login, 7) == .retryAfter(millis: 15_000))
        #expect(Yun2winPolicies.web.reaction(.login, 7) == .retry)
        #expect(Yun2winPolicies.web.reaction(.login, 99) == .retry)
        #expect(Yun2winPolicies.web.reaction(.route, nil) == .retryAfter(millis: 5000))
        #expect(Yun2winPolicies.android.reaction(.route, nil) == .stop(.routeRejected))
    }

    @Test func theExplorationAlphabetHasOneCodePerReaction() {
        let codes = LeanCloudPolicies.swift.interestingCodes(.login)
        #expect(codes.contains(0) && codes.contains(4112))
        let reactions = codes.map { LeanCloudPolicies.swift.reaction(.login, $0) }
        #expect(Set(reactions).count >= 3)
        #expect(codes.count < 12)
    }
}
