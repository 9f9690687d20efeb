import HearthServices

/// `/confirm-email?token=…`: one button confirms the address (``AccountService/confirmEmail(token:)``,
/// as the `confirmEmail` mutation), for a new account or an email change.
struct ConfirmAddressForm: EmailLinkForm {
    let accounts: AccountService

    var link: EmailLink { .confirmAddress }
    var purpose: FormProtection.Purpose { .confirmAddress }
    var title: String { "Confirm your email address" }

    func form(hiddenFields: HTML, error: String?) -> HTML {
        """
        <p>Press the button to confirm that this email address is yours.</p>
        <form method="post" action="confirm-email">
        \(hiddenFields)
        <button type="submit">Confirm my address</button>
        </form>
        """
    }

    func submit(_ form: [String: String], linkToken: String) async throws -> WebPage {
        let user = try await accounts.confirmEmail(token: linkToken)
        return WebPage(
            title: "Your address is confirmed",
            content: """
                <p class="message" role="status">\(user.email) is confirmed for your Hearth account.</p>
                <p>You can close this page and go back to the app.</p>
                """)
    }
}
