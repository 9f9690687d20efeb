/// Complete JSON text in memory that a `JSONWriter` handed over without copying it (the
/// executor's response data). Immutable, so it can be shared between threads.
final class JSONText: Sendable {
    /// The text. Allocated before `init` and handed over to it, freed by `deinit` and never
    /// written in between, so reading it from any thread is safe (which is what
    /// `nonisolated(unsafe)` asserts for this non-`Sendable` pointer).
    nonisolated(unsafe) let bytes: UnsafeBufferPointer<UInt8>

    /// Takes `bytes`, which no one else may hold, writes or frees.
    init(taking bytes: UnsafeMutableBufferPointer<UInt8>) {
        self.bytes = UnsafeBufferPointer(bytes)
    }

    /// Copies `bytes`.
    convenience init(copying bytes: some Collection<UInt8>) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        self.init(taking: buffer)
    }

    deinit {
        bytes.deallocate()
    }

    /// The text as an array (a copy).
    var array: [UInt8] { Array(bytes) }
}
