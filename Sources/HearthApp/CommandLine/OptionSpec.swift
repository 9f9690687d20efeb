/// One command-line option of a `hearth` command: its flag, the environment variable
/// that may also set it, its default and its help text. Help output is generated from
/// these declarations, so every option is documented by construction.
struct OptionSpec: Sendable {
    /// The long flag including dashes, e.g. `--port`.
    let flag: String
    /// The placeholder shown in help (`PORT`); nil for a boolean switch that takes no value.
    let valueName: String?
    /// The environment variable that sets the option when the flag is absent.
    let environment: String?
    /// The value used when neither the flag nor the environment sets the option, as text.
    let defaultValue: String?
    /// One sentence for `--help`.
    let help: String

    /// An option that takes a value.
    static func value(
        _ flag: String, _ valueName: String, environment: String? = nil, default defaultValue: String? = nil,
        help: String
    ) -> OptionSpec {
        OptionSpec(flag: flag, valueName: valueName, environment: environment, defaultValue: defaultValue, help: help)
    }

    /// A boolean switch; present means true. Its environment variable accepts `1/true/yes/on` and `0/false/no/off`.
    static func toggle(_ flag: String, environment: String? = nil, help: String) -> OptionSpec {
        OptionSpec(flag: flag, valueName: nil, environment: environment, defaultValue: nil, help: help)
    }
}
