import Foundation
import HearthDomain
import Testing
import TestPython

/// CSV as RFC 4180 writes it, read back by Python's `csv` module, and our parser on what
/// Python and Loop write.
@Suite struct CSVRecordTests {
    static let rows: [[String]] = [
        ["id", "comment", "note"],
        ["hev_1", "Run, then stretch", "plain"],
        ["hev_2", "She said \"go\"", " leading space"],
        ["hev_3", "two\nlines", "crlf\r\nhere"],
        ["hev_4", "", "émoji 🏃🏽‍♀️"],
    ]

    @Test func pythonsCSVModuleReadsBackEveryField() throws {
        let bytes = Self.rows.flatMap(CSVRecord.encode)
        let script = """
            import csv, io, json, sys
            data = sys.stdin.buffer.read().decode("utf-8")
            print(json.dumps(list(csv.reader(io.StringIO(data, newline="")))))
            """
        let outcome = try TestPython.run(["-c", script], input: Data(bytes))
        #expect(outcome.status == 0, "\(outcome.errors)")
        let read = try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [[String]]
        #expect(read == Self.rows)
    }

    @Test func fieldsAreQuotedOnlyWhenTheyMustBe() {
        #expect(String(decoding: CSVRecord.encode(["a", "b c", "d,e", "f\"g"]), as: UTF8.self) == "a,b c,\"d,e\",\"f\"\"g\"\r\n")
    }

    @Test func theParserReadsWhatPythonsCSVModuleWrites() throws {
        let script = """
            import csv, json, sys
            rows = json.loads(sys.stdin.read())
            writer = csv.writer(sys.stdout, lineterminator="\\n")
            for row in rows: writer.writerow(row)
            """
        let outcome = try TestPython.run(["-c", script], input: try JSONSerialization.data(withJSONObject: Self.rows))
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(try CSVParser.records(Array(outcome.standardOutput)) == Self.rows)
        #expect(try CSVParser.records(Self.rows.flatMap(CSVRecord.encode)) == Self.rows)
    }

    @Test func theParserSkipsAByteOrderMarkAndBlankLinesAndKeepsTrailingEmptyFields() throws {
        #expect(try CSVParser.records(Array("\u{FEFF}Date,A,\n\n2024-01-01,2,\n".utf8)) == [["Date", "A", ""], ["2024-01-01", "2", ""]])
    }

    @Test func anUnclosedQuoteIsRefusedWithItsLine() {
        let failure = #expect(throws: CSVParser.Failure.self) { try CSVParser.records(Array("a,b\n\"open,c\n".utf8)) }
        #expect(failure?.line == 2)
        #expect(failure?.message == "a quoted field never closes")
    }
}
