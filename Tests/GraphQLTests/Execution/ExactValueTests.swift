import Testing
@testable import GraphQL

struct ExactValueTests {
    /// Reads through a generic parameter, as the executor does, so the container stays closed.
    func read<Container, T>(_ value: Container?, as type: T.Type) -> T? {
        guard let value else { return nil }
        return exactValue(value, as: type)
    }

    @Test func readsTheValueAContainerHoldsExactly() throws {
        let longString = String(repeating: "long ", count: 10)
        let dictionary: [String: any Sendable] = ["text": longString, "small": "ok", "number": 42, "flag": true, "real": 1.5]
        #expect(read(dictionary["text"], as: String.self) == longString)
        #expect(read(dictionary["small"], as: String.self) == "ok")
        #expect(read(dictionary["number"], as: Int.self) == 42)
        #expect(read(dictionary["flag"], as: Bool.self) == true)
        #expect(read(dictionary["real"], as: Double.self) == 1.5)
        let type = SchemaType.nonNull(.named(.scalar(ScalarType.string)))
        let schema = try buildSchema(sdl: "type Query { a: Int }")
        let values: [Any] = [type, schema]
        #expect(exactValue(values[0] as Any, as: SchemaType.self) == type)
        #expect(exactValue(values[1] as Any, as: Schema.self) === schema)
    }

    @Test func leavesOtherTypesOptionalsAndOpenedContainersToTheCast() {
        let dictionary: [String: any Sendable] = ["number": 42, "optional": Optional("wrapped") as any Sendable]
        #expect(read(dictionary["number"], as: String.self) == nil)
        #expect(read(dictionary["number"], as: Int32.self) == nil)
        #expect(read(dictionary["optional"], as: String.self) == nil)
        // Not a container: the value itself, which this does not read.
        #expect(exactValue("text", as: String.self) == nil)
    }
}
