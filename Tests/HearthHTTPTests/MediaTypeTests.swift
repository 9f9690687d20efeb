import Testing

@testable import HearthHTTP

struct MediaTypeTests {
    @Test(arguments: [
        "multipart/form-data",
        "Multipart/Form-Data; boundary=x",
        "  multipart/form-data  ;boundary=x",
        "\tMULTIPART/FORM-DATA\t",
        "multipart/form-data;",
    ])
    func matchesTheEssenceInAnyCaseWithParameters(value: String) {
        #expect(MediaType.essence(of: value, is: "multipart/form-data"))
    }

    @Test(arguments: [
        "",
        "multipart/form",
        "multipart/form-data2",
        "multipart/form-datax; boundary=x",
        "multipart/ form-data",
        "text/plain",
        "multipart/form-data x",
        "multipart/f\u{F6}rm-data",
    ])
    func refusesOtherTypes(value: String) {
        #expect(!MediaType.essence(of: value, is: "multipart/form-data"))
    }

    @Test func readsValuesCopiedFromSubstrings() {
        let sliced = String("xx application/json; charset=utf-8".dropFirst(2))
        #expect(MediaType.essence(of: sliced, is: "application/json"))
    }

    @Test(arguments: [
        ("application/json; charset=utf-8", "utf-8"),
        ("application/json;CHARSET=UTF-8", "UTF-8"),
        ("application/json; foo=bar; charset=\"utf-8\"", "utf-8"),
        ("application/json; foo=\"a;charset=latin1\"; charset=utf8", "utf8"),
        ("application/json; charset=\"a\\\"b\"", "a\"b"),
        ("application/json; charset=utf-8  ", "utf-8"),
        ("application/json; charset=", ""),
    ])
    func findsAParameterOutsideQuotedValues(value: String, charset: String) {
        #expect(MediaType.parameter("charset", in: value) == charset)
    }

    @Test(arguments: ["application/json", "application/json;", "application/json; foo=\"charset=latin1\"", "application/json; charsets=x"])
    func aMissingParameterIsNil(value: String) {
        #expect(MediaType.parameter("charset", in: value) == nil)
    }
}
