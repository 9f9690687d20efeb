/// What the SQLite-only maintenance commands tell an operator whose `--database` is PostgreSQL:
/// the PostgreSQL tool that does the same job.
enum PostgresAdvice {
    static let backup = "back it up with PostgreSQL's tools (pg_dump -Fc, or base backups with WAL archiving for point-in-time recovery); "
        + "keep a copy of the key directory with it"
    static let restore = "restore with pg_restore into an empty database, then run 'hearth migrate'"
    static let status = "run 'hearth migrate --status' for the schema, and psql for sizes (pg_database_size) and rows (pg_stat_user_tables)"
}
