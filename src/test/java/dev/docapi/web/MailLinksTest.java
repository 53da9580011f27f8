package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.LoginLinks;
import dev.docapi.accounts.LoginLinks.Purpose;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.TestMail;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Email verification and password reset over real SMTP, caught by GreenMail ({@link TestMail}), over real HTTP (issue 11). */
@Tag("database")
class MailLinksTest extends ApiTestBase {
    private static final String VERIFY = "Verify your email for docapi";
    private static final String RESET = "Reset your docapi password";
    private static final String PASSWORD = "correct horse battery";
    private static final String INVALID = "This link is not valid";

    @Autowired
    LoginLinks links;
    @Autowired
    JdbcClient db;

    private static String email() {
        return "mail-" + UUID.randomUUID() + "@example.com";
    }

    private String accountId(String email) {
        return accounts.findByEmail(email).orElseThrow().id();
    }

    private static HttpResponse<String> reset(AreaClient c, String link, String password) {
        return c.submit(AreaClient.path(link), "/reset", Map.of("token", AreaClient.token(link), "password", password));
    }

    @Test
    void theVerificationLinkWorksOnceAndUnlocksApiKeys() {
        String email = email();
        AreaClient c = new AreaClient(port);
        assertThat(AreaClient.location(c.signUpUnverified(email, PASSWORD))).endsWith("/keys");
        assertThat(c.get("/keys").body()).contains("Verify your email to create API keys").doesNotContain("id=\"name\"");
        assertThat(c.submit("/account", "/keys", Map.of("name", "too early")).body()).contains("Verify your email first");
        assertThat(accounts.listKeys(accountId(email))).isEmpty();

        String link = TestMail.awaitLink(email, VERIFY, 1);
        assertThat(c.get(AreaClient.path(link)).body()).as("opening the link does not use it").contains("Verify my email");
        assertThat(accounts.isEmailVerified(accountId(email))).isFalse();
        AreaClient anyBrowser = new AreaClient(port);
        assertThat(anyBrowser.verify(link).body()).contains("Your email is verified");
        assertThat(accounts.isEmailVerified(accountId(email))).isTrue();
        assertThat(anyBrowser.verify(link).body()).as("used once only").contains(INVALID);

        assertThat(c.submit("/keys", "/keys", Map.of("name", "now")).body()).contains("id=\"new-key\"");
        assertThat(accounts.listKeys(accountId(email))).hasSize(1);
    }

    @Test
    void anOwnerCanHaveTheVerificationLinkMailedAgain() {
        String email = email();
        AreaClient c = new AreaClient(port);
        c.signUpUnverified(email, PASSWORD);
        String first = TestMail.awaitLink(email, VERIFY, 1);
        assertThat(AreaClient.location(c.submit("/account", "/account/verify", Map.of()))).endsWith("/account?verification-sent");
        String second = TestMail.awaitLink(email, VERIFY, 2);
        assertThat(second).isNotEqualTo(first);
        assertThat(c.verify(second).body()).contains("Your email is verified");
        assertThat(c.get("/account").body()).doesNotContain("Mail me the link again");
    }

    @Test
    void mailingTheVerificationLinkAgainIsThrottledPerOwner() {
        String email = email();
        AreaClient c = new AreaClient(port);
        c.signUpUnverified(email, PASSWORD);
        TestMail.awaitLink(email, VERIFY, 1);
        for (int i = 0; i < WebSecurityConfig.ATTEMPTS_PER_EMAIL; i++) {
            assertThat(AreaClient.location(c.submit("/account", "/account/verify", Map.of()))).endsWith("/account?verification-sent");
        }
        HttpResponse<String> refused = c.submit("/account", "/account/verify", Map.of());
        assertThat(AreaClient.location(refused)).endsWith("/account?throttled");
        assertThat(c.get("/account?throttled").body()).contains("Too many links asked for");
        TestMail.awaitLink(email, VERIFY, 1 + WebSecurityConfig.ATTEMPTS_PER_EMAIL);
        assertThat(TestMail.mails(email, VERIFY)).as("no mail for the refused request").hasSize(1 + WebSecurityConfig.ATTEMPTS_PER_EMAIL);
    }

