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
/// - A refresh (callable signed out) takes a token from the address's refresh bucket; a
///   successful one gives it back, so only refused refresh tokens count (330 an hour per
///   address by default). Devices refreshing their own sessions never run it dry.
public final class LoginThrottle: Sendable {
    private struct Limiters {
        var accounts: RateLimiter
        var addresses: RateLimiter
        var mailAddresses: RateLimiter
        var mailRecipients: RateLimiter
        var refreshAddresses: RateLimiter
    }

    private let limiters: Mutex<Limiters>
    private let clock: any ServiceClock

    /// Creates the throttle.
    /// - Parameter clock: Its monotonic seconds time the buckets; tests pass a clock they move.
    public init(configuration: AccountsConfiguration, clock: any ServiceClock = SystemClock()) {
        limiters = Mutex(Limiters(
            accounts: RateLimiter(rule: configuration.failedLoginsPerAccount),
            addresses: RateLimiter(rule: configuration.failedLoginsPerAddress),
            mailAddresses: RateLimiter(rule: configuration.mailRequestsPerAddress),
            mailRecipients: RateLimiter(rule: configuration.mailRequestsPerRecipient),
            refreshAddresses: RateLimiter(rule: configuration.failedRefreshesPerAddress)))
        self.clock = clock
    }

    /// Takes a sign-in attempt for `account` from `address`.
    /// - Throws: `RATE_LIMITED` when either bucket is empty (taking nothing).
    func beginLogin(account: String, address: String) throws(ServiceError) {
        try take([(\.accounts, account), (\.addresses, address)])
    }

    /// Gives back the tokens of a sign-in that succeeded.
    func loginSucceeded(account: String, address: String) {
        let now = clock.monotonicSeconds
        limiters.withLock { limiters in
            limiters.accounts.refund(for: account, now: now)
            limiters.addresses.refund(for: address, now: now)
        }
    }

    /// Forgets an account's failed sign-ins (after its password was reset).
    func resetAccount(_ account: String) {
        limiters.withLock { $0.accounts.reset(account) }
    }

    /// Takes a refresh attempt from `address`.
    /// - Throws: `RATE_LIMITED` when the address's bucket is empty (taking nothing).
    func beginRefresh(address: String) throws(ServiceError) {
        try take([(\.refreshAddresses, address)])
    }

    /// Gives back the token of a refresh that succeeded.
    func refreshSucceeded(address: String) {
        let now = clock.monotonicSeconds
        limiters.withLock { $0.refreshAddresses.refund(for: address, now: now) }
    }

    /// Takes a token for an operation sending email to `recipient`, asked from `address`.
    /// - Throws: `RATE_LIMITED` when either bucket is empty.
    func beginMailRequest(recipient: String, address: String) throws(ServiceError) {
        try take([(\.mailRecipients, recipient), (\.mailAddresses, address)])
    }

    /// Takes a token for each key from its limiter, or none when any bucket is empty.
    private func take(_ keys: [(limiter: WritableKeyPath<Limiters, RateLimiter>, key: String)]) throws(ServiceError) {
        let now = clock.monotonicSeconds
        let wait = limiters.withLock { limiters -> Double in
            let wait = keys.map { limiters[keyPath: $0.limiter].waitTime(for: $0.key, now: now) }.max() ?? 0
            if wait == 0 {
                for (limiter, key) in keys { _ = limiters[keyPath: limiter].take(for: key, now: now) }
            }
            return wait
        }
        if wait > 0 { throw ServiceError.rateLimited(retryAfter: wait) }
    }
}
