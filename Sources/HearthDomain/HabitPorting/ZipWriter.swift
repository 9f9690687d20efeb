import Support

/// Writes a zip archive (PKWARE APPNOTE 6.3) as a stream of byte runs, one entry after another,
/// without knowing any entry's size up front: every entry is *stored* (its bytes as they are)
/// with general-purpose flag bit 3 set, so its CRC-32 and sizes follow its data in a data
/// descriptor, and the central directory at the end repeats them. Names are UTF-8 (flag bit 11).
///
/// The writer holds one small record per entry for the central directory, never entry data, so
/// an archive of any number of rows and photos streams in constant memory per entry. Entries
/// are stored, not deflated: photos (JPEG, PNG, WebP) are compressed already, and the CSV and
/// JSON entries stay readable by any unzip.
///
/// Limits of the classic format, which this writer keeps to (it writes no ZIP64 records): each
/// entry and the whole archive below 4 GiB, at most 65,535 entries, names below 64 KiB; past
/// them it throws ``ZipError/Code/tooLarge``.
///
/// ```swift
/// var zip = ZipWriter()
/// send(try zip.beginEntry(named: "notes.csv", modifiedAt: now))
/// send(try zip.write(Array("a,b\r\n".utf8)))
/// send(try zip.endEntry())
/// send(try zip.finish())
/// ```
public struct ZipWriter: Sendable {
    /// What the central directory needs of a written entry.
    private struct Entry: Sendable {
        let name: [UInt8]
        let dosTime: UInt16
        let dosDate: UInt16
        let crc: UInt32
        let size: UInt32
        let localHeaderOffset: UInt32
    }

    /// The entry being written.
    private struct OpenEntry: Sendable {
        let name: [UInt8]
        let dosTime: UInt16
        let dosDate: UInt16
        let localHeaderOffset: UInt64
        var crc = CRC32()
        var size: UInt64 = 0
    }

    /// The largest size or offset the classic format records (`0xFFFFFFFF` means "see ZIP64").
    public static let maximumSize: UInt64 = 0xFFFF_FFFE
    /// The most entries the classic format counts.
    public static let maximumEntries = 0xFFFF

    /// General purpose flags: bit 3 (sizes in a data descriptor), bit 11 (UTF-8 names).
    private static let flags: UInt16 = 1 << 3 | 1 << 11
    /// Version needed to extract: 2.0 (data descriptors).
    private static let versionNeeded: UInt16 = 20
    /// Version made by: 2.0, Unix (upper byte 3), so external attributes carry a file mode.
    private static let versionMadeBy: UInt16 = 3 << 8 | 20
    /// External attributes: a regular file, mode 0644.
    private static let externalAttributes: UInt32 = 0o100644 << 16

    private var entries: [Entry] = []
    private var open: OpenEntry?
    private var offset: UInt64 = 0
    private var isFinished = false

    /// An empty archive.
    public init() {}

    /// The local header of a new entry. `modifiedAt` is seconds since 1970 (UTC), recorded as
    /// an MS-DOS date and time (two-second steps, years 1980–2107; earlier times read 1980).
    /// - Throws: ``ZipError`` `MISUSE` when an entry is open or the archive finished;
    ///   `TOO_LARGE` past the format's limits.
    public mutating func beginEntry(named name: String, modifiedAt: Int64) throws(ZipError) -> [UInt8] {
        guard open == nil, !isFinished else { throw ZipError(.misuse, "end the open entry before beginning another") }
        let nameBytes = Array(name.utf8)
        guard nameBytes.count <= 0xFFFF else { throw ZipError(.tooLarge, "a zip entry name has fewer than 65,536 bytes") }
        guard entries.count < Self.maximumEntries else { throw ZipError(.tooLarge, "a zip archive without ZIP64 has at most 65,535 entries") }
        guard offset <= Self.maximumSize else { throw ZipError(.tooLarge, "a zip archive without ZIP64 stays below 4 GiB") }
        let (dosTime, dosDate) = Self.dosDateTime(secondsSince1970: modifiedAt)
        open = OpenEntry(name: nameBytes, dosTime: dosTime, dosDate: dosDate, localHeaderOffset: offset)
        var header = ByteWriter()
        header.uint32(0x0403_4B50)
        header.uint16(Self.versionNeeded)
        header.uint16(Self.flags)
        header.uint16(0)  // stored
        header.uint16(dosTime)
        header.uint16(dosDate)
        header.uint32(0)  // CRC-32, in the data descriptor
        header.uint32(0)  // compressed size, likewise
        header.uint32(0)  // uncompressed size, likewise
        header.uint16(UInt16(nameBytes.count))
        header.uint16(0)  // extra field length
        header.bytes(nameBytes)
        return emit(header.output)
    }

