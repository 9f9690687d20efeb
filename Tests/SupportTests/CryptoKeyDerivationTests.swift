import Support
import Testing

/// HKDF-SHA-256 (RFC 5869) and AES-128-GCM (the GCM specification's test case 3) against their
/// published vectors: the primitives of Web Push's message encryption.
@Suite struct CryptoKeyDerivationTests {
    @Test func hkdfMatchesRFC5869TestCase1() {
        let salt = Array(UInt8(0x00)...UInt8(0x0c))
        let info = Array(UInt8(0xf0)...UInt8(0xf9))
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        #expect(HKDFSHA256.extract(salt: salt, inputKeyMaterial: ikm) == hexBytes("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5"))
        #expect(HKDFSHA256.derive(salt: salt, inputKeyMaterial: ikm, info: info, length: 42)
            == hexBytes("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
        #expect(HKDFSHA256.derive(salt: salt, inputKeyMaterial: ikm, info: info, length: 16).count == 16, "shorter output is a prefix")
    }

    @Test func aes128GCMMatchesTheGCMSpecificationTestCase3() {
        let sealed = AES128GCM.seal(
            hexBytes("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"),
            key: hexBytes("feffe9928665731c6d6a8f9467308308"), nonce: hexBytes("cafebabefacedbaddecaf888"))
        #expect(sealed == hexBytes(
            "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985"
                + "4d5c2af327cd64a62cf35abd2ba6fab4"))
        #expect(AES128GCM.seal([], key: [UInt8](repeating: 0, count: 16), nonce: [UInt8](repeating: 0, count: 12))
            == hexBytes("58e2fccefa7e3061367f1d57a4e7455a"), "GCM test case 1: the tag of nothing")
    }

    @Test func aes256GCMMatchesTheGCMSpecificationTestCases13And15AndOpensWhatItSealed() {
        let key = hexBytes("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let nonce = hexBytes("cafebabefacedbaddecaf888")
        let plaintext = hexBytes(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255")
        let sealed = AES256GCM.seal(plaintext, key: key, nonce: nonce)
        #expect(sealed == hexBytes(
            "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"
                + "b094dac5d93471bdec1a502270e3cc6c"))
        #expect(AES256GCM.seal([], key: [UInt8](repeating: 0, count: 32), nonce: [UInt8](repeating: 0, count: 12))
            == hexBytes("530f8afbc74536b9a963b4f1c4cb738b"), "GCM test case 13: the tag of nothing")
        #expect(AES256GCM.open(sealed, key: key, nonce: nonce) == plaintext)
        var tampered = sealed
        tampered[3] ^= 1
        #expect(AES256GCM.open(tampered, key: key, nonce: nonce) == nil, "a changed byte fails the tag")
        #expect(AES256GCM.open(sealed, key: [UInt8](repeating: 7, count: 32), nonce: nonce) == nil, "another key fails the tag")
        #expect(AES256GCM.open(Array(sealed.prefix(10)), key: key, nonce: nonce) == nil, "shorter than a tag")
    }
}
