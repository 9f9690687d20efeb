import Foundation
import GraphQL
import HearthAPI
import Testing

/// Replay everywhere (issue 17): every mutation of `schema.graphql` takes `clientMutationId`, except
/// the few listed here, each with the reason a queued replay makes no sense for it. A new mutation
/// without the field fails this test until it gets one or a reason.
@Suite struct ReplayCoverageTests {
    /// The mutations without `clientMutationId`, and why.
    static let exceptions: [String: String] = [
        // Signed out: no account to remember a replay under, and a phone does not queue them.
        "register": "creates the account a replay record would belong to; a retry answers CONFLICT (username or address taken)",
        "login": "issues a new session; a replay would have to hand out live tokens again",
        "signInWithGoogle": "issues a new session from a provider's one-time ID token; not queued",
        "signInWithApple": "issues a new session from a provider's one-time ID token; not queued",
        "refreshSession": "rotates a refresh token once; presenting it again is how theft is caught (REFRESH_TOKEN_REUSED)",
        "confirmEmail": "the emailed token is single-use and answers a retry itself (LINK_INVALID); signed out",
        "resetPassword": "the emailed token is single-use and answers a retry itself (LINK_INVALID); signed out",
        "requestPasswordReset": "signed out and rate-limited mail; never queued offline",
        "resendConfirmation": "sends mail now, rate-limited; takes no input",
        // Sessions and credentials: need fresh proof of who the caller is, which a queue cannot carry.
        "logout": "ends the calling session; takes no input and is idempotent (a second call is signed out)",
        "logoutEverywhere": "ends every session; takes no input and is idempotent",
        "revokeSession": "needs recent authentication for another session; idempotent (a revoked session stays revoked)",
        "changePassword": "needs recent authentication (current password or a fresh provider token), which expires",
        "changeEmail": "needs recent authentication, and sends a confirmation link now",
        "linkSignInProvider": "needs recent authentication and a fresh, nonce-bound provider ID token",
        "unlinkSignInProvider": "needs recent authentication, which a queue replayed later cannot prove",
        // The queue itself.
        "createCalendarFeed": "makes a new secret feed URL shown once; a replay record may hold no secret, so it could not show it again",
        "createWidgetToken": "makes a new widget token shown once; a replay record may hold no secret, so it could not show it again",
        "syncBatch": "each entry carries its own clientMutationId; replaying the batch replays each entry",
    ]

    private static let schema: Schema = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sdl = (try? String(contentsOf: root.appendingPathComponent("schema.graphql"), encoding: .utf8)) ?? ""
        return try! HearthSchema.build(sdl: sdl)
    }()

    /// Whether `field` takes `clientMutationId` in its `input`.
    private static func takesClientMutationID(_ field: SchemaField) -> Bool {
        guard let input = field.arguments.first(where: { $0.name == "input" }),
              case .inputObject(let type) = input.type.namedType
        else { return false }
        return type.field(named: "clientMutationId") != nil
    }

    /// The creations that take an id the client made offline (`input.id`, ``ClientIDs``).
    static let creationsWithClientIDs = [
        "createHousehold", "recordParentalConsent", "addMember", "createChore", "createTag", "saveChorePreset", "createReward",
        "createHabit", "recordHabitEvent", "requestFollow",
    ]

    @Test func everyCreationAPhoneQueuesTakesAClientMadeID() throws {
        for name in Self.creationsWithClientIDs {
            let field = try #require(Self.schema.mutationType?.field(named: name), "\(name)")
            guard let input = field.arguments.first(where: { $0.name == "input" }), case .inputObject(let type) = input.type.namedType else {
                Issue.record("\(name) takes no input")
                continue
            }
            #expect(type.field(named: "id")?.type.description == "ID", "\(name) takes an optional input.id")
            #expect(Self.takesClientMutationID(field), "\(name)")
        }
    }

    @Test func everyMutationTakesAClientMutationIDOrSaysWhyNot() throws {
        let mutations = try #require(Self.schema.mutationType).fields.values
        #expect(mutations.count > 80, "the walk sees the whole schema")
        let missing = mutations.filter { !Self.takesClientMutationID($0) && Self.exceptions[$0.name] == nil }.map(\.name)
        #expect(missing.isEmpty, "mutations without clientMutationId and without a reason: \(missing)")
        let needless = mutations.filter { Self.takesClientMutationID($0) && Self.exceptions[$0.name] != nil }.map(\.name)
        #expect(needless.isEmpty, "listed as exceptions but taking clientMutationId: \(needless)")
        let unknown = Set(Self.exceptions.keys).subtracting(mutations.map(\.name))
        #expect(unknown.isEmpty, "exceptions for mutations that no longer exist: \(unknown)")
        #expect(Self.takesClientMutationID(try #require(Self.schema.mutationType?.field(named: "updateProfile"))), "a phone queues profile edits")
    }
}
