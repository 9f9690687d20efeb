import HearthHTTP
import HearthServices
import Support

/// The small HTML pages that the links in Hearth's emails open, for people who click them
/// rather than an app:
///
/// - `GET /confirm-email?token=…` shows a button; its `POST /confirm-email` confirms the
///   address (as the `confirmEmail` mutation);
/// - `GET /reset-password?token=…` shows a form for the new password, twice; its
///   `POST /reset-password` sets it (as `resetPassword`: the same rules and messages, every
///   session ended);
/// - `GET /invitation?token=…` shows the invitation (as `invitationPreview`), a link that
///   opens it in the app, and a form that signs in and accepts or declines in one `POST`
///   (see ``InvitationPage``);
/// - `GET /pages/style.css` is their stylesheet.
///
/// Opening a page changes nothing, since mail scanners open links too; forms change things.
/// The pages need no JavaScript and carry none. Every value is escaped (``HTML``), every form is
/// protected against cross-site request forgery (``FormProtection``), every page carries a
/// strict content security policy and `Referrer-Policy: no-referrer` (``WebPage``), and the
/// rate limits are the API's own, because the pages call the same service functions with the
/// client address the API uses.
public struct WebPages: Sendable {
    private let confirmAddress: EmailLinkPage<ConfirmAddressForm>
    private let resetPassword: EmailLinkPage<ResetPasswordForm>
    private let invitation: InvitationPage

    /// The pages of a server reached at `publicBaseURL` (the origin forms must come from).
    /// - Parameter clientAddress: The client address of a request, as the GraphQL API's rate
    ///   limits see it.
    public init(
        accounts: AccountService, households: HouseholdService, publicBaseURL: PublicBaseURL,
        clientAddress: @escaping @Sendable (HTTPRequest) -> String, logger: Logger
    ) {
        let context = PageContext(protection: FormProtection(publicBaseURL: publicBaseURL), clientAddress: clientAddress, logger: logger)
        confirmAddress = EmailLinkPage(form: ConfirmAddressForm(accounts: accounts), accounts: accounts, context: context)
        resetPassword = EmailLinkPage(form: ResetPasswordForm(accounts: accounts), accounts: accounts, context: context)
        invitation = InvitationPage(accounts: accounts, households: households, context: context)
    }

    /// Registers the pages and their stylesheet.
    public func register(in router: inout Router) {
        router.on(.get, "/confirm-email") { [confirmAddress] request in await confirmAddress.get(request) }
        router.on(.post, "/confirm-email") { [confirmAddress] request in await confirmAddress.post(request) }
        router.on(.get, "/reset-password") { [resetPassword] request in await resetPassword.get(request) }
        router.on(.post, "/reset-password") { [resetPassword] request in await resetPassword.post(request) }
        router.on(.get, "/invitation") { [invitation] request in await invitation.get(request) }
        router.on(.post, "/invitation") { [invitation] request in await invitation.post(request) }
        router.get(PageStyle.path) { _, responder in responder.send(PageStyle.response) }
    }
}
