import JOSE
import Support

/// Message encryption for Web Push (RFC 8291): the `aes128gcm` content coding (RFC 8188) with a
/// key agreed by ECDH on P-256 between a key pair made for the one message and the browser's
/// subscription key (`p256dh`), mixed with the subscription's authentication secret (`auth`).
///
/// The body is one record: the 86-byte header (salt, record size 4096, the sender's public key
/// as the key id), then the plaintext with the last-record delimiter `0x02`, sealed with
/// AES-128-GCM. Push services accept bodies of 4096 bytes, which leaves
/// ``maximumPlaintextBytes`` (3,993) for the plaintext.
public enum WebPushEncryption {
    /// The largest plaintext one push may carry (RFC 8291 §4).
    public static let maximumPlaintextBytes = 3993
    /// The record size written into the header: one record holds the whole message.
    static let recordSize: UInt32 = 4096
    /// The length of the authentication secret.
    public static let authSecretLength = 16
    /// The length of the salt.
    public static let saltLength = 16

    /// Why a message could not be encrypted.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The plaintext is longer than ``maximumPlaintextBytes``.
        case tooLarge(bytes: Int)
        /// The subscription's key or secret is unusable.
        case invalidSubscriptionKeys(String)

        public var description: String {
            switch self {
            case .tooLarge(let bytes): "a push carries at most \(maximumPlaintextBytes) bytes of plaintext, not \(bytes)"
            case .invalidSubscriptionKeys(let detail): "the subscription's keys are unusable: \(detail)"
            }
        }
    }

    /// The encrypted body of a push of `plaintext` to the subscription with public key
    /// `receiverKey` (65 bytes) and `authSecret` (16 bytes).
    /// - Parameters:
    ///   - sender: The key pair of this message; a fresh one unless a test vector fixes it.
    ///   - salt: 16 random bytes unless a test vector fixes them.
    /// - Throws: ``Failure``.
    public static func encrypt(
        _ plaintext: [UInt8], receiverKey: [UInt8], authSecret: [UInt8],
        sender: P256KeyAgreement = .generate(), salt: [UInt8] = SecureRandom.bytes(saltLength)
    ) throws(Failure) -> [UInt8] {
        guard plaintext.count <= maximumPlaintextBytes else { throw .tooLarge(bytes: plaintext.count) }
        guard authSecret.count == authSecretLength else { throw .invalidSubscriptionKeys("auth is not \(authSecretLength) bytes") }
        precondition(salt.count == saltLength, "the salt is 16 bytes")
        let sharedSecret: [UInt8]
        do {
            sharedSecret = try sender.sharedSecret(with: receiverKey)
        } catch {
            throw .invalidSubscriptionKeys(error.message)
        }
        let senderKey = sender.publicKey
        // RFC 8291 §3.3: the input keying material of the content coding.
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiverKey + senderKey
        let inputKeyMaterial = HKDFSHA256.derive(salt: authSecret, inputKeyMaterial: sharedSecret, info: keyInfo, length: 32)
        // RFC 8188 §2.2 and §2.3: the content-encryption key and the nonce of record 0.
        let pseudorandomKey = HKDFSHA256.extract(salt: salt, inputKeyMaterial: inputKeyMaterial)
        let contentKey = HKDFSHA256.expand(
            pseudorandomKey: pseudorandomKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: AES128GCM.keyLength)
        let nonce = HKDFSHA256.expand(
            pseudorandomKey: pseudorandomKey, info: Array("Content-Encoding: nonce".utf8) + [0], length: AES128GCM.nonceLength)
        let header = salt + withUnsafeBytes(of: recordSize.bigEndian, Array.init) + [UInt8(senderKey.count)] + senderKey
        return header + AES128GCM.seal(plaintext + [2], key: contentKey, nonce: nonce)
    }
}
