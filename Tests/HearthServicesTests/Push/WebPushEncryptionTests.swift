import HearthServices
import JOSE
import Support
import Testing

/// RFC 8291's message encryption against the example of its Appendix A (the sender's key pair
/// and the salt fixed), and its refusals.
@Suite struct WebPushEncryptionTests {
    private static func bytes(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

    private static let receiverKey = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    private static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"

    @Test func encryptsTheRFC8291AppendixAExampleExactly() throws {
        let sender = try P256KeyAgreement(privateKey: try Self.bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        #expect(Base64URL.encode(sender.publicKey)
            == "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        let body = try WebPushEncryption.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8), receiverKey: try Self.bytes(Self.receiverKey),
            authSecret: try Self.bytes(Self.authSecret), sender: sender, salt: try Self.bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(Base64URL.encode(body) == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN")
    }

    @Test func carriesAtMost3993BytesInOneRecordOf4096() throws {
        let key = try Self.bytes(Self.receiverKey)
        let auth = try Self.bytes(Self.authSecret)
        let largest = try WebPushEncryption.encrypt([UInt8](repeating: 1, count: 3993), receiverKey: key, authSecret: auth)
        #expect(largest.count == 4096, "86 bytes of header, the plaintext, the delimiter and the tag")
        #expect(throws: WebPushEncryption.Failure.tooLarge(bytes: 3994)) {
            try WebPushEncryption.encrypt([UInt8](repeating: 1, count: 3994), receiverKey: key, authSecret: auth)
        }
    }

    @Test func refusesUnusableSubscriptionKeys() throws {
        let key = try Self.bytes(Self.receiverKey)
        #expect(throws: WebPushEncryption.Failure.self) {
            try WebPushEncryption.encrypt([1], receiverKey: key, authSecret: [1, 2, 3])
        }
        var offCurve = key
        offCurve[64] ^= 1
        #expect(throws: WebPushEncryption.Failure.self) {
            try WebPushEncryption.encrypt([1], receiverKey: offCurve, authSecret: try Self.bytes(Self.authSecret))
        }
    }

    @Test func aPrivateKeyOutsideTheCurvesOrderIsRefused() {
        #expect(throws: JOSEError.self) { try P256KeyAgreement(privateKey: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: JOSEError.self) { try P256KeyAgreement(privateKey: [UInt8](repeating: 0xFF, count: 32)) }
        #expect(throws: JOSEError.self) { try SigningKey.ellipticCurveP256(privateKey: [UInt8](repeating: 1, count: 31)) }
    }
}
