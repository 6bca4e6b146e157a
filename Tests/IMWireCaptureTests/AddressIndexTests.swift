import Testing

@testable import IMWireCapture

/// The sharder's address table against `Dictionary`: numbers in order of first appearance, the
/// same answers for every lookup, through several doublings of its slots.
@Suite struct AddressIndexTests {
    @Test func numbersAddressesAsADictionaryWould() {
        var generator = SystemRandomNumberGenerator()
        var addresses: [IPAddress] = []
        for _ in 0..<3_000 {
            let length = Bool.random(using: &generator) ? 4 : 16
            // Few distinct values per byte, so that addresses repeat and differ in one byte only.
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...3, using: &generator) }
            addresses.append(IPAddress(bytes)!)
        }
        // The same bytes as IPv4 and as the start of IPv6 are different addresses.
        addresses += [IPAddress([1, 2, 3, 4])!, IPAddress([1, 2, 3, 4] + [UInt8](repeating: 0, count: 12))!]

        var index = AddressIndex()
        var expected: [IPAddress: Int] = [:]
        for address in addresses {
            let (number, added) = index.index(of: address)
            if let known = expected[address] {
                #expect(number == known && !added, "\(address)")
            } else {
                #expect(number == expected.count && added, "\(address)")
                expected[address] = number
            }
        }
        #expect(index.count == expected.count)
        #expect(expected.count > 1_000)
        for (address, number) in expected { #expect(index[address] == number, "\(address)") }
        #expect(index[IPAddress([9, 9, 9, 9])!] == nil)
    }
}
