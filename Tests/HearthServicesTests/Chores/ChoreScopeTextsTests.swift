import Testing

@testable import HearthServices

/// The chore statements' texts, rewritten once per kind of owner (``ChoreScopeTexts``).
struct ChoreScopeTextsTests {
    @Test func bothTokensBecomeTheOwnersMarkers() {
        let sql = "INSERT INTO tags (id, household_id, user_id) VALUES (?, {scope_ids}) -- then WHERE {scope} AND {scope}"
        #expect(ChoreScopeTexts(scope: "household_id = {household}", ids: "{household}, NULL").text(for: sql)
            == "INSERT INTO tags (id, household_id, user_id) VALUES (?, {household}, NULL) -- then WHERE household_id = {household} AND household_id = {household}")
        #expect(ChoreScopeTexts.personal.text(for: "SELECT id FROM chores WHERE {scope} AND title = '{x}'")
            == "SELECT id FROM chores WHERE user_id = {owner} AND title = '{x}'")
    }

    @Test func rewrittenTextsAreKeptUpToTheCapacityAndOthersStillRewritten() {
        let texts = ChoreScopeTexts(scope: "user_id = {owner}", ids: "NULL, {owner}", capacity: 2)
        for table in ["a", "b", "c"] {
            #expect(texts.text(for: "SELECT x FROM \(table) WHERE {scope}") == "SELECT x FROM \(table) WHERE user_id = {owner}")
        }
        #expect(texts.count == 2)
        #expect(texts.text(for: "SELECT x FROM a WHERE {scope}") == "SELECT x FROM a WHERE user_id = {owner}")
        #expect(texts.count == 2)
    }
}