    /// `bytes` as the next part of the open entry's data (stored as they are).
    /// - Throws: ``ZipError`` `MISUSE` without an open entry; `TOO_LARGE` when the entry reaches 4 GiB.
    public mutating func write(_ bytes: [UInt8]) throws(ZipError) -> [UInt8] {
        guard var entry = open else { throw ZipError(.misuse, "begin an entry before writing its data") }
        entry.size += UInt64(bytes.count)
        guard entry.size <= Self.maximumSize else { throw ZipError(.tooLarge, "a zip entry without ZIP64 stays below 4 GiB") }
        entry.crc.update(bytes)
        open = entry
        return emit(bytes)
    }

    /// The data descriptor that closes the open entry.
    /// - Throws: ``ZipError`` `MISUSE` without an open entry; `TOO_LARGE` past 4 GiB in all.
    public mutating func endEntry() throws(ZipError) -> [UInt8] {
        guard let entry = open else { throw ZipError(.misuse, "no entry is open") }
        guard entry.localHeaderOffset <= Self.maximumSize else { throw ZipError(.tooLarge, "a zip archive without ZIP64 stays below 4 GiB") }
        open = nil
        entries.append(Entry(
            name: entry.name, dosTime: entry.dosTime, dosDate: entry.dosDate, crc: entry.crc.value, size: UInt32(entry.size),
            localHeaderOffset: UInt32(entry.localHeaderOffset)))
        var descriptor = ByteWriter()
        descriptor.uint32(0x0807_4B50)
        descriptor.uint32(entry.crc.value)
        descriptor.uint32(UInt32(entry.size))  // compressed = uncompressed: stored
        descriptor.uint32(UInt32(entry.size))
        return emit(descriptor.output)
    }

    /// A whole entry at once: its header, `bytes` and its data descriptor.
    /// - Throws: as ``beginEntry(named:modifiedAt:)``, ``write(_:)`` and ``endEntry()``.
    public mutating func entry(named name: String, modifiedAt: Int64, bytes: [UInt8]) throws(ZipError) -> [UInt8] {
        try beginEntry(named: name, modifiedAt: modifiedAt) + write(bytes) + endEntry()
    }

    /// The central directory and its end record, which complete the archive.
    /// - Throws: ``ZipError`` `MISUSE` with an entry open or when already finished; `TOO_LARGE`
    ///   when the directory would start or end past 4 GiB.
    public mutating func finish() throws(ZipError) -> [UInt8] {
        guard open == nil, !isFinished else { throw ZipError(.misuse, "end the open entry before finishing the archive") }
        isFinished = true
        let directoryOffset = offset
        var directory = ByteWriter()
        for entry in entries {
            directory.uint32(0x0201_4B50)
            directory.uint16(Self.versionMadeBy)
            directory.uint16(Self.versionNeeded)
            directory.uint16(Self.flags)
            directory.uint16(0)
            directory.uint16(entry.dosTime)
            directory.uint16(entry.dosDate)
            directory.uint32(entry.crc)
            directory.uint32(entry.size)
            directory.uint32(entry.size)
            directory.uint16(UInt16(entry.name.count))
            directory.uint16(0)  // extra field length
            directory.uint16(0)  // comment length
            directory.uint16(0)  // disk number start
            directory.uint16(0)  // internal attributes
            directory.uint32(Self.externalAttributes)
            directory.uint32(entry.localHeaderOffset)
            directory.bytes(entry.name)
        }
        let directorySize = UInt64(directory.output.count)
        guard directoryOffset + directorySize <= Self.maximumSize else {
            throw ZipError(.tooLarge, "a zip archive without ZIP64 stays below 4 GiB")
        }
        directory.uint32(0x0605_4B50)
        directory.uint16(0)  // this disk
        directory.uint16(0)  // disk of the central directory
        directory.uint16(UInt16(entries.count))
        directory.uint16(UInt16(entries.count))
        directory.uint32(UInt32(directorySize))
        directory.uint32(UInt32(directoryOffset))
        directory.uint16(0)  // comment length
        return emit(directory.output)
    }

    private mutating func emit(_ bytes: [UInt8]) -> [UInt8] {
        offset += UInt64(bytes.count)
        return bytes
    }

    /// The MS-DOS time and date fields of an instant (UTC), clamped to 1980-01-01…2107-12-31.
    static func dosDateTime(secondsSince1970: Int64) -> (time: UInt16, date: UInt16) {
        let seconds = Int(secondsSince1970)
        let day = CivilCalendar.floorDivide(seconds, CivilCalendar.secondsPerDay)
        let secondOfDay = seconds - day * CivilCalendar.secondsPerDay
        let (year, month, dayOfMonth) = CivilCalendar.date(fromDayNumber: day)
        guard year >= 1980 else { return (0, 1 << 5 | 1) }
        guard year <= 2107 else { return (23 << 11 | 59 << 5 | 29, 127 << 9 | 12 << 5 | 31) }
        let time = UInt16(secondOfDay / 3600) << 11 | UInt16(secondOfDay % 3600 / 60) << 5 | UInt16(secondOfDay % 60 / 2)
        let date = UInt16(year - 1980) << 9 | UInt16(month) << 5 | UInt16(dayOfMonth)
        return (time, date)
    }
}
