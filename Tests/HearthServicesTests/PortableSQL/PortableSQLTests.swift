import Foundation
import Testing

/// SQL outside the store is in the subset SQLite and PostgreSQL both accept
/// (docs/architecture.md, "Portable SQL"): every string literal of every Swift file under
/// `Sources/` except `Sources/HearthStore`, the SQLite store itself, is checked for the
/// constructs of ``SQLDialectCheck``. Migrations are SQLite's dialect and not checked here.
@Suite struct PortableSQLTests {
    /// A construct allowed in one file, and why.
    struct Exception {
        var file: String
        var construct: String
        var why: String
    }

    /// The short list of SQLite-only SQL outside the store, each with its reason. Keep it short:
    /// what a PostgreSQL store will need too belongs behind a store function instead.
    static let exceptions = [
        Exception(
            file: "Sources/HearthApp/Configuration/StoredKeys.swift", construct: "PRAGMA",
            why: "moving keys that older versions kept in the SQLite file out of it (secure_delete overwrites their pages); "
                + "a PostgreSQL database never held them"),
        Exception(
            file: "Sources/HearthApp/Configuration/StoredKeys.swift", construct: "VACUUM",
            why: "the same key move: rebuilding the SQLite file drops copies of the key row left in free pages"),
        Exception(
            file: "Sources/HearthServices/Accounts/AccountAdministration.swift", construct: "LIKE",
            why: "`hearth admin users --search`: a substring of the stored lowercased keys, with a lowercased pattern and an "
                + "explicit ESCAPE, which both dialects answer alike"),
        Exception(
            file: "Sources/HearthDomain/CalendarImport/ICalendarComponent.swift", construct: "transaction control",
            why: "iCalendar's BEGIN and END properties, not SQL (HearthDomain has no database)"),
        Exception(
            file: "Sources/HearthDomain/Calendar/ICalendarText.swift", construct: "transaction control",
            why: "not SQL: the BEGIN and END content lines of RFC 5545 calendar components"),
    ]

    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func sqlOutsideTheStoreUsesOnlyWhatBothDialectsAccept() throws {
        let check = SQLDialectCheck()
        var findings: [SQLDialectCheck.Finding] = []
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.subpaths(atPath: sources.path)).filter { path in
            path.hasSuffix(".swift") && !path.hasPrefix("HearthStore/")
        }
        #expect(files.contains("HearthServices/Households/HouseholdService.swift"), "the walk finds the services")
        for path in files.sorted() {
            let source = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            findings += check.findings(in: source, file: "Sources/" + path)
        }
        let allowed = findings.filter { finding in
            Self.exceptions.contains { $0.file == finding.file && $0.construct == finding.construct }
        }
        let forbidden = findings.filter { !allowed.contains($0) }
        let advice = Dictionary(check.constructs.map { ($0.name, $0.instead) }) { first, _ in first }
        #expect(forbidden.isEmpty, """
            SQLite-only SQL outside the store (see docs/architecture.md, "Portable SQL"):
            \(forbidden.map { "\($0): use \(advice[$0.construct] ?? "a portable form")" }.joined(separator: "\n"))
            """)
        for exception in Self.exceptions {
            #expect(
                allowed.contains { $0.file == exception.file && $0.construct == exception.construct },
                "the exception for \(exception.construct) in \(exception.file) is no longer needed: remove it")
        }
    }

    @Test func theCheckFindsEveryConstructInLiteralsButNotInComments() {
        let samples: [String: String] = [
            "INSERT OR …": #""INSERT OR IGNORE INTO t (a) VALUES (?)""#,
            "REPLACE INTO": #""REPLACE INTO t (a) VALUES (?)""#,
            "LIMIT -1": #""SELECT a FROM t LIMIT -1 OFFSET ?""#,
            "COLLATE": #""SELECT a FROM t ORDER BY a COLLATE NOCASE""#,
            "sqlite_ name": #""SELECT name FROM sqlite_master""#,
            "rowid": #""SELECT rowid FROM t""#,
            "PRAGMA": #""PRAGMA foreign_keys = ON""#,
            "VACUUM": #""VACUUM""#,
            "transaction control": #""BEGIN IMMEDIATE TRANSACTION""#,
            "ATTACH DATABASE": #""ATTACH DATABASE 'x' AS y""#,
            "SQLite-only function": #""UPDATE t SET a = datetime('now')""#,
            "scalar min/max": #""SELECT min(coalesce(a, '~'), b) FROM t""#,
            "numbered placeholder": #""SELECT a FROM t WHERE ?1 IS NULL OR a = ?1""#,
            "named placeholder": #""SELECT a FROM t WHERE a = :value""#,
            "STRICT table": #""CREATE TABLE t (a TEXT) STRICT""#,
            "AUTOINCREMENT": #""CREATE TABLE t (a INTEGER PRIMARY KEY AUTOINCREMENT)""#,
            "GLOB": #""SELECT a FROM t WHERE a GLOB 'x*'""#,
            "LIKE": #""SELECT a FROM t WHERE a LIKE 'x%'""#,
            "IS between values": #""SELECT a FROM t WHERE a IS NOT ?""#,
            "blob literal": #""SELECT a FROM t WHERE b = x'00ff'""#,
            "INDEXED BY": #""SELECT a FROM t INDEXED BY t_a WHERE a = ?""#,
        ]
        let check = SQLDialectCheck()
        #expect(Set(samples.keys) == Set(check.constructs.map(\.name)), "one sample per construct")
        for (construct, literal) in samples {
            let source = "let sql = \(literal)\n"
            #expect(check.findings(in: source, file: "f").map(\.construct) == [construct], "\(literal)")
            let quoted = "/// Never `\(literal)`.\n// \(literal)\n/* \(literal) */\nlet x = 1\n"
            #expect(check.findings(in: quoted, file: "f").isEmpty, "comments are not SQL: \(literal)")
        }
        // Interpolations, raw and multi-line literals are read too, and their lines reported.
        let nested = #"""
            let a = "SELECT \(columns) FROM t WHERE a IN (\(ids.map { _ in "?" }.joined(separator: ", ")))"
            let b = #"SELECT "quoted" FROM t ORDER BY a COLLATE NOCASE"#
            let c = """
                INSERT OR IGNORE INTO t (a) VALUES (?)
                """
            let d = "\(flag ? "UPDATE t SET a = 1 WHERE rowid = ?" : "")"
            """#
        #expect(check.findings(in: nested, file: "f") == [
            .init(file: "f", line: 2, construct: "COLLATE"), .init(file: "f", line: 3, construct: "INSERT OR …"),
            .init(file: "f", line: 6, construct: "rowid"),
        ])
    }

    @Test func portableStatementsPass() {
        let portable = [
            "INSERT INTO t (a, b) VALUES (?, ?) ON CONFLICT (a) DO UPDATE SET b = excluded.b",
            "INSERT INTO t (a) VALUES (?) ON CONFLICT DO NOTHING RETURNING id",
            "SELECT a IS NOT NULL AS present, count(*), max(sequence), min(occurred_at) FROM t WHERE b IS NULL GROUP BY a",
            "SELECT a FROM t WHERE a IS DISTINCT FROM ? AND id NOT IN (SELECT id FROM t ORDER BY b DESC LIMIT ?)",
            "SELECT CASE WHEN a < b THEN a ELSE b END FROM t WHERE c = 'It is not: a match' ORDER BY name_key, id LIMIT ? OFFSET ?",
            "The date (UTC) is 12:30, the update at noon.",
            "Vacuum the living room",
        ]
        let check = SQLDialectCheck()
        for sql in portable {
            #expect(check.findings(in: "let sql = \"\(sql)\"\n", file: "f").isEmpty, "\(sql)")
        }
    }
}
