import HearthStore
import Testing

@Suite struct PostgresURLTests {
    @Test func recognizesBothSchemes() {
        #expect(PostgresURL.isPostgres("postgres://db/hearth"))
        #expect(PostgresURL.isPostgres("PostgreSQL://db/hearth"))
        #expect(!PostgresURL.isPostgres("data/hearth.sqlite"))
        #expect(!PostgresURL.isPostgres("postgres.sqlite"))
    }

    @Test func redactsThePasswordOfTheUserInformationAndOfParameters() {
        #expect(PostgresURL.redacted("postgres://hearth:se:cr@t@db:5432/hearth?sslmode=require")
            == "postgres://hearth:***@db:5432/hearth?sslmode=require")
        #expect(PostgresURL.redacted("postgresql://db/hearth?user=h&password=secret&sslmode=verify-full")
            == "postgresql://db/hearth?user=h&password=***&sslmode=verify-full")
        #expect(PostgresURL.redacted("host=db password=secret dbname=hearth") == "host=db password=*** dbname=hearth")
        #expect(PostgresURL.redacted("postgres://hearth@db/hearth") == "postgres://hearth@db/hearth")
    }
}
