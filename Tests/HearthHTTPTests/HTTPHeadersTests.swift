@testable import HearthHTTP
import Testing

@Suite struct HTTPHeadersTests {
    @Test(arguments: [
        ("Bearer abc.def", "abc.def"),
        ("bearer abc", "abc"),
        ("BEARER abc", "abc"),
        ("  Bearer \t abc \t", "abc"),
    ])
    func readsTheTokenOfABearerCredential(_ value: String, _ token: String) {
        #expect(HTTPHeaders.bearerToken(in: value) == token)
    }

    @Test(arguments: ["", "Bearer", "Bearer ", "Bearer  \t ", "Basic YWxhZGRpbjpvcGVuc2VzYW1l", "Bearerabc", "Bearer\tabc", "Béarer abc"])
    func refusesAnythingButANonEmptyBearerCredential(_ value: String) {
        #expect(HTTPHeaders.bearerToken(in: value) == nil)
    }

    @Test func comparesHeaderNamesIgnoringASCIICaseOnly() {
        #expect(HTTPHeaders.namesEqual("Authorization", "authorization"))
        #expect(!HTTPHeaders.namesEqual("Accept", "Accept-Encoding"))
        #expect(!HTTPHeaders.namesEqual("Accept-Encoding", "Accept"))
        #expect(!HTTPHeaders.namesEqual("X-a", "X-b"))
        #expect(HTTPHeaders.namesEqual("", ""))
    }
}
