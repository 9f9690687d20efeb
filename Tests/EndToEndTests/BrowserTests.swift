import Foundation
import Testing
import TestPython

/// The link pages in a real browser: Debian's headless Chromium, with JavaScript switched off,
/// driven by Selenium through `chromedriver` (`make test` installs both). Without them the test
/// is skipped, and says so loudly on standard error as well as in the test report.
@Suite struct BrowserTests {
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    /// Whether Chromium and its driver are installed; when not, a warning goes to standard error.
    static let browserIsInstalled: Bool = {
        let installed = [chromium, chromedriver].allSatisfy(FileManager.default.isExecutableFile(atPath:))
        if !installed {
            FileHandle.standardError.write(Data("""

                ************************************************************************
                WARNING: BrowserTests SKIPPED: \(chromium) or \(chromedriver) is missing.
                Install them (`apt-get install chromium chromium-driver`, or `make test`
                as root) to run the link pages in a real browser.
                ************************************************************************

                """.utf8))
        }
        return installed
    }()

    /// Opens the confirmation link, presses its button, then opens the reset link, types the new
    /// password twice and sends it; prints each page's heading.
    static let script = """
        import sys
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.support.ui import WebDriverWait

        chromium, chromedriver, confirm_link, reset_link, password = sys.argv[1:6]
        options = Options()
        options.binary_location = chromium
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                         "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--disable-sync"]:
            options.add_argument(argument)
        # The pages must work without JavaScript: the browser runs none.
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
        browser = webdriver.Chrome(service=Service(chromedriver), options=options)

        # While the next page replaces the old one, the driver may answer for a heading of either
        # document, or fail because the one it found has just left ("stale", or "does not belong
        # to the document"): the wait asks again until the next page's heading is there.
        def heading_after(action, expected):
            action()
            def next_heading(driver):
                text = driver.find_element(By.TAG_NAME, "h1").text
                return text if expected in text else False
            print(WebDriverWait(browser, 20, ignored_exceptions=(WebDriverException,)).until(next_heading))

        try:
            browser.get(confirm_link)
            print(browser.find_element(By.TAG_NAME, "h1").text)
            button = browser.find_element(By.CSS_SELECTOR, "form button[type=submit]")
            heading_after(button.click, "Your address is confirmed")
            browser.get(reset_link)
            print(browser.find_element(By.TAG_NAME, "h1").text)
            browser.find_element(By.ID, "new-password").send_keys(password)
            browser.find_element(By.ID, "repeat-password").send_keys(password)
            heading_after(browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click, "Your password was changed")
        finally:
            browser.quit()
        """

    @Test(.enabled(if: BrowserTests.browserIsInstalled, "Chromium and chromedriver are not installed: the browser test is skipped"))
    func aPersonConfirmsTheAddressAndResetsThePasswordInABrowser() throws {
        // The cookie of an http:// base URL is not Secure: the browser talks plain HTTP to 127.0.0.1.
        let baseURL = "http://hearth.test"
        let server = try ServerProcess(AccountsTests.serverArguments + ["--public-base-url", baseURL])
        defer { server.remove() }
        let registered = try server.graphQL(AccountsTests.register, variables: ["input": [
            "username": "ana", "email": "ana@example.com", "password": .string(AccountsTests.password),
        ]])
        let access = try #require(registered.data?["register"]?["tokens"]?["accessToken"]?.stringValue, "\(registered.json)")
        _ = try AccountEmailFlowTests.requestReset(server, email: "ana@example.com")
        // The links of the mails in the outbox, pointed at this server's port.
        let here = "http://127.0.0.1:\(server.port)"
        let confirm = try server.emailedToken(to: "ana@example.com", page: "confirm-email", baseURL: baseURL)
        let reset = try server.emailedToken(to: "ana@example.com", page: "reset-password", baseURL: baseURL)
        let password = AccountEmailFlowTests.newPassword

        let headings = try TestPython.runScript(Self.script, [
            Self.chromium, Self.chromedriver, "\(here)/confirm-email?token=\(confirm)", "\(here)/reset-password?token=\(reset)", password,
        ])
        #expect(headings == ["Confirm your email address", "Your address is confirmed", "Choose a new password", "Your password was changed"])
        let me = try server.graphQL(EmailLinkPagesTests.me, token: access)
        #expect(me.errorReason == "SESSION_REVOKED", "the reset ended every session")
        let signedIn = try AccountsTests.signIn(server, password: password)
        let tokens = try AccountsTests.tokens(signedIn.data?["login"])
        #expect(try EmailLinkPagesTests.isConfirmed(server, tokens.access) == true)
    }
}
