extension Collection<UInt8> {
    /// Calls `body` with the bytes in contiguous memory, copying them only when the collection
    /// does not already store them contiguously (the C APIs of OpenSSL take pointers).
    func withContiguousBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let result = try withContiguousStorageIfAvailable({ try body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return try Array(self).withUnsafeBytes(body)
    }

    /// Calls `body` with a pointer to the bytes and their count; the pointer is never null,
    /// even for an empty collection, because some OpenSSL functions give a null pointer a
    /// meaning of its own (HMAC reuses the previous key).
    func withNonNullBytes<Result>(_ body: (UnsafePointer<UInt8>, Int) throws -> Result) rethrows -> Result {
        try withContiguousBytes { buffer in
            if let base = buffer.baseAddress, !buffer.isEmpty {
                return try body(base.assumingMemoryBound(to: UInt8.self), buffer.count)
            }
            var placeholder: UInt8 = 0
            return try body(&placeholder, 0)
        }
    }
}
