import HearthDomain

/// Collects the problems of an input's fields, so they are reported all at once.
struct ProblemCollector {
    private var problems: [FieldProblem] = []

    /// The value `check` returns, or `nil` after recording the problem it throws.
    mutating func check<Value>(_ check: () throws(FieldProblem) -> Value) -> Value? {
        do { return try check() } catch {
            problems.append(error)
            return nil
        }
    }

    /// Records a problem.
    mutating func add(_ problem: FieldProblem) {
        problems.append(problem)
    }

    /// Throws `BAD_USER_INPUT` with every problem recorded, if any.
    func throwIfAny() throws {
        if !problems.isEmpty { throw ServiceError.invalid(InputProblems(problems)) }
    }
}
