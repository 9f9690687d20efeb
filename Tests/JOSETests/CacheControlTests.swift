import JOSE
import Testing

@Suite struct CacheControlTests {
    @Test(arguments: [
        ("public, max-age=19977, must-revalidate, no-transform", 19977),
        ("max-age=0", 0),
        ("MAX-AGE = 60", 60),
        (#"max-age="120""#, 120),
        ("private, no-cache", 0),
        ("no-store, max-age=600", 0),
        ("max-age=99999999999999999999999", Int.max),
    ] as [(String, Int)])
    func readsTheLifetime(header: String, seconds: Int) {
        #expect(CacheControl.maxAge(header) == seconds)
    }

    @Test(arguments: ["", "public", "max-age", "max-age=", "max-age=-5", "max-age=1.5", "max-age=abc", "s-maxage=600"])
    func findsNoLifetimeInHeadersWithoutAUsableMaxAge(header: String) {
        #expect(CacheControl.maxAge(header) == nil)
    }

    @Test func fetchResultsTakeTheirLifetimeFromTheHeader() {
        #expect(JWKSFetchResult(body: [], cacheControl: "max-age=300").maxAge == .seconds(300))
        #expect(JWKSFetchResult(body: [], cacheControl: nil).maxAge == nil)
    }
}
