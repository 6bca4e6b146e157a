import IMWireCore
import Testing

@testable import IMWireYun2win

@Suite("yun2win status tables")
struct StatusCodeTests {
    func numbers(_ table: [StatusCode]) -> [Int64] { table.map(\.number) }

    @Test func tablesHaveEveryCode() {
        #expect(numbers(Yun2winStatusCodes.connectionStatus) == [0, 1, 2, 3, 100])
        #expect(numbers(Yun2winStatusCodes.connectionReturnCode) == [2, 3, 4, 5, 6, 7, 10, 11, 99, 100, 101])
        #expect(numbers(Yun2winStatusCodes.sendReturnCode) == Array(20...31) + [1000])
        #expect(numbers(Yun2winStatusCodes.syncType) == [0, 1, 2, 3, 4])
        #expect(Yun2winStatusCodes.connectionReturnCode2016.map(\.name) == ["appKeyIsInvalid"])
        #expect(Yun2winStatusCodes.all.allSatisfy { $0.vendor == .yun2win })
    }

    @Test func travelFollowsTheReference() {
        func travel(_ table: [StatusCode], _ number: Int64) -> Travel? { table.first { $0.number == number }?.travel }
        let connection = Yun2winStatusCodes.connectionReturnCode
        for code: Int64 in [2, 3, 4, 5, 6, 7] { #expect(travel(connection, code) == .connack) }
        #expect(travel(connection, 10) == .publish)
        #expect(travel(connection, 11) == .publish)
        #expect(travel(connection, 101) == .clientLocal)
        #expect(connection.filter { $0.confidence == .unconfirmed }.map(\.number) == [99, 100])
        let send = Yun2winStatusCodes.sendReturnCode
        #expect(send.filter { $0.travel == .clientLocal }.map(\.number) == [21, 23, 24, 25, 29])
        #expect(
            send.filter { $0.travel == .publish && $0.confidence == .confirmed }.map(\.number) == [
                20, 22, 26, 27, 28, 30, 31,
            ])
        #expect(Yun2winStatusCodes.connectionStatus.allSatisfy { $0.travel == .sdkEnum && $0.codeClass == .enumValue })
        #expect(Yun2winStatusCodes.vendorConnackCodes == [6, 7, 99, 100])
    }

    @Test func platformDifferencesAreRecorded() throws {
        let send = Yun2winStatusCodes.sendReturnCode
        for code: Int64 in [30, 31] {
            let row = try #require(send.first { $0.number == code })
            #expect(!row.sources.contains("Android"))
        }
        let android = try #require(send.first { $0.number == 1000 })
        #expect(android.sources.contains("Android") && !android.sources.contains("iOS"))
        #expect(
            send.filter { $0.number < 30 }.allSatisfy { $0.sources.contains("Android") && $0.sources.contains("iOS") })
    }

    @Test func adviceMatchesTheSDKs() throws {
        func advice(_ number: Int64) -> ReconnectAdvice? { Yun2winStatusCodes.connectionReturn(number)?.advice }
        #expect(advice(10) == .stop)  // kicked: logout, no reconnect
        #expect(advice(5) == .refreshCredentials)  // new imToken, then reconnect
        #expect(advice(6) == .refreshCredentials)
        #expect(advice(7) == .backOff)  // Android reconnects after 15 s
        #expect(advice(2) == .stop)
        #expect(advice(4) == .stop)
    }
}
