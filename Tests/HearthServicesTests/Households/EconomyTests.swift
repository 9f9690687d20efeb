import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-ONBOARD-5: the token economy.
struct EconomyTests {
    @Test func aNewHouseholdStartsAtTenCentsPerTokenWithTheFallbackSplit() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let household = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana).household
            let economy = try await h.service.economy(try await h.service.access(viewer: ana, householdID: household.id))
            #expect(economy.currencyPerToken.description == "0.10" && economy.currencyCode == "USD" && economy.earningsSplit == .fallback)
            #expect(economy.allowedCurrencyPerToken.lowerBound.description == "0.01")
            #expect(economy.allowedCurrencyPerToken.upperBound.description == "100.00")
        }
    }

    @Test func anAdminSetsTheEconomyWhichCompletesTheChecklistStep() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            try h.allowAnalytics(for: ana)
            let householdID = try await h.householdID(named: "Flat", ana)
            h.clock.advance(seconds: 60)
            let household = try await h.service.updateEconomySettings(
                householdID: householdID,
                .init(currencyPerToken: DecimalAmount("0.2500"), currencyCode: "EUR", earningsSplit: .completer), viewer: ana).record
            #expect(household.currencyPerToken == "0.25" && household.currencyCode == "EUR" && household.earningsSplit == "completer")
            #expect(household.updatedAt == h.clock.now)
            #expect(try h.sqlText("SELECT state FROM onboarding_steps WHERE step = 'economy'") == "done")
            #expect(try h.sqlText("SELECT kind FROM change_log ORDER BY sequence DESC LIMIT 1") == "household.updated")
            #expect(try h.sqlText("SELECT properties FROM analytics_events WHERE name = 'economy_configured'") == #"{"currencyPerTokenTier":"0.25_1"}"#)

            let partial = try await h.service.updateEconomySettings(householdID: householdID, .init(earningsSplit: .equal), viewer: ana).record
            #expect(partial.currencyPerToken == "0.25" && partial.currencyCode == "EUR" && partial.earningsSplit == "equal")
        }
    }

    @Test func theAmountMustLieWithinTheConfiguredRangeAndTheCurrencyBeActive() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            for edge in ["0.01", "100", "100.0000"] {
                let set = try await h.service.updateEconomySettings(householdID: householdID, .init(currencyPerToken: DecimalAmount(edge)), viewer: ana).record
                #expect(set.currencyPerToken == DecimalAmount(edge)!.description)
            }
            for outside in ["0.0099", "100.0001", "0"] {
                let refused = await #expect(throws: ServiceError.self) {
                    try await h.service.updateEconomySettings(
                        householdID: householdID, .init(currencyPerToken: DecimalAmount(outside), currencyCode: "usd"), viewer: ana)
                }
                #expect(refused?.problems.map(\.field) == ["input.currencyPerToken", "input.currencyCode"])
                #expect(refused?.problems.map(\.reason) == [.outOfRange, .unknownValue])
            }
            #expect(try h.sqlText("SELECT currency_per_token FROM households") == "100.00")
        }
    }

    @Test func theRangeIsConfigurable() async throws {
        try await HouseholdsHarness.with(configure: { $0.currencyPerTokenRange = DecimalAmount("1")!...DecimalAmount("5")! }) { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            let refused = await #expect(throws: ServiceError.self) {
                try await h.service.updateEconomySettings(householdID: householdID, .init(currencyPerToken: DecimalAmount("0.5")), viewer: ana)
            }
            #expect(refused?.problems.first?.reason == .outOfRange)
            let set = try await h.service.updateEconomySettings(householdID: householdID, .init(currencyPerToken: DecimalAmount("5")), viewer: ana).record
            #expect(h.service.economy(of: set).allowedCurrencyPerToken.upperBound == DecimalAmount("5"))
        }
    }

    @Test func membersCannotChangeTheEconomyAndOutsidersSeeNoHousehold() async throws {
        try await HouseholdsHarness.with { h in
            let (householdID, _, ben, eve) = try await h.flatWithMemberAndOutsider()
            for (viewer, code) in [(ben, ServiceError.Code.forbidden), (eve, .notFound)] {
                let refused = await #expect(throws: ServiceError.self) {
                    try await h.service.updateEconomySettings(householdID: householdID, .init(earningsSplit: .equal), viewer: viewer)
                }
                #expect(refused?.code == code)
            }
            #expect(try h.sqlText("SELECT earnings_split FROM households") == "fallback")
        }
    }

    @Test func aReplayedUpdateChangesNothingMore() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let householdID = try await h.householdID(named: "Flat", ana)
            _ = try await h.service.updateEconomySettings(
                householdID: householdID, .init(currencyPerToken: DecimalAmount("0.5")), viewer: ana, clientMutationID: "e1")
            let events = try h.sqlText("SELECT count(*) FROM change_log")
            let replay = try await h.service.updateEconomySettings(
                householdID: householdID, .init(currencyPerToken: DecimalAmount("0.5")), viewer: ana, clientMutationID: "e1").record
            #expect(replay.currencyPerToken == "0.50")
            #expect(try h.sqlText("SELECT count(*) FROM change_log") == events)
        }
    }

    @Test func analyticsSeeOnlyACoarseTierOfTheValue() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            try h.allowAnalytics(for: ana)
            let householdID = try await h.householdID(named: "Flat", ana)
            for amount in ["0.01", "0.0499", "0.05", "0.2499", "0.25", "0.9999", "1", "100"] {
                _ = try await h.service.updateEconomySettings(householdID: householdID, .init(currencyPerToken: DecimalAmount(amount)), viewer: ana)
            }
            let tiers = try await h.pool.read { database in
                try database.query("SELECT properties FROM analytics_events WHERE name = 'economy_configured' ORDER BY id")
                    .map { row -> String in try JSONDecoder().decode(EconomyConfigured.self, from: Data((row["properties"] as String).utf8)).currencyPerTokenTier }
            }
            #expect(tiers == ["lt_0.05", "lt_0.05", "0.05_0.25", "0.05_0.25", "0.25_1", "0.25_1", "gte_1", "gte_1"])
        }
    }
}

/// The properties of an `economy_configured` analytics event.
private struct EconomyConfigured: Decodable {
    var currencyPerTokenTier: String
}