    @Test
    void forgotPasswordAnswersAlikeForAnyEmailAndMailsAOneTimeLinkThatEndsOtherSessions() {
        String email = email();
        AreaClient owner = new AreaClient(port);
        owner.signUp(email, PASSWORD);
        assertThat(owner.get("/keys").statusCode()).isEqualTo(200);
        assertThat(owner.get("/signin").body()).contains("Forgot your password?");

        AreaClient c = new AreaClient(port);
        String unknown = email();
        String known = c.submit("/signin/forgot", "/signin/forgot", Map.of("email", email)).body();
        String other = c.submit("/signin/forgot", "/signin/forgot", Map.of("email", unknown)).body();
        assertThat(withoutCsrfToken(known)).contains("If an account has this email").isEqualTo(withoutCsrfToken(other.replace(unknown, email)));
        String link = TestMail.awaitLink(email, RESET, 1);
        assertThat(TestMail.mails(unknown, RESET)).isEmpty();

        assertThat(reset(c, link, "short").body()).as("a refused password leaves the link usable").contains("at least 10 characters");
        HttpResponse<String> done = reset(c, link, "a brand new password");
        assertThat(AreaClient.location(done)).endsWith("/signin?reset");
        assertThat(AreaClient.location(owner.get("/keys"))).as("the owner's other session ended").endsWith("/signin?expired");
        assertThat(reset(c, link, "yet another password").body()).as("used once only").contains(INVALID);

        assertThat(AreaClient.location(new AreaClient(port).signIn(email, PASSWORD))).endsWith("/signin?error");
        AreaClient again = new AreaClient(port);
        assertThat(AreaClient.location(again.signIn(email, "a brand new password"))).doesNotContain("error");
        assertThat(again.get("/keys").statusCode()).isEqualTo(200);
    }

    @Test
    void aResetLinkExpires() {
        String email = email();
        new AreaClient(port).signUp(email, PASSWORD);
        AreaClient c = new AreaClient(port);
        c.submit("/signin/forgot", "/signin/forgot", Map.of("email", email));
        String link = TestMail.awaitLink(email, RESET, 1);
        // 30 minutes pass
        db.sql("UPDATE login_links SET expires_at = ? WHERE account_id = ? AND purpose = 'reset_password'")
                .params(System.currentTimeMillis() - 1, accountId(email)).update();
        assertThat(reset(c, link, "a brand new password").body()).contains(INVALID);
        assertThat(AreaClient.location(c.signIn(email, PASSWORD))).doesNotContain("error");
    }

    @Test
    void aLinkActsOnlyOnItsOwnAccountAndForItsOwnPurpose() {
        String victim = email();
        String attacker = email();
        new AreaClient(port).signUp(victim, PASSWORD);
        AreaClient signedIn = new AreaClient(port);
        signedIn.signUp(attacker, PASSWORD);

        // the attacker's own reset link, used while signed in, changes the attacker's password only
        signedIn.submit("/signin/forgot", "/signin/forgot", Map.of("email", attacker));
        String own = TestMail.awaitLink(attacker, RESET, 1);
        assertThat(AreaClient.location(reset(signedIn, own, "the attacker's new one"))).endsWith("/signin?reset");
        assertThat(AreaClient.location(new AreaClient(port).signIn(victim, PASSWORD))).as("victim unchanged").doesNotContain("error");
        assertThat(signedIn.get("/account").body()).as("the session that reset stays itself").contains(attacker).doesNotContain(victim);

        // tokens of another purpose are refused, and stay unused
        String verifyToken = links.create(accountId(victim), Purpose.VERIFY_EMAIL);
        assertThat(signedIn.submit("/reset?token=" + verifyToken, "/reset", Map.of("token", verifyToken, "password", "taken over!!")).body()).contains(INVALID);
        String resetToken = links.create(accountId(victim), Purpose.RESET_PASSWORD);
        assertThat(signedIn.submit("/signin/link?token=" + resetToken, "/signin/link", Map.of("token", resetToken)).body()).contains(INVALID);
        assertThat(AreaClient.location(new AreaClient(port).signIn(victim, PASSWORD))).doesNotContain("error");
        assertThat(AreaClient.location(reset(signedIn, "/reset?token=" + resetToken, "the owner's own choice"))).endsWith("/signin?reset");
    }

    /** The page with its CSRF token left out: Spring Security masks it anew for every response (BREACH). */
    private static String withoutCsrfToken(String page) {
        return page.replaceAll("(<meta name=\"_csrf\" content=\")[^\"]*", "$1");
    }
}
