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

    @Test func readsBridgedAndSubstringBackedValues() {
        let sliced = String("xx application/json; charset=utf-8".dropFirst(2))
        #expect(MediaType.essence(of: sliced, is: "application/json"))
    }
}
