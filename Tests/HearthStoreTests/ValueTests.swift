import Foundation
import HearthStore
import Testing

@Suite struct ValueTests {
    private static let createTable = """
        CREATE TABLE samples (
            id INTEGER PRIMARY KEY,
            int_value INTEGER, int64_value INTEGER, int32_value INTEGER,
            double_value REAL, string_value TEXT, bytes_value BLOB, data_value BLOB,
            bool_value INTEGER, date_value TEXT, kind TEXT
        )
        """
    private static let insert = """
        INSERT INTO samples (int_value, int64_value, int32_value, double_value, string_value,
                             bytes_value, data_value, bool_value, date_value, kind)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    private enum Kind: String, Decodable {
        case chore, habit
    }

    private struct Sample: Decodable, Equatable {
        var id: Int64
        var int_value: Int?
        var int64_value: Int64?
        var int32_value: Int32?
        var double_value: Double?
        var string_value: String?
        var bytes_value: [UInt8]?
        var data_value: Data?
        var bool_value: Bool?
        var date_value: Date?
        var kind: Kind?
    }

    private let date = Date(timeIntervalSince1970: 1_700_000_000.123)

    @Test func everyTypeRoundTripsThroughBindingAndRowGetters() throws {
        try TemporaryDatabase.withPool { pool in
            let row = try pool.write { db throws in
                try db.execute(Self.createTable)
                try db.execute(Self.insert, [
                    Int.max, Int64.min, Int32.min, 3.25, "héllo ✓ \u{0}end",
                    [UInt8]([0, 1, 255]), Data([9, 8]), true, date, "habit",
                ])
                return try db.queryOne("SELECT * FROM samples")
            }
            let sample = try #require(row)
            #expect(try sample["int_value"] as Int == Int.max)
            #expect(try sample["int64_value"] as Int64 == Int64.min)
            #expect(try sample["int32_value"] as Int32 == Int32.min)
            #expect(try sample["double_value"] as Double == 3.25)
            #expect(try sample["string_value"] as String == "héllo ✓ \u{0}end")
            #expect(try sample["bytes_value"] as [UInt8] == [0, 1, 255])
            #expect(try sample["data_value"] as Data == Data([9, 8]))
            #expect(try sample["bool_value"] as Bool == true)
            #expect(try sample["date_value"] as Date == date)
            #expect(try sample["DATE_VALUE"] as Date == date, "column names match case-insensitively")
            #expect(try sample[1] as Int == Int.max)
        }
    }

    @Test func rowGettersReportAMissingColumnAnOutOfRangeIndexAndAMismatchWithTheColumnsName() throws {
        try TemporaryDatabase.withPool { pool in
            let row = try #require(try pool.read { db throws in try db.queryOne("SELECT 'text' AS name, 7 AS count") })
            #expect(try row["count"] as Int == 7)
            #expect(try row[1] as Int == 7)
            #expect(try row[0] as String? == "text")
            let missing = #expect(throws: StoreError.self) { try row["other"] as Int }
            #expect(missing?.code == .range)
            #expect(missing?.message.contains("'other'") == true)
            let outOfRange = #expect(throws: StoreError.self) { try row[2] as Int }
            #expect(outOfRange?.code == .range)
            let byName = #expect(throws: StoreError.self) { try row["name"] as Int }
            #expect(byName?.code == .mismatch)
            #expect(byName?.message.contains("'name'") == true)
            let byPosition = #expect(throws: StoreError.self) { try row[0] as Int }
            #expect(byPosition?.code == .mismatch)
            #expect(byPosition?.message.contains("'name'") == true)
        }
    }

    @Test func nilBindsNullAndOptionalsReadNullBack() throws {
        try TemporaryDatabase.withPool { pool in
            let missing: String? = nil
            let row = try pool.write { db throws in
                try db.execute(Self.createTable)
                try db.execute(Self.insert, [nil, nil, nil, nil, missing, nil, nil, nil, nil, nil])
                return try db.queryOne("SELECT * FROM samples")
            }
            let sample = try #require(row)
            #expect(try sample["string_value"] as String? == nil)
            #expect(try sample["date_value"] as Date? == nil)
            #expect(sample.databaseValue("int_value") == .null)
            let error = #expect(throws: StoreError.self) { try sample["int_value"] as Int }
            #expect(error?.code == .mismatch)
        }
    }

    @Test func rowsDecodeIntoDecodableTypes() throws {
        try TemporaryDatabase.withPool { pool in
            let samples = try pool.write { db throws in
                try db.execute(Self.createTable)
                try db.execute(Self.insert, [7, 8, 9, 1.5, "text", [UInt8]([1]), Data([2]), false, date, "chore"])
                try db.execute(Self.insert, [nil, nil, nil, nil, nil, nil, nil, nil, nil, nil])
                return try db.decode(Sample.self, "SELECT * FROM samples ORDER BY id")
            }
            #expect(samples == [
                Sample(id: 1, int_value: 7, int64_value: 8, int32_value: 9, double_value: 1.5, string_value: "text",
                       bytes_value: [1], data_value: Data([2]), bool_value: false, date_value: date, kind: .chore),
                Sample(id: 2, int_value: nil, int64_value: nil, int32_value: nil, double_value: nil, string_value: nil,
                       bytes_value: nil, data_value: nil, bool_value: nil, date_value: nil, kind: nil),
            ])
        }
    }

    @Test func decodingReportsMissingColumnsAndWrongTypesByName() throws {
        struct Named: Decodable { var name: String }
        struct Counted: Decodable { var count: Int }
        try TemporaryDatabase.withPool { pool in
            try pool.read { db throws in
                let missing = #expect(throws: StoreError.self) { try db.decodeOne(Named.self, "SELECT 1 AS other") }
                #expect(missing?.code == .range)
                #expect(missing?.message.contains("'name'") == true)
                let wrong = #expect(throws: StoreError.self) { try db.decodeOne(Counted.self, "SELECT 'many' AS count") }
                #expect(wrong?.code == .mismatch)
                #expect(wrong?.message.contains("'count'") == true)
            }
        }
    }

    @Test func optionalPropertiesAreNilForMissingColumnsButStillRefuseWrongTypes() throws {
        struct Maybe: Decodable, Equatable { var name: String?; var count: Int?; var kind: Kind? }
        try TemporaryDatabase.withPool { pool in
            try pool.read { db throws in
                #expect(try db.decodeOne(Maybe.self, "SELECT 1 AS other") == Maybe(name: nil, count: nil, kind: nil))
                #expect(try db.decodeOne(Maybe.self, "SELECT 'x' AS name, 3 AS count, 'chore' AS kind") == Maybe(name: "x", count: 3, kind: .chore))
                let wrong = #expect(throws: StoreError.self) { try db.decodeOne(Maybe.self, "SELECT 'many' AS count") }
                #expect(wrong?.code == .mismatch)
                #expect(throws: (any Error).self) { try db.decodeOne(Maybe.self, "SELECT 'unknown' AS kind") }
            }
        }
    }

    @Test func emptyStringsAndBlobsAreNotNull() throws {
        try TemporaryDatabase.withPool { pool in
            let row = try pool.read { db throws in
                try db.queryOne("SELECT ? AS text, ? AS blob, typeof(?) AS blob_type", ["", [UInt8](), [UInt8]()])
            }
            let values = try #require(row)
            #expect(try values["text"] as String == "")
            #expect(try values["blob"] as [UInt8] == [])
            #expect(try values["blob_type"] as String == "blob")
        }
    }

    @Test func datesAreStoredAsISO8601UTCTextWithMilliseconds() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.read { db throws in
                #expect(try db.scalar(String.self, "SELECT ?", [date]) == "2023-11-14T22:13:20.123Z")
                let beforeEpoch = Date(timeIntervalSince1970: -1.5)
                #expect(try db.scalar(String.self, "SELECT ?", [beforeEpoch]) == "1969-12-31T23:59:58.500Z")
                #expect(try db.scalar(Date.self, "SELECT ?", [beforeEpoch]) == beforeEpoch)
                let leapDay = Date(timeIntervalSince1970: 951_782_400) // 2000-02-29
                #expect(try db.scalar(String.self, "SELECT ?", [leapDay]) == "2000-02-29T00:00:00.000Z")
            }
        }
    }

    @Test func datesAlsoReadSQLiteTimestampsOffsetsAndUnixSeconds() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.read { db throws in
                let expected = Date(timeIntervalSince1970: 1_700_000_000)
                #expect(try db.scalar(Date.self, "SELECT '2023-11-14 22:13:20'") == expected)
                #expect(try db.scalar(Date.self, "SELECT '2023-11-15T00:13:20+02:00'") == expected)
                #expect(try db.scalar(Date.self, "SELECT 1700000000") == expected)
                let error = #expect(throws: StoreError.self) { try db.scalar(Date.self, "SELECT '2023-02-30T00:00:00Z'") }
                #expect(error?.code == .mismatch)
            }
        }
    }

    @Test func integersThatDoNotFitAreRejectedRatherThanTruncated() throws {
        try TemporaryDatabase.withPool { pool in
            try pool.read { db throws in
                let error = #expect(throws: StoreError.self) { try db.scalar(Int32.self, "SELECT ?", [Int64(Int32.max) + 1]) }
                #expect(error?.code == .mismatch)
                #expect(try db.scalar(Int.self, "SELECT 2.0") == 2)
                #expect(throws: StoreError.self) { try db.scalar(Int.self, "SELECT 2.5") }
            }
        }
    }
}

@Suite struct DateRoundTripTests {
    /// The form dates are written in is read by fixed positions, anything else by the general
    /// parser: both read the same instant (the same text ending `+00:00` instead of `Z` takes the
    /// general one), and text of the written form out of range is refused by both.
    @Test func theWrittenFormAndTheGeneralParserReadTheSameInstants() throws {
        var random = SystemRandomNumberGenerator()
        try TemporaryDatabase.withPool { pool throws in
            try pool.read { db throws in
                for _ in 0..<500 {
                    let date = Date(timeIntervalSince1970: Double(Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &random)) / 1000)
                    let text = try #require(try db.scalar(String.self, "SELECT ?", [date]))
                    let general = String(text.dropLast()) + "+00:00"
                    #expect(try db.scalar(Date.self, "SELECT ?", [text]) == date, "\(text)")
                    #expect(try db.scalar(Date.self, "SELECT ?", [general]) == date, "\(general)")
                }
                for bad in ["2023-02-30T00:00:00.000Z", "2023-13-01T00:00:00.000Z", "2023-00-01T00:00:00.000Z", "2023-11-14T24:00:00.000Z",
                            "2023-11-14T23:60:00.000Z", "2023-11-14T23:59:60.000Z", "2023-11-1xT00:00:00.000Z", "2023-11-14T00:00:00.00/Z"] {
                    let error = #expect(throws: StoreError.self, "\(bad)") { try db.scalar(Date.self, "SELECT ?", [bad]) }
                    #expect(error?.code == .mismatch)
                }
            }
        }
    }

    @Test(arguments: [0.001, 0.123, 0.999, 59.5, 86_399.999, 1_234_567_890.987, 4_102_444_799.999, -0.001, -86_400.25])
    func millisecondDatesRoundTripExactly(seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        try TemporaryDatabase.withPool { pool throws in
            #expect(try pool.read { db in try db.scalar(Date.self, "SELECT ?", [date]) } == date)
        }
    }
}
