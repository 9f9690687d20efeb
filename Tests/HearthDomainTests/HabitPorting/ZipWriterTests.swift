import Foundation
import HearthDomain
import Testing
import TestPython

/// The zip writer's archives, read back by Python's `zipfile` (CRC check of every entry, names,
/// contents) and by Debian's `unzip -t`; and our reader against archives Python writes.
@Suite struct ZipWriterTests {
    /// Entries of every kind the exports write: CSV text, a UTF-8 name, an empty file, binary bytes.
    static let entries: [(String, [UInt8])] = [
        ("habits.csv", Array("id,title\r\nhab_1,\"Run, walk\"\r\n".utf8)),
        ("photos/ça va 🏃.bin", (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }),
        ("empty.txt", []),
        ("follows.csv", Array(repeating: UInt8(ascii: "x"), count: 70_000)),
    ]

    static func archive(chunked: Bool) throws -> [UInt8] {
        var zip = ZipWriter()
        var output: [UInt8] = []
        for (name, bytes) in entries {
            output += try zip.beginEntry(named: name, modifiedAt: 1_764_633_600)
            if chunked {
                var start = 0
                while start < bytes.count {
                    output += try zip.write(Array(bytes[start..<min(start + 1000, bytes.count)]))
                    start += 1000
                }
            } else {
                output += try zip.write(bytes)
            }
            output += try zip.endEntry()
        }
        return output + (try zip.finish())
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "hearth-zip-\(UUID().uuidString).zip"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func pythonsZipfileFindsEveryEntryIntactWithItsNameAndContents() throws {
        let path = try Self.temporaryFile(try Self.archive(chunked: true))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as archive:
                print(json.dumps({"bad": archive.testzip(), "entries": [[info.filename, archive.read(info).hex(), info.date_time[:3]] for info in archive.infolist()]}))
            """
        let outcome = try TestPython.run(["-c", script, path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let result = try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any]
        #expect(result?["bad"] is NSNull)
        let read = (result?["entries"] as? [[Any]]) ?? []
        #expect(read.map { $0[0] as? String } == Self.entries.map { $0.0 })
        #expect(read.map { $0[1] as? String } == Self.entries.map { $0.1.map { String(format: "%02x", $0) }.joined() })
        #expect(read.first?[2] as? [Int] == [2025, 12, 2])
    }

    @Test func debiansUnzipTestsTheArchiveWithoutErrors() throws {
        let path = try Self.temporaryFile(try Self.archive(chunked: false))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = """
            import subprocess, sys
            result = subprocess.run(["unzip", "-t", sys.argv[1]], capture_output=True, text=True)
            print(result.stdout + result.stderr)
            sys.exit(result.returncode)
            """
        let outcome = try TestPython.run(["-c", script, path])
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("No errors detected"))
    }

    @Test func writingInChunksOrAtOnceMakesTheSameArchive() throws {
        #expect(try Self.archive(chunked: true) == Self.archive(chunked: false))
    }

    @Test func theReaderReadsBackWhatTheWriterWrote() throws {
        let archive = try ZipArchive(try Self.archive(chunked: true))
        #expect(archive.entries.map(\.name) == Self.entries.map { $0.0 })
        for (entry, expected) in zip(archive.entries, Self.entries) {
            #expect(try archive.contents(of: entry, inflate: { _, _ in [] }) == expected.1)
        }
    }

    @Test func theReaderHandsDeflatedEntriesOfPythonsArchivesToItsInflater() throws {
        let path = NSTemporaryDirectory() + "hearth-zip-\(UUID().uuidString).zip"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as archive:
                archive.writestr("Habits.csv", "Position,Name\\n" * 50)
                archive.writestr("001 Run/Checkmarks.csv", "2024-01-01,2\\n", compress_type=zipfile.ZIP_STORED)
            """
        let outcome = try TestPython.run(["-c", script, path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let archive = try ZipArchive(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(archive.entries.map(\.method) == [8, 0])
        #expect(try archive.contents(of: archive.entries[1], inflate: { _, _ in [] }) == Array("2024-01-01,2\n".utf8))
        var handed: (Int, Int)?
        let inflated = Array(String(repeating: "Position,Name\n", count: 50).utf8)
        #expect(try archive.contents(of: archive.entries[0], inflate: { compressed, size in
            handed = (compressed.count, size)
            return inflated
        }) == inflated)
        #expect(handed?.1 == inflated.count)
        #expect(throws: ZipError.self) { try archive.contents(of: archive.entries[0], inflate: { _, size in [UInt8](repeating: 0, count: size) }) }
    }

    @Test func bytesThatAreNotAZipAreRefusedAsSuch() {
        #expect(throws: ZipError(.notZip, "not a zip archive")) { try ZipArchive(Array("Position,Name\n".utf8)) }
        #expect(throws: ZipError(.notZip, "not a zip archive")) { try ZipArchive([]) }
    }

    @Test func theWriterRefusesDataOutsideAnEntryAndAnEntryAfterTheEnd() throws {
        var zip = ZipWriter()
        #expect(throws: ZipError.self) { try zip.write([1]) }
        _ = try zip.finish()
        #expect(throws: ZipError.self) { try zip.beginEntry(named: "late", modifiedAt: 0) }
    }

    /// Uploaded archives are untrusted: every truncation and thousands of corrupted copies of a
    /// real archive are read without trapping, each either refused with a ``ZipError`` or read.
    @Test func damagedArchivesAreRefusedNeverTrapping() throws {
        var writer = ZipWriter()
        let archive = try writer.entry(named: "Habits.csv", modifiedAt: 0, bytes: Array("Position,Name\r\n001,Run\r\n".utf8))
            + writer.entry(named: "001 Run/Checkmarks.csv", modifiedAt: 0, bytes: Array("Date,Value\r\n2024-01-01,2\r\n".utf8))
            + writer.finish()
        let identity: ZipArchive.Inflate = { compressed, _ in Array(compressed) }
        for length in 0...archive.count {
            if let read = try? ZipArchive(Array(archive.prefix(length))) {
                for entry in read.entries { _ = try? read.contents(of: entry, inflate: identity) }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1000 {
            var damaged = archive
            for _ in 0..<4 { damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            if let read = try? ZipArchive(damaged) {
                for entry in read.entries { _ = try? read.contents(of: entry, inflate: identity) }
            }
        }
        for _ in 0..<1000 {
            let noise = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? CSVParser.records(noise)
            _ = try? ZipArchive(noise + [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0xFF, count: 18))
        }
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }
}
