import Foundation
import GraphQL
import Testing

/// `GET /.well-known/hearth` (FR-68) through the real binary: what a client learns from a
/// server's address, for each configuration, and that a web page of another origin may read it.
@Suite struct DiscoveryTests {
    @Test func FR68_aServerWithDefaultsDescribesItselfUnderTheAddressTheClientUsed() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let document = try server.discoveryDocument(host: "Hearth.Local:8080")
        #expect(document["apiVersion"] == 1)
        #expect(document["serverVersion"]?.stringValue?.isEmpty == false)
        // No --public-base-url: the base is the origin the request addressed.
        #expect(document["baseUrl"] == "http://hearth.local:8080", "\(document)")
        #expect(document["graphql"]?["httpUrl"] == "http://hearth.local:8080/graphql")
        #expect(document["graphql"]?["webSocketUrl"] == "ws://hearth.local:8080/graphql")
        #expect(document["graphql"]?["webSocketProtocol"] == "graphql-transport-ws")
        let features = try #require(document["features"])
        #expect(features["signInMethods"] == ["PASSWORD"])
        #expect(features["registration"] == "OPEN")
        let push = try server.pushConfiguration()
        #expect(features["push"]?["webPush"]?["vapidPublicKey"] == push["vapidPublicKey"], "\(features) \(push)")
        #expect(features["push"]?["webPush"]?["vapidPublicKey"]?.stringValue?.count == 87)
        #expect(features["push"]?["fcm"] == .null)
        #expect(document["terms"]?["version"] == "2026-11-01")
        #expect(document["terms"]?["url"] == .null)
        // A derived document differs per address: caches must key on it.
        #expect(try server.discovery().headers["Vary"]?.contains("X-Forwarded-Host") == true)
        // A Host no host has (markup, another URL) is not written into the document.
        let forged = try server.discoveryDocument(host: "evil.example\"><script>")
        #expect(forged["baseUrl"] == "http://localhost:8080", "\(forged)")
    }

    @Test func FR68_aConfiguredServerNamesItsBaseURLProvidersPushRegistrationAndTerms() throws {
        let fcm = try LoopbackFCMService()
        defer { fcm.stop() }
        let server = try ServerProcess([
            "--public-base-url", "https://hearth.example.org/", "--google-client-ids", "web.apps.example",
            "--apple-client-ids", "org.example.hearth", "--registration", "invite-only",
            "--terms-version", "2027-01-15", "--terms-url", "https://hearth.example.org/terms",
        ] + fcm.arguments)
        defer { server.remove() }
        let document = try server.discoveryDocument(host: "192.0.2.7:8080")
        #expect(document["baseUrl"] == "https://hearth.example.org", "\(document)")
        #expect(document["graphql"]?["httpUrl"] == "https://hearth.example.org/graphql")
        #expect(document["graphql"]?["webSocketUrl"] == "wss://hearth.example.org/graphql")
        let features = try #require(document["features"])
        #expect(features["signInMethods"] == ["PASSWORD", "GOOGLE", "APPLE"])
        #expect(features["registration"] == "INVITE_ONLY")
        #expect(features["push"]?["fcm"]?["projectId"] == .string(LoopbackFCMService.projectID))
        #expect(features["push"]?["fcm"]?["projectId"] == (try server.pushConfiguration())["fcmProjectId"])
        #expect(document["terms"]?["version"] == "2027-01-15")
        #expect(document["terms"]?["url"] == "https://hearth.example.org/terms")
        // One document for every address: nothing to vary on.
        #expect(try server.discovery().headers["Vary"] == nil)
    }

    @Test func FR68_eachRegistrationModeAndProviderIsReportedAsConfigured() throws {
        for (mode, expected) in [("open", "OPEN"), ("invite-only", "INVITE_ONLY"), ("closed", "CLOSED")] {
            let server = try ServerProcess(["--registration", mode, "--apple-client-ids", "org.example.hearth"])
            defer { server.remove() }
            let features = try #require(try server.discoveryDocument()["features"])
            #expect(features["registration"] == .string(expected), "\(mode): \(features)")
            #expect(features["signInMethods"] == ["PASSWORD", "APPLE"])
        }
    }

    @Test func FR68_behindATrustedProxyTheForwardedSchemeAndHostAreUsedAndOthersIgnored() throws {
        let forwarded = "X-Forwarded-For: 203.0.113.9\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Host: hearth.example.net\r\n"
        let proxied = try ServerProcess(["--trusted-proxies", "127.0.0.1"])
        defer { proxied.remove() }
        let document = try proxied.discoveryDocument(host: "127.0.0.1:8080", headers: forwarded)
        #expect(document["baseUrl"] == "https://hearth.example.net", "\(document)")
        #expect(document["graphql"]?["webSocketUrl"] == "wss://hearth.example.net/graphql")
        // Forwarded (RFC 7239): the proto and host of the element our proxy appended.
        let rfc = try ServerProcess(["--trusted-proxies", "127.0.0.1", "--forwarded-header", "forwarded"])
        defer { rfc.remove() }
        let viaForwarded = try rfc.discoveryDocument(
            host: "127.0.0.1:8080", headers: "Forwarded: for=198.51.100.1;proto=http;host=spoofed.example, for=203.0.113.9;proto=https;host=\"hearth.example.net:8443\"\r\n")
        #expect(viaForwarded["baseUrl"] == "https://hearth.example.net:8443", "\(viaForwarded)")
        // A client talking to the server directly cannot claim another origin.
        let direct = try ServerProcess()
        defer { direct.remove() }
        let unproxied = try direct.discoveryDocument(host: "hearth.local", headers: forwarded)
        #expect(unproxied["baseUrl"] == "http://hearth.local", "\(unproxied)")
    }

    @Test func FR68_aCORSPreflightIsAnsweredForAnyOrigin() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let preflight = try server.discovery(
            method: "OPTIONS",
            headers: "Origin: https://app.example\r\nAccess-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: x-client-version\r\n")
        #expect(preflight.status == 204, "\(preflight.text)")
        #expect(preflight.headers["Access-Control-Allow-Origin"] == "*")
        #expect(preflight.headers["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS")
        #expect(preflight.headers["Access-Control-Allow-Headers"] == "x-client-version")
        #expect(preflight.headers["Access-Control-Max-Age"] == "86400")
        #expect(preflight.body.isEmpty)
        // The document itself carries the header for the page's actual request.
        let actual = try server.discovery(headers: "Origin: https://app.example\r\n")
        #expect(actual.status == 200 && actual.headers["Access-Control-Allow-Origin"] == "*")
        #expect(try server.discovery(method: "POST").status == 405)
    }
}
