import HearthServices

/// `/reset-password?token=…`: the new password twice, then ``AccountService/resetPassword(token:newPassword:)``
/// as the `resetPassword` mutation does it: the same password rules and messages, every session
/// of the account ended.
struct ResetPasswordForm: EmailLinkForm {
    let accounts: AccountService

    /// The form's fields.
    static let passwordField = "new_password"
    static let repeatField = "repeat_password"

    var link: EmailLink { .resetPassword }
    var purpose: FormProtection.Purpose { .resetPassword }
    var title: String { "Choose a new password" }

    func form(hiddenFields: HTML, error: String?) -> HTML {
        let described: HTML = error == nil ? "aria-describedby=\"password-rules\"" : "aria-describedby=\"form-error password-rules\" aria-invalid=\"true\""
        return """
            <form method="post" action="reset-password">
            \(hiddenFields)
            <label for="new-password">New password</label>
            <input id="new-password" name="\(Self.passwordField)" type="password" autocomplete="new-password" required \(described)>
            <p class="hint" id="password-rules">A long one: a few unusual words make a strong password. Not a common password, and not your username or email address.</p>
            <label for="repeat-password">New password again</label>
            <input id="repeat-password" name="\(Self.repeatField)" type="password" autocomplete="new-password" required>
            <button type="submit">Set the new password</button>
            </form>
            <p class="hint">Setting a new password signs you out on every device.</p>
            """
    }

    func submit(_ form: [String: String], linkToken: String) async throws -> WebPage {
        let password = form[Self.passwordField] ?? ""
        guard password == form[Self.repeatField] ?? "" else {
            throw FormProblem(message: "The two passwords differ. Type the same new password twice.")
        }
        _ = try await accounts.resetPassword(token: linkToken, newPassword: password)
        return WebPage(
            title: "Your password was changed",
            content: """
                <p class="message" role="status">Your new password is set. You were signed out on every device.</p>
                <p>Sign in to the Hearth app with your new password.</p>
                """)
    }
}
