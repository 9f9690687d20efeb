import Support
import Testing

@Suite struct CryptoPrimitivesTests {
    @Test func sha256DigestMatchesTheFIPSVectorAsBytes() {
        #expect(SHA256.digest(Array("abc".utf8)) == hexBytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(SHA256.digest([UInt8]()).count == 32)
    }

    @Test(arguments: [
        (hexBytes(String(repeating: "0b", count: 20)), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (hexBytes(String(repeating: "aa", count: 20)), hexBytes(String(repeating: "dd", count: 50)),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(1...25), hexBytes(String(repeating: "cd", count: 50)),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (hexBytes(String(repeating: "aa", count: 131)), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (hexBytes(String(repeating: "aa", count: 131)),
         Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ] as [([UInt8], [UInt8], String)])
    func hmacSHA256MatchesTheRFC4231Vectors(key: [UInt8], message: [UInt8], expected: String) {
        #expect(HMACSHA256.authenticationCode(key: key, message: message) == hexBytes(expected))
    }

    @Test func hmacSHA256AcceptsAnEmptyKeyAndMessage() {
        // HMAC-SHA256("", "") as computed by Python's hmac module.
        #expect(HMACSHA256.authenticationCode(key: [UInt8](), message: [UInt8]())
            == hexBytes("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
    }

    @Test func hmacSHA256AcceptsNonContiguousCollections() {
        let key = "Jefe".utf8.lazy.map { $0 }
        let message = Array("what do ya want for nothing?".utf8).reversed().reversed()
        #expect(HMACSHA256.authenticationCode(key: key, message: message)
            == hexBytes("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
    }

    @Test func secureRandomReturnsTheRequestedNumberOfDistinctBytes() {
        #expect(SecureRandom.bytes(0).isEmpty)
        let first = SecureRandom.bytes(32)
        let second = SecureRandom.bytes(32)
        #expect(first.count == 32)
        #expect(first != second)
    }

    @Test func constantTimeEqualityComparesContentAndLength() {
        #expect(ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
        #expect(ConstantTime.equals("abc".utf8, [97, 98, 99] as [UInt8]))
    }
}
