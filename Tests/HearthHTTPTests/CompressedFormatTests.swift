import Testing
@testable import HearthHTTP

/// `ServerContext.isCompressedFormat`: which media types the server leaves uncompressed, whatever
/// their case (media types are case-insensitive, RFC 9110 §8.3.1).
struct CompressedFormatTests {
    @Test(arguments: ["image/png", "IMAGE/JPEG", "Image/WebP; q=1", "audio/ogg", "Video/MP4", "image/"])
    func compressedMediaIsLeftAsItIs(_ type: String) {
        #expect(ServerContext.isCompressedFormat(type))
    }

    @Test(arguments: [
        "image/svg+xml", "IMAGE/SVG+XML", "application/json", "application/graphql-response+json", "text/html; charset=utf-8",
        "image", "imag", "", "audiobook/x", "videos", "text/image/png",
    ])
    func everythingElseIsCompressed(_ type: String) {
        #expect(!ServerContext.isCompressedFormat(type))
    }

    @Test func noContentTypeIsCompressed() {
        #expect(!ServerContext.isCompressedFormat(nil))
    }
}
