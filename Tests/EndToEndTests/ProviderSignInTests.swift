import Foundation
import GraphQL
import JOSE
import Support
import Testing

/// Google sign-in through the real binary: `hearth serve` fetches Google's keys over HTTP from
/// a loopback endpoint the test runs, and the test signs ID tokens as Google would.
@Suite(.serialized) struct ProviderSignInTests {
    static let firstKey = SigningKey.generate(.RS256)
    static let rotatedKey = SigningKey.generate(.RS256)
    static let rawNonce = "e2e-raw-nonce-5b1d"

    /// A Google ID token for `subject` and `email`, signed with `key` under `keyID`, valid now.
    static func googleToken(subject: String, email: String, key: SigningKey = firstKey, keyID: String = "k1") throws -> String {
        let now = Date().timeIntervalSince1970.rounded()
        return try JWTSigner(key: key, keyID: keyID).sign(JWTClaims(
            issuer: "https://accounts.google.com", subject: subject, audience: ["test-client"], expiresAt: now + 3600,
            issuedAt: now - 5, nonce: SHA256.hexDigest(rawNonce), email: email, emailVerified: true,
            additional: ["name": "Ana López"]))
    }

    /// Runs `query` with `variables` on `server`, with `token` as the bearer when given.
    static func graphQL(_ server: ServerProcess, _ query: String, _ variables: JSON = [:], token: String? = nil) throws -> JSON {
        let body = JSON.object(["query": .string(query), "variables": variables]).jsonText
        let client = try server.connect()
        defer { client.close() }
        try client.send(
            "POST /graphql HTTP/1.1\r\nHost: e2e\r\nContent-Type: application/json\r\nAccept: application/json\r\n"
                + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return try JSON(parsing: try client.readResponse().body)
    }

    static let signInWithGoogle = """
        mutation($input: SignInWithGoogleInput!) {
          signInWithGoogle(input: $input) {
            outcome existingAccountEmail existingAccountSignInMethods
            user { username displayName email isEmailConfirmed signInMethods }
            tokens { accessToken }
          }
        }
        """

    static func signIn(_ server: ServerProcess, token: String, nonce: String = rawNonce) throws -> JSON {
        try graphQL(server, signInWithGoogle, ["input": ["idToken": .string(token), "nonce": .string(nonce), "deviceLabel": "e2e"]])
    }

    static func startServer(keys: KeySetServer, _ arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess([
            "--google-client-ids", "test-client", "--google-jwks-url", keys.url, "--password-hash-cost", "10",
        ] + arguments)
    }

    @Test func firstSignInCreatesTheAccountAndARotatedKeyIsFetchedOverHTTP() throws {
        let keys = try KeySetServer(serving: JSONWebKeySet(keys: [Self.firstKey.verificationKey(keyID: "k1")]))
        defer { keys.stop() }
        let server = try Self.startServer(keys: keys)
        defer { server.remove() }

        let created = try Self.signIn(server, token: try Self.googleToken(subject: "g-1", email: "ana.lopez@example.com"))
        let payload = created["data"]?["signInWithGoogle"]
        #expect(payload?["outcome"] == "ACCOUNT_CREATED", "\(created)")
        #expect(payload?["user"]?["username"] == "ana.lopez" && payload?["user"]?["displayName"] == "Ana López")
        #expect(payload?["user"]?["isEmailConfirmed"] == true && payload?["user"]?["signInMethods"] == ["GOOGLE"])
        guard case .string(let accessToken)? = payload?["tokens"]?["accessToken"] else {
            Issue.record("no access token in \(created)")
            return
        }
        let me = try Self.graphQL(server, "{ me { email signInMethods } }", token: accessToken)
        #expect(me["data"]?["me"]?["email"] == "ana.lopez@example.com")
        #expect(keys.fetches == 1)

        // Google rotates: the old key is gone, tokens name the new kid. No restart needed.
        keys.publish(JSONWebKeySet(keys: [Self.rotatedKey.verificationKey(keyID: "k2")]))
        let rotated = try Self.signIn(
            server, token: try Self.googleToken(subject: "g-1", email: "ana.lopez@example.com", key: Self.rotatedKey, keyID: "k2"))
        #expect(rotated["data"]?["signInWithGoogle"]?["outcome"] == "SIGNED_IN", "\(rotated)")
        #expect(keys.fetches == 2)

        // The retired key no longer signs anyone in.
        let retired = try Self.signIn(server, token: try Self.googleToken(subject: "g-1", email: "ana.lopez@example.com"))
        #expect(retired["errors"]?[0]?["extensions"]?["reason"] == "PROVIDER_TOKEN_INVALID", "\(retired)")
        #expect(!server.log.contains(Self.rawNonce))
    }

    @Test func forgedTokensAndDisabledProvidersAreRefused() throws {
        let keys = try KeySetServer(serving: JSONWebKeySet(keys: [Self.firstKey.verificationKey(keyID: "k1")]))
        defer { keys.stop() }
        let server = try Self.startServer(keys: keys)
        defer { server.remove() }

        let genuine = try Self.googleToken(subject: "g-1", email: "ana@example.com").split(separator: ".")
        let unsigned = Base64URL.encode(Array(#"{"alg":"none","kid":"k1"}"#.utf8)) + ".\(genuine[1]).\(genuine[2])"
        let wrongNonce = try Self.signIn(server, token: try Self.googleToken(subject: "g-1", email: "ana@example.com"), nonce: "other")
        for refused in [try Self.signIn(server, token: unsigned), wrongNonce] {
            #expect(refused["errors"]?[0]?["extensions"]?["code"] == "UNAUTHENTICATED", "\(refused)")
            #expect(refused["errors"]?[0]?["extensions"]?["reason"] == "PROVIDER_TOKEN_INVALID")
        }
        let apple = try Self.graphQL(
            server, "mutation { signInWithApple(input: {idToken: \"x.y.z\", nonce: \"n\"}) { outcome } }")
        #expect(apple["errors"]?[0]?["extensions"]?["code"] == "FORBIDDEN", "\(apple)")
        #expect(apple["errors"]?[0]?["extensions"]?["reason"] == "PROVIDER_DISABLED")
    }

    @Test func aMatchingPasswordAccountIsLinkedOnlyFromItsOwnSettings() throws {
        let keys = try KeySetServer(serving: JSONWebKeySet(keys: [Self.firstKey.verificationKey(keyID: "k1")]))
        defer { keys.stop() }
        let server = try Self.startServer(keys: keys)
        defer { server.remove() }
        let password = "correct horse battery"
        let registered = try Self.graphQL(
            server, "mutation($input: RegisterInput!) { register(input: $input) { tokens { accessToken } } }",
            ["input": ["username": "bob", "email": "bob@example.com", "password": .string(password)]])
        guard case .string(let bobToken)? = registered["data"]?["register"]?["tokens"]?["accessToken"] else {
            Issue.record("registration failed: \(registered)")
            return
        }

        let collision = try Self.signIn(server, token: try Self.googleToken(subject: "g-bob", email: "Bob@example.com"))
        let payload = collision["data"]?["signInWithGoogle"]
        #expect(payload?["outcome"] == "LINK_REQUIRED", "\(collision)")
        #expect(payload?["user"] == .null && payload?["tokens"] == .null)
        #expect(payload?["existingAccountEmail"] == "bob@example.com" && payload?["existingAccountSignInMethods"] == ["PASSWORD"])

        let link = """
            mutation($input: LinkSignInProviderInput!) { linkSignInProvider(input: $input) { user { signInMethods } } }
            """
        func linkInput(password: String) throws -> JSON {
            ["input": [
                "provider": "GOOGLE", "idToken": .string(try Self.googleToken(subject: "g-bob", email: "bob@example.com")),
                "nonce": .string(Self.rawNonce), "currentPassword": .string(password),
            ]]
        }
        let wrongPassword = try Self.graphQL(server, link, try linkInput(password: "not the password"), token: bobToken)
        #expect(wrongPassword["errors"]?[0]?["extensions"]?["reason"] == "INVALID_CREDENTIALS", "\(wrongPassword)")
        let linked = try Self.graphQL(server, link, try linkInput(password: password), token: bobToken)
        #expect(linked["data"]?["linkSignInProvider"]?["user"]?["signInMethods"] == ["PASSWORD", "GOOGLE"], "\(linked)")
        let signedIn = try Self.signIn(server, token: try Self.googleToken(subject: "g-bob", email: "bob@example.com"))
        #expect(signedIn["data"]?["signInWithGoogle"]?["outcome"] == "SIGNED_IN")

        let unlink = "mutation($password: String) { unlinkSignInProvider(input: {provider: GOOGLE, currentPassword: $password}) { user { signInMethods } } }"
        let unlinked = try Self.graphQL(server, unlink, ["password": .string(password)], token: bobToken)
        #expect(unlinked["data"]?["unlinkSignInProvider"]?["user"]?["signInMethods"] == ["PASSWORD"], "\(unlinked)")
        let again = try Self.graphQL(server, unlink, ["password": .string(password)], token: bobToken)
        #expect(again["errors"]?[0]?["extensions"]?["code"] == "NOT_FOUND", "\(again)")

        // A Google-only account cannot unlink its only way in.
        let created = try Self.signIn(server, token: try Self.googleToken(subject: "g-cleo", email: "cleo@example.com"))
        guard case .string(let cleoToken)? = created["data"]?["signInWithGoogle"]?["tokens"]?["accessToken"] else {
            Issue.record("no access token in \(created)")
            return
        }
        let last = try Self.graphQL(server, unlink, token: cleoToken)
        #expect(last["errors"]?[0]?["extensions"]?["code"] == "CONFLICT", "\(last)")
        #expect(last["errors"]?[0]?["extensions"]?["reason"] == "LAST_SIGN_IN_METHOD")
    }

    @Test func aPasswordlessAccountProvesItselfWithAFreshGoogleTokenToSetAPassword() throws {
        let keys = try KeySetServer(serving: JSONWebKeySet(keys: [Self.firstKey.verificationKey(keyID: "k1")]))
        defer { keys.stop() }
        // A window of zero: no sign-in is recent enough, only a fresh token proves the caller.
        let server = try Self.startServer(keys: keys, ["--reauthentication-window", "0"])
        defer { server.remove() }
        let created = try Self.signIn(server, token: try Self.googleToken(subject: "g-dana", email: "dana@example.com"))
        guard case .string(let danaToken)? = created["data"]?["signInWithGoogle"]?["tokens"]?["accessToken"] else {
            Issue.record("no access token in \(created)")
            return
        }
        let setPassword = """
            mutation($input: ChangePasswordInput!) { changePassword(input: $input) { user { signInMethods } } }
            """
        let stolen = try Self.graphQL(server, setPassword, ["input": ["newPassword": "a thief's new secret"]], token: danaToken)
        #expect(stolen["errors"]?[0]?["extensions"]?["code"] == "REAUTHENTICATION_REQUIRED", "\(stolen)")
        #expect(stolen["errors"]?[0]?["extensions"]?["methods"] == ["GOOGLE"])

        let proven = try Self.graphQL(server, setPassword, ["input": [
            "newPassword": "dana's own new secret",
            "reauthentication": [
                "provider": "GOOGLE", "idToken": .string(try Self.googleToken(subject: "g-dana", email: "dana@example.com")),
                "nonce": .string(Self.rawNonce),
            ],
        ]], token: danaToken)
        #expect(proven["data"]?["changePassword"]?["user"]?["signInMethods"] == ["PASSWORD", "GOOGLE"], "\(proven)")
    }

    @Test(arguments: ["http://keys.example.com/certs", "ftp://127.0.0.1/certs"])
    func theServerRefusesKeySetURLsThatAreNotHTTPSOffLoopback(url: String) throws {
        // Were the URL accepted, the pending migrations would stop the start at once instead.
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-jwks-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: database) }
        let outcome = try HearthCommand.run([
            "serve", "--port", "0", "--database", database, "--auto-migrate", "off",
            "--google-client-ids", "test-client", "--google-jwks-url", url,
        ])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("--google-jwks-url"))
    }
}
