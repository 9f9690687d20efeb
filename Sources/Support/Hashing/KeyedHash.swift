/// A fast 64-bit hash of long byte strings under a key drawn at random once per process: for
/// dictionary keys that are long texts sent by clients (a GraphQL document, hundreds to
/// thousands of bytes), where the standard library's SipHash costs about nine instructions a
/// byte and this about one.
///
/// It follows the construction Go's runtime uses for its maps' keys on machines without AES
/// instructions (after wyhash): sixteen bytes at a time are folded into the state by one full
/// 64×64→128-bit multiplication of the two words, each mixed with a secret, whose halves are
/// combined. Every step depends on the secrets, so which texts collide cannot be worked out
/// without them, which keeps a client from filling one bucket with many texts (hash flooding);
/// the secrets never leave the process. It is not a cryptographic hash: nothing relies on it
/// beyond spreading keys.
public enum KeyedHash {
    /// The process's secrets: random, odd (so no multiplication by a secret loses bits).
    private static let secrets: (UInt64, UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next() | 1, generator.next() | 1, generator.next() | 1)
    }()

    /// The hash of `bytes`; a different `seed` gives an unrelated hash (to chain the hashes of
    /// several pieces of one key, each seeded with the previous one's).
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let (first, second, third) = secrets
        var state = (first ^ seed) ^ UInt64(truncatingIfNeeded: bytes.count) &* second
        var offset = 0
        while offset + 16 <= bytes.count {
            state = fold(
                bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ second,
                bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self) ^ state)
            offset += 16
        }
        var tail = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &tail) { buffer in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
        state = fold(tail.0 ^ second, tail.1 ^ state)
        return fold(state ^ third, UInt64(truncatingIfNeeded: bytes.count) ^ first)
    }

    /// The hash of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// The two halves of `a` × `b`, combined.
    @inline(__always)
    private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        return product.high ^ product.low
    }
}
