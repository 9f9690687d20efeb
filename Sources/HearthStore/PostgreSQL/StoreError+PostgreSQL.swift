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
}
