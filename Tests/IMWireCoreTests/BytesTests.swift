import Testing

@testable import IMWireCore

@Suite struct ByteReaderTests {
    @Test func readsIntegersInBothOrders() {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]
        bytes.withReader { reader in
            let big16 = reader.readUInt16(.big)
            let little16 = reader.readUInt16(.little)
            let big32 = reader.readUInt32(.big)
            let beyond = reader.readUInt8()
            #expect(big16 == 0x0102)
            #expect(little16 == 0x0403)
            #expect(big32 == 0x0506_0708)
            #expect(beyond == nil)
            #expect(reader.isAtEnd)
        }
        bytes.withReader { reader in
            let little64 = reader.readUInt64(.little)
            #expect(little64 == 0x0807_0605_0403_0201)
        }
    }

    @Test func shortReadsConsumeNothing() {
        let bytes: [UInt8] = [0xaa, 0xbb, 0xcc]
        bytes.withReader { reader in
            let word = reader.readUInt32()
            let four = reader.readBytes(4)
            let negative = reader.readBytes(-1)
            let skipped = reader.skip(4)
            #expect(word == nil)
            #expect(four == nil)
            #expect(negative == nil)
            #expect(!skipped)
            #expect(reader.position == 0)
            #expect(reader.remaining == 3)
        }
    }

    @Test func nestedReadersKeepAbsoluteOffsets() {
        let bytes: [UInt8] = Array(0..<10)
        bytes.withReader(baseOffset: 100) { reader in
            _ = reader.skip(3)
            guard var inner = reader.readReader(4) else {
                Issue.record("no inner reader")
                return
            }
            #expect(inner.offset == 103)
            let first = inner.readUInt8()
            #expect(first == 3)
            #expect(inner.offset == 104)
            #expect(reader.offset == 107)
        }
    }

    @Test func writerEncodesWhatReaderDecodes() {
        var writer = ByteWriter()
        writer.append(UInt16(0xbeef), .big)
        writer.append(UInt32(0xdead_beef), .little)
        writer.appendVarint(300)
        writer.append(utf8: "hi")
        #expect(writer.bytes == [0xbe, 0xef, 0xef, 0xbe, 0xad, 0xde, 0xac, 0x02, 0x68, 0x69])
        var wide = ByteWriter()
        wide.append(UInt64(0x0102_0304_0506_0708), .big)
        wide.append(UInt64(0x0102_0304_0506_0708), .little)
        wide.append(UInt8(0x7f), .big)
        #expect(wide.bytes == [1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1, 0x7f])
        writer.bytes.withReader { reader in
            let big16 = reader.readUInt16(.big)
            let little32 = reader.readUInt32(.little)
            let varint = reader.readVarint()
            #expect(big16 == 0xbeef)
            #expect(little32 == 0xdead_beef)
            #expect(varint == .value(300, length: 2, minimal: true))
        }
    }
}

@Suite struct HexAndBase64Tests {
    @Test func hexRoundTripAndSeparators() throws {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.encode([0x08, 0x15], separator: " ") == "08 15")
        #expect(try Hex.decode("08 15:AB\n") == [0x08, 0x15, 0xab])
    }

    @Test func hexErrorsNameTheOffset() {
        #expect(throws: IMWireError.hex("not a hex digit", at: 2)) { try Hex.decode("08zz") }
        #expect(throws: IMWireError.hex("odd number of hex digits", at: 2)) { try Hex.decode("081") }
        #expect(throws: IMWireError.hex("separator inside a byte", at: 1)) { try Hex.decode("0 8") }
    }

    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(plain: String, encoded: String) throws {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.encode(Array("xy\(plain)".utf8)[2...]) == encoded)  // a slice, not from index 0
        #expect(Base64.encode(plain.utf8.lazy.map { $0 }) == encoded)  // not contiguous
        #expect(try Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func base64StrictRejections() {
        #expect(errorCode { try Base64.decode("Zg") } == .base64Syntax)  // padding missing
        #expect(errorCode { try Base64.decode("Zh==") } == .base64Syntax)  // trailing bits set
        #expect(errorCode { try Base64.decode("Zm9v YmFy") } == .base64Syntax)  // whitespace
        #expect(errorCode { try Base64.decode("Z===") } == .base64Syntax)  // too much padding
        #expect(errorCode { try Base64.decode("Zm=v") } == .base64Syntax)  // padding inside
        do {
            _ = try Base64.decode("Zm9v!mFy")
            Issue.record("accepted a character outside the alphabet")
        } catch {
            #expect(error.offset == 4)
        }
    }

    @Test func base64LenientAcceptsMissingPadding() throws {
        #expect(try Base64.decode("Zg", lenient: true) == [0x66])
        #expect(try Base64.decode("Zh==", lenient: true) == [0x66])
    }

    @Test func base64RandomRoundTrip() throws {
        var generator = SplitMix64(seed: 7)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(try Base64.decode(Base64.encode(bytes)) == bytes)
        }
    }
}

/// `firstIndex(of:in:)` with `memchr`, against `firstIndex` over the slice and a search of every
/// position, on random bytes of a small alphabet (so needles recur and half-match).
@Suite struct ByteSearchTests {
    @Test func findsWhatAByteLoopFinds() {
        var generator = SplitMix64(seed: 5)
        var found = 0
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...3, using: &generator)
            }
            let needle = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                UInt8.random(in: 0...3, using: &generator)
            }
            let lower = Int.random(in: 0...bytes.count, using: &generator)
            let range = lower..<Int.random(in: lower...bytes.count, using: &generator)
            let expected = range.first { bytes[$0..<range.upperBound].starts(with: needle) }
            bytes.withUnsafeBytes { raw in
                #expect(raw.firstIndex(of: needle[0], in: range) == bytes[range].firstIndex(of: needle[0]))
                #expect(raw.firstIndex(of: needle, in: range) == expected, "\(bytes) \(needle) \(range)")
            }
            if expected != nil { found += 1 }
        }
        #expect(found > 500)
    }
}
