import Support
import Testing

@Suite struct CryptoBase64URLTests {
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ])
    func encodesTheRFC4648VectorsWithoutPadding(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        // Collections without contiguous storage, and slices, encode the same.
        #expect(Base64URL.encode(plain.utf8.lazy.map { $0 }) == encoded)
        #expect(Base64URL.encode(Array(("x" + plain).utf8).dropFirst()) == encoded)
    }

    @Test func usesTheURLSafeAlphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
    }

    @Test func roundTripsEveryByteValue() {
        let bytes = (0...255).map(UInt8.init)
        #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
    }

    @Test(arguments: ["Zg==", "Zm8=", "+/+/", "Zm9v\n", "Zm 9v", "Z", "Zm9vY", "Zh", "Zm9"])
    func rejectsPaddingForeignCharactersImpossibleLengthsAndNonCanonicalTails(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func decodesSubstrings() {
        let token = "aGVhZA.Ym9keQ"
        let parts = token.split(separator: ".")
        #expect(Base64URL.decode(parts[1]) == Array("body".utf8))
    }
}
