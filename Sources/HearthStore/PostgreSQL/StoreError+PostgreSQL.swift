extension StoreError {
    /// An error PostgreSQL reported with `state` (its SQLSTATE), mapped onto the nearest SQLite
    /// result code and the shared ``Category``.
    init(postgresState state: String, message: String, sql: String?) {
        let (code, category): (ResultCode, Category) = switch state {
        case "23505": (.constraintUnique, .uniqueViolation)
        case "23503": (.constraintForeignKey, .foreignKeyViolation)
        case "23502": (.constraintNotNull, .other)
        case "23514": (.constraintCheck, .other)
        case "40001", "40P01": (.busy, .serializationFailure)
        case "55P03", "57014": (.busy, .busy)
        case "25006": (.readonly, .other)
        case "22P02", "22003", "42804": (.mismatch, .other)
        default: (state.hasPrefix("23") ? .constraint : state.hasPrefix("08") ? .ioError : .error, .other)
        }
        self.init(extendedCode: code, message: message, sql: sql, category: category, sqlState: state)
    }

    /// Whether PostgreSQL refused to run a prepared statement because its result type changed
    /// since it was prepared ("cached plan must not change result type", SQLSTATE 0A000): a
    /// table it reads was altered, by a migration of another instance for example.
    var isStaleCachedPlan: Bool {
        sqlState == "0A000" && message.hasPrefix("cached plan must not change result type")
    }
}
