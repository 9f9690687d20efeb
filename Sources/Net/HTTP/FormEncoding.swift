/// `application/x-www-form-urlencoded` writing (the WHATWG URL standard's serializer): for OAuth
/// token requests' bodies and for query strings. Unreserved characters (`A–Z a–z 0–9 - . _ *`)
/// stay, a space becomes `+`, every other byte of the UTF-8 text is `%XX`.
public enum FormEncoding {
    /// `pairs` as `name=value&…`, in order.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { component($0.0) + "=" + component($0.1) }.joined(separator: "&")
    }

    /// One name or value, encoded.
    public static func component(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                bytes.append(byte)
            case UInt8(ascii: " "): bytes.append(UInt8(ascii: "+"))
            default: bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
