@testable import HearthAPI
import Testing

/// `application/x-www-form-urlencoded` as browsers send forms and query strings.
@Suite struct FormDecodingTests {
    @Test func decodesPlusesEscapesAndEmptyValues() throws {
        let form = try FormDecoding.parameters("new_password=correct+horse%20battery%21&flag&token=abc-_&e=%C3%A9")
        #expect(form == ["new_password": "correct horse battery!", "flag": "", "token": "abc-_", "e": "é"])
    }

    @Test func refusesRepeatedNamesAndBrokenEscapes() {
        #expect(throws: FormDecoding.Problem.repeated("token")) { try FormDecoding.parameters("token=a&token=b") }
        #expect(throws: FormDecoding.Problem.malformed) { try FormDecoding.parameters("a=%zz") }
        #expect(throws: FormDecoding.Problem.malformed) { try FormDecoding.parameters("a=%FF") }
    }
}
