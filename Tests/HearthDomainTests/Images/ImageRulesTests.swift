import HearthDomain
import Testing

struct ImageSnifferTests {
    @Test(arguments: [
        (SampleImages.png1x1, ImageInfo(format: .png, width: 1, height: 1)),
        (SampleImages.jpeg3x2, ImageInfo(format: .jpeg, width: 3, height: 2)),
        (SampleImages.progressiveJPEG3x2, ImageInfo(format: .jpeg, width: 3, height: 2)),
        (SampleImages.lossyWebP1x1, ImageInfo(format: .webp, width: 1, height: 1)),
        (SampleImages.losslessWebP1x1, ImageInfo(format: .webp, width: 1, height: 1)),
        (SampleImages.extendedWebP1x1, ImageInfo(format: .webp, width: 1, height: 1)),
        (SampleImages.png(width: 640, height: 480), ImageInfo(format: .png, width: 640, height: 480)),
        (SampleImages.jpeg(width: 1024, height: 768), ImageInfo(format: .jpeg, width: 1024, height: 768)),
        (SampleImages.jpeg(width: 20, height: 10, startOfFrame: 0xC2), ImageInfo(format: .jpeg, width: 20, height: 10)),
        (SampleImages.extendedWebP(width: 300, height: 200), ImageInfo(format: .webp, width: 300, height: 200)),
    ])
    func readsTheFormatAndDimensionsOfRealImages(bytes: [UInt8], expected: ImageInfo) {
        #expect(ImageSniffer.sniff(bytes) == .image(expected))
    }

    @Test(arguments: [SampleImages.gif, SampleImages.svg, SampleImages.html, [], Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)])
    func doesNotRecognizeOtherFiles(bytes: [UInt8]) {
        #expect(ImageSniffer.sniff(bytes) == .unrecognized)
    }

    @Test func refusesEveryTruncationOfEachHeader() {
        let samples: [([UInt8], ImageFormat, Int)] = [
            (SampleImages.png1x1, .png, 33), (SampleImages.jpeg3x2, .jpeg, 177),
            (SampleImages.lossyWebP1x1, .webp, SampleImages.lossyWebP1x1.count),
            (SampleImages.losslessWebP1x1, .webp, SampleImages.losslessWebP1x1.count),
            (SampleImages.extendedWebP1x1, .webp, SampleImages.extendedWebP1x1.count),
        ]
        for (bytes, format, headerLength) in samples {
            // The magic bytes alone are recognised; anything shorter than the complete header is not an image.
            for length in 4..<headerLength {
                let outcome = ImageSniffer.sniff(Array(bytes.prefix(length)))
                #expect(outcome == .malformed(format) || outcome == .unrecognized, "\(format) cut at \(length)")
            }
        }
    }

    @Test func refusesAPNGWhoseHeaderChecksumIsWrong() {
        #expect(ImageSniffer.sniff(SampleImages.patched(SampleImages.png1x1, at: 19, to: 2)) == .malformed(.png))
    }

    @Test func refusesAJPEGThatStartsItsScanBeforeAnyFrameHeader() {
        let scanFirst: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]
        #expect(ImageSniffer.sniff(scanFirst) == .malformed(.jpeg))
    }

    @Test func stopsWalkingJPEGSegmentsAfterTheLimit() {
        let comment: [UInt8] = [0xFF, 0xFE, 0x00, 0x02]
        let many = [0xFF, 0xD8] + Array([[UInt8]](repeating: comment, count: ImageSniffer.maximumJPEGSegments).joined())
            + SampleImages.jpeg(width: 1, height: 1).dropFirst(2)
        #expect(ImageSniffer.sniff(many) == .malformed(.jpeg))
    }

    @Test func refusesAWebPWhoseRIFFSizePassesTheEndOfTheFile() {
        #expect(ImageSniffer.sniff(SampleImages.patched(SampleImages.lossyWebP1x1, at: 4, to: 0x40)) == .malformed(.webp))
    }
}

