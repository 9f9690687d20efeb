import HearthDomain

/// The bytes of an export on their way out: collected into chunks of about ``chunkSize`` bytes
/// and handed to `deliver` as each fills, so rows leave as they are read and the export is never
/// whole in memory. Inside a zip, ``beginFile(_:modifiedAt:)`` and ``endFile()`` frame each file
/// as a zip entry; outside one they do nothing, so every section writes itself the same way.
///
/// Confined to the read closure that produces the export (not `Sendable`).
final class ExportStream {
    /// About how many bytes each delivered chunk holds.
    let chunkSize: Int
    /// Takes a chunk; false when its receiver has gone.
    private let deliver: ([UInt8]) -> Bool
    private var zip: ZipWriter?
    private var buffer: [UInt8] = []

    /// A stream delivering chunks to `deliver`, as a zip archive when `zipped`.
    init(chunkSize: Int, zipped: Bool, deliver: @escaping ([UInt8]) -> Bool) {
        self.chunkSize = chunkSize
        self.deliver = deliver
        zip = zipped ? ZipWriter() : nil
        buffer.reserveCapacity(chunkSize)
    }

    /// Starts the file `name` of a zip archive.
    func beginFile(_ name: String, modifiedAt: Int64) throws {
        guard zip != nil else { return }
        try append(try zip!.beginEntry(named: name, modifiedAt: modifiedAt))
    }

    /// Ends the file begun last.
    func endFile() throws {
        guard zip != nil else { return }
        try append(try zip!.endEntry())
    }

    /// Writes `bytes` (inside the open file of a zip archive).
    func write(_ bytes: [UInt8]) throws {
        try append(zip != nil ? try zip!.write(bytes) : bytes)
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Ends the archive (a zip's central directory) and delivers what is left.
    /// - Throws: `CancellationError` when the receiver has gone.
    func finish() throws {
        if zip != nil { try append(try zip!.finish()) }
        if !buffer.isEmpty { try send() }
    }

    /// Adds `bytes`, delivering a chunk once one is full.
    /// - Throws: `CancellationError` when the receiver has gone.
    private func append(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= chunkSize { try send() }
    }

    private func send() throws {
        let chunk = buffer
        buffer = []
        buffer.reserveCapacity(chunkSize)
        guard deliver(chunk) else { throw CancellationError() }
    }
}
