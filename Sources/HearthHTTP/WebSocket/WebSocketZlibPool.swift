/// One event loop's shared zlib streams for connections without context takeover: such streams are reset
/// after every message, so connections can take turns on one instead of each holding ~300 KB of their own.
/// Confined to its loop's thread.
final class WebSocketZlibPool {
    private struct DeflaterKey: Hashable {
        let windowBits: Int
        let memoryLevel: Int32
        let level: Int32
    }

    private var deflaters: [DeflaterKey: PerMessageDeflate.Deflater] = [:]
    private var sharedInflater: PerMessageDeflate.Inflater?

    /// The loop's deflater for these settings, created on first use.
    func deflater(windowBits: Int, compression: WebSocketConfiguration.Compression) -> PerMessageDeflate.Deflater? {
        let key = DeflaterKey(windowBits: windowBits, memoryLevel: compression.memoryLevel, level: compression.level)
        if let deflater = deflaters[key] { return deflater }
        let deflater = PerMessageDeflate.Deflater(
            windowBits: windowBits, memoryLevel: compression.memoryLevel, level: compression.level, resetsAfterMessage: true)
        deflaters[key] = deflater
        return deflater
    }

    /// The loop's inflater, created on first use.
    func inflater() -> PerMessageDeflate.Inflater? {
        if let sharedInflater { return sharedInflater }
        sharedInflater = PerMessageDeflate.Inflater(resetsAfterMessage: true)
        return sharedInflater
    }
}
