// Web Push's per-core cost (issue 18's benchmark of push encryption throughput): what one
// delivery attempt computes before it writes to the network, on one thread. Each push is encrypted
// for a subscription (RFC 8291: a fresh P-256 key pair, ECDH, HKDF, AES-128-GCM) and gets its VAPID
// header (RFC 8292: an ES256 signature), exactly as `PushDeliveryJob` does.
//
// Usage: PushBench COUNT [PAYLOAD_BYTES,…]
// Prints one JSON line per payload size: pushes, CPU seconds, pushes per CPU second, and the
// share of the time the VAPID signature takes.
import Foundation
import HearthServices
import JOSE
import Net
import Support

/// The CPU time this thread has used, in seconds.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The CPU seconds `body` takes `count` times.
func measure(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = threadCPUSeconds()
    for _ in 0..<count { try body() }
    return threadCPUSeconds() - start
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let count = Int(arguments[1]), count > 0 else {
    FileHandle.standardError.write(Data("usage: PushBench COUNT [PAYLOAD_BYTES,…]\n".utf8))
    exit(2)
}
let sizes = arguments.count > 2 ? arguments[2].split(separator: ",").compactMap { Int($0) } : [200, WebPushEncryption.maximumPlaintextBytes]
let receiver = P256KeyAgreement.generate()
let authSecret = SecureRandom.bytes(WebPushEncryption.authSecretLength)
let vapid = VAPIDAuthorization(key: SigningKey.generate(.ES256), subject: "mailto:bench@example.org")
let endpoint = try HTTPURL("https://push.example.org/wpush/v2/bench")
let now = Date()
// One untimed round warms OpenSSL's tables.
_ = try WebPushEncryption.encrypt([1], receiverKey: receiver.publicKey, authSecret: authSecret)
_ = vapid.header(for: endpoint, at: now)

let signing = measure(count) { _ = vapid.header(for: endpoint, at: now) }
for size in sizes {
    let payload = [UInt8](repeating: 0x61, count: size)
    let encrypting = try measure(count) { _ = try WebPushEncryption.encrypt(payload, receiverKey: receiver.publicKey, authSecret: authSecret) }
    let total = encrypting + signing
    let line: [String: Any] = [
        "payload_bytes": size, "pushes": count, "cpu_seconds": (total * 1000).rounded() / 1000,
        "pushes_per_cpu_second": Int((Double(count) / total).rounded()),
        "encryption_per_cpu_second": Int((Double(count) / encrypting).rounded()),
        "vapid_share": ((signing / total) * 100).rounded() / 100,
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self))
}
