import IMWireCore
import Testing

@Suite struct StatusCodeTests {
    @Test(arguments: [
        (CodeClass.success, ReconnectAdvice.none), (.retry, .reconnectNow), (.reauthenticate, .refreshCredentials),
        (.fatalCredentials, .stop), (.fatalConflict, .stop), (.rateLimited, .backOff), (.serverError, .backOff),
        (.permissionDenied, .none), (.notFound, .none), (.notMember, .none), (.invalidRequest, .none),
        (.clientLocal, .none), (.enumValue, .none),
    ])
    func everyClassHasItsAdvice(codeClass: CodeClass, advice: ReconnectAdvice) {
        let code = StatusCode(.nim, "t", 1, "", "m", sources: "s", travel: .message, codeClass: codeClass)
        #expect(code.advice == advice)
    }

    @Test func everyClassIsCovered() {
        #expect(CodeClass.allCases.count == 13)
    }
}
