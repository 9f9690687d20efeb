/// The few statements services need whose text differs between the stores, each behind one
/// function that answers in a dialect (docs/architecture.md, "Portable SQL": dialect SQL lives in
/// the dialects' migrations and here, never in a service).
public enum DialectSQL {
    /// A condition, starting ` AND `, keeping the habit events aliased `e` whose comment contains
    /// the words of the phrase bound to its one `?` (``habitCommentPhrase(_:)``), in order (US 04.03):
    /// SQLite reads the FTS5 table of migration 0023, PostgreSQL the `comment_words` `tsvector` of
    /// its twin, through its GIN index. Both split words alike and fold case (`unicode61`; letters
    /// and digits by ICU, then the `simple` configuration), so the same events match.
    public static func habitCommentContains(_ dialect: Database.Dialect) -> String {
        switch dialect {
        case .sqlite: " AND e.id IN (SELECT event_id FROM habit_event_words WHERE habit_event_words MATCH ?)"
        case .postgresql:
            // The phrase normalised as the column's expression normalises comments (migration 0023).
            """
             AND e.comment_words @@ phraseto_tsquery('simple', regexp_replace(CAST(? AS TEXT) COLLATE "und-x-icu", '[^[:alnum:]]+', ' ', 'g'))
            """
        }
    }

    /// The argument of ``habitCommentContains(_:)`` for `word`, the same in both dialects: one FTS5
    /// phrase in double quotes (its own quotes doubled), so the user's text is searched as words,
    /// never read as query syntax (`AND`, `*`, `NEAR`, column filters). PostgreSQL turns the quotes into
    /// spaces with all other punctuation, and `phraseto_tsquery` has no operators of its own.
    public static func habitCommentPhrase(_ word: String) -> String {
        "\"" + word.replacing("\"", with: "\"\"") + "\""
    }

    /// The planner hint after a table in `FROM` that makes the query use `index`: SQLite's
    /// ` INDEXED BY index`, for the few statements whose plan SQLite's planner gets wrong (each use
    /// says why); nothing on PostgreSQL, whose planner weighs indexes by the table's statistics.
    public static func indexHint(_ index: String, _ dialect: Database.Dialect) -> String {
        switch dialect {
        case .sqlite: " INDEXED BY \(index)"
        case .postgresql: ""
        }
    }
}