struct ImageRulesTests {
    let rules = ImageRules()

    private func reason(_ bytes: [UInt8], rules: ImageRules = ImageRules()) -> FieldProblem.Reason? {
        do {
            _ = try rules.check(bytes, field: "input.avatar")
            return nil
        } catch {
            #expect(error.field == "input.avatar")
            return error.reason
        }
    }

    @Test func defaultsToOneMebibyteAndFourThousandNinetySixPixelsEachWay() {
        #expect(rules.maximumBytes == 1_048_576)
        #expect(rules.maximumWidth == 4096 && rules.maximumHeight == 4096)
    }

    @Test func acceptsImagesWithinTheLimits() throws {
        #expect(try rules.check(SampleImages.jpeg3x2, field: "input.avatar") == ImageInfo(format: .jpeg, width: 3, height: 2))
        #expect(try rules.check(SampleImages.png(width: 4096, height: 4096), field: "f").width == 4096)
    }

    @Test(arguments: [SampleImages.html, SampleImages.svg, SampleImages.gif])
    func refusesFilesThatAreNotSupportedImagesWhateverTheirName(bytes: [UInt8]) {
        #expect(reason(bytes) == .unsupportedFormat)
    }

    @Test func refusesAnEmptyFile() {
        #expect(reason([]) == .required)
    }

    @Test func refusesTruncatedHeaders() {
        #expect(reason(Array(SampleImages.png1x1.prefix(20))) == .invalidFormat)
        #expect(reason(Array(SampleImages.jpeg3x2.prefix(100))) == .invalidFormat)
        #expect(reason(Array(SampleImages.losslessWebP1x1.prefix(22))) == .invalidFormat)
    }

    @Test func refusesZeroDimensions() {
        #expect(reason(SampleImages.png(width: 0, height: 10)) == .invalidFormat)
        #expect(reason(SampleImages.jpeg(width: 10, height: 0)) == .invalidFormat)
    }

    @Test func refusesHugeDeclaredDimensions() {
        #expect(reason(SampleImages.png(width: 4097, height: 1)) == .tooLarge)
        #expect(reason(SampleImages.png(width: 1, height: 0x7FFF_FFFF)) == .tooLarge)
        #expect(reason(SampleImages.png(width: 0x8000_0000, height: 1)) == .invalidFormat)
        #expect(reason(SampleImages.jpeg(width: 65535, height: 65535)) == .tooLarge)
        #expect(reason(SampleImages.extendedWebP(width: 1 << 24, height: 1 << 24)) == .tooLarge)
    }

    @Test func appliesConfiguredLimitsInclusively() {
        let small = ImageRules(maximumBytes: SampleImages.png1x1.count, maximumWidth: 640, maximumHeight: 480)
        #expect(reason(SampleImages.png1x1, rules: small) == nil)
        #expect(reason(SampleImages.png1x1 + [0], rules: small) == .tooLarge)
        let exact = ImageRules(maximumWidth: 640, maximumHeight: 480)
        #expect(reason(SampleImages.png(width: 640, height: 480), rules: exact) == nil)
        #expect(reason(SampleImages.png(width: 640, height: 481), rules: exact) == .tooLarge)
    }

    @Test func refusesTooManyBytesBeforeLookingAtTheContent() {
        #expect(reason(SampleImages.html + [UInt8](repeating: 0x20, count: 1 << 20)) == .tooLarge)
    }
}

struct ImageFormatTests {
    @Test func mapsMediaTypesWithoutCaseOrParameters() {
        #expect(ImageFormat(mediaType: "IMAGE/PNG") == .png)
        #expect(ImageFormat(mediaType: "image/jpeg; q=1") == .jpeg)
        #expect(ImageFormat(mediaType: "image/webp") == .webp)
        #expect(ImageFormat(mediaType: "image/gif") == nil)
        #expect(ImageFormat.jpeg.mediaType == "image/jpeg")
    }
}
