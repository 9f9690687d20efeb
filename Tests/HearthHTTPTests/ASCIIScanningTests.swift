@testable import HearthHTTP
import Testing

@Suite struct ASCIIScanningTests {
    /// Every length up to three words plus a tail, so the word loop and the tail both run.
    static let lengths = Array(0...27)

    @Test(arguments: lengths)
    func findsTheFirstOccurrenceOfAByteAtEveryOffsetLikeAPlainScan(_ length: Int) {
        for position in 0..<max(length, 1) {
            for needle: UInt8 in [0x0A, 0x3A, 0x00, 0xFF] {
                var bytes = [UInt8](repeating: 0x41, count: length)
                if position < length { bytes[position] = needle }
                if position + 3 < length { bytes[position + 3] = needle }
                bytes.withUnsafeBytes { buffer in
                    for start in 0...length {
                        let expected = buffer[start...].firstIndex(of: needle)
                        #expect(ASCII.firstIndex(of: needle, in: buffer, from: start) == expected)
                    }
                }
            }
        }
    }

    @Test(arguments: lengths)
    func acceptsExactlyTheFieldValueCharactersAtEveryOffset(_ length: Int) {
        guard length > 0 else {
            #expect(ASCII.allFieldValueChars(UnsafeRawBufferPointer(start: nil, count: 0)))
            return
        }
        for position in 0..<length {
            for byte in UInt8.min...UInt8.max {
                var bytes = [UInt8](repeating: 0x61, count: length)
                bytes[position] = byte
                let verdict = bytes.withUnsafeBytes { ASCII.allFieldValueChars($0) }
                #expect(verdict == ASCII.isFieldValueChar(byte), "byte \(byte) at \(position) of \(length)")
            }
        }
    }
}
