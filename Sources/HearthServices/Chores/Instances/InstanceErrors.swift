import HearthDomain

extension ServiceError {
    /// A chore instance that does not exist, is not one a chore of the caller's produces, or is
    /// another household's (the same answer).
    public static let instanceNotFound = ServiceError(.notFound, "No such chore instance.")
    /// A completion that does not exist or is another household's.
    public static let completionNotFound = ServiceError(.notFound, "No such completion.")
    /// A step that is not one of the chore's.
    public static let stepNotFound = ServiceError(.notFound, "No such step of this chore.", problems: [
        FieldProblem(field: "input.stepId", reason: .unknownValue, message: "No such step of this chore.")])
}
