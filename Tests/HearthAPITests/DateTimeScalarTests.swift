import GraphQL
import HearthAPI
import Support
import Testing

struct DateTimeScalarTests {
    @Test func inputWithAnyOffsetIsNormalisedToUTC() throws {
        #expect(try DateTimeScalar().parseValue("2026-03-01T09:30:00.5+01:00") == "2026-03-01T08:30:00.500Z")
        #expect(try DateTimeScalar().parseValue("2024-02-29t23:59:59z") == "2024-02-29T23:59:59.000Z")
        #expect(try DateTimeScalar().parseValue("2024-02-29T23:59:59.000z") == "2024-02-29T23:59:59.000Z")
        #expect(try DateTimeScalar().parseValue("2024-02-29T23:59:59.0000Z") == "2024-02-29T23:59:59.000Z")
        #expect(try DateTimeScalar().parseValue("2024-02-29T23:59:59+00:00") == "2024-02-29T23:59:59.000Z")
    }

    /// A value already in that form (24 bytes) comes back as it is, and every other check still
    /// holds for it.
    @Test func normalisedInputIsKeptAndStillChecked() throws {
        #expect(try DateTimeScalar().parseValue("2026-03-01T08:30:00.125Z") == "2026-03-01T08:30:00.125Z")
        #expect(try DateTimeScalar().parseValue("0001-01-01T00:00:00.000Z") == "0001-01-01T00:00:00.000Z")
        for invalid in ["2026-02-29T08:30:00.125Z", "2026-03-01T24:30:00.125Z", "2026-03-01T08:30:60.125Z", "2026-03-01T08:30:00.12xZ"] {
            #expect(throws: GraphQLError.self) { try DateTimeScalar().parseValue(.string(invalid)) }
        }
    }

    @Test func instantsSerializeAsUTCWithMilliseconds() throws {
        #expect(try DateTimeScalar().serialize(WallClock.Instant(seconds: 0, nanoseconds: 7_000_000)) == "1970-01-01T00:00:00.007Z")
    }

    @Test(arguments: ["2026-02-30T00:00:00Z", "2026-03-01 08:30:00Z", "2026-03-01T08:30:00", "2026-03-01T24:00:00Z",
                      "2026-03-01T08:30:00.Z", "2026-03-01T08:30:00+0100", "yesterday"])
    func malformedInputIsBadUserInput(text: String) {
        do {
            _ = try DateTimeScalar().parseValue(.string(text))
            Issue.record("accepted \(text)")
        } catch let error as GraphQLError {
            #expect(error.extensions["code"] == "BAD_USER_INPUT")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anInvalidSchemaFailsWithItsLocation() {
        #expect(throws: SchemaError.self) { try HearthSchema.build(sdl: "type Query { a: Nope }") }
    }
}
