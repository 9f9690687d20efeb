import HearthDomain
import Support
import Synchronization

/// The rate limits on sign-in attempts and on operations that send email, per account and
/// per client address (token buckets, ``AccountsConfiguration``).
///
/// Policy (documented for self-hosters in the README):
/// - A sign-in attempt takes a token from the account's bucket and from the address's
///   bucket before the password is checked; a successful sign-in gives both back, so only
///   failures count. With the defaults an account sees at most 100 failed attempts an hour
///   (OWASP ASVS 5.0 V6.3.1), an address at most 330.
/// - An empty bucket refuses with `RATE_LIMITED` and `retryAfter`: the seconds until one
///   token has refilled (about 40 s per account with the defaults), never longer. An attacker
///   can slow a victim's password sign-ins only while spending their own guesses, and never
///   lock the account: sessions already signed in keep refreshing, Google and Apple sign-in
///   are not counted, and a password reset clears the account's bucket.
/// - Operations that send email take a token per address and per recipient, so the server
///   cannot be used to flood someone's inbox.
public final class LoginThrottle: Sendable {
    private struct Limiters {
        var accounts: RateLimiter
        var addresses: RateLimiter
        var mailAddresses: RateLimiter
        var mailRecipients: RateLimiter
    }

    private let limiters: Mutex<Limiters>
    private let now: @Sendable () -> Double

    /// Creates the throttle.
    /// - Parameter now: Monotonic seconds; tests pass a clock they move.
    public init(configuration: AccountsConfiguration, now: @escaping @Sendable () -> Double = LoginThrottle.monotonicSeconds) {
        limiters = Mutex(Limiters(
            accounts: RateLimiter(rule: configuration.failedLoginsPerAccount),
            addresses: RateLimiter(rule: configuration.failedLoginsPerAddress),
            mailAddresses: RateLimiter(rule: configuration.mailRequestsPerAddress),
            mailRecipients: RateLimiter(rule: configuration.mailRequestsPerRecipient)))
        self.now = now
    }

    /// The process's monotonic clock in seconds.
    public static func monotonicSeconds() -> Double {
        Double(MonotonicClock.nanoseconds()) / 1e9
    }

    /// Takes a sign-in attempt for `account` from `address`.
    /// - Throws: `RATE_LIMITED` when either bucket is empty (taking nothing).
    func beginLogin(account: String, address: String) throws(ServiceError) {
        try take(account: account, address: address, from: \.accounts, \.addresses)
    }

    /// Gives back the tokens of a sign-in that succeeded.
    func loginSucceeded(account: String, address: String) {
        let now = now()
        limiters.withLock { limiters in
            limiters.accounts.refund(for: account, now: now)
            limiters.addresses.refund(for: address, now: now)
        }
    }

    /// Forgets an account's failed sign-ins (after its password was reset).
    func resetAccount(_ account: String) {
        limiters.withLock { $0.accounts.reset(account) }
    }

    /// Takes a token for an operation sending email to `recipient`, asked from `address`.
    /// - Throws: `RATE_LIMITED` when either bucket is empty.
    func beginMailRequest(recipient: String, address: String) throws(ServiceError) {
        try take(account: recipient, address: address, from: \.mailRecipients, \.mailAddresses)
    }

    private func take(
        account: String, address: String,
        from accountLimiter: WritableKeyPath<Limiters, RateLimiter>, _ addressLimiter: WritableKeyPath<Limiters, RateLimiter>
    ) throws(ServiceError) {
        let now = now()
        let wait = limiters.withLock { limiters -> Double in
            let wait = max(limiters[keyPath: accountLimiter].waitTime(for: account, now: now),
                           limiters[keyPath: addressLimiter].waitTime(for: address, now: now))
            if wait == 0 {
                _ = limiters[keyPath: accountLimiter].take(for: account, now: now)
                _ = limiters[keyPath: addressLimiter].take(for: address, now: now)
            }
            return wait
        }
        if wait > 0 { throw ServiceError.rateLimited(retryAfter: wait) }
    }
}
