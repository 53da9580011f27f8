package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.ui.ExtendedModelMap;
import org.springframework.web.server.ResponseStatusException;

/**
 * Without {@code DOCAPI_SMTP_URL} there is no {@code AccountMail}: no "forgot password" link, and the mailed links'
 * pages answer 404 (the shared test context has SMTP: {@code MailLinksTest} covers that side).
 */
class WithoutSmtpTest {
    @Test
    void theSignInPageOffersNoReset() {
        var model = new ExtendedModelMap();
        new SignInController(null, null, null, null, "open", null, Optional.empty(), null, null).signIn(model);
        assertThat(model.get("resetOffered")).isEqualTo(false);
    }

    @Test
    void theMailedLinksPagesAre404() {
        var pages = new MailLinksController(null, null, null, null, null, Optional.empty());
        var model = new ExtendedModelMap();
        for (Runnable page : new Runnable[] {pages::forgotPage, () -> pages.forgot("a@example.com", model),
                () -> pages.resetPage("t", model), () -> pages.reset("t", "a long enough password", model, null),
                () -> pages.verifyPage("t", model), () -> pages.verify("t", model)}) {
            assertThatThrownBy(page::run).isInstanceOfSatisfying(ResponseStatusException.class,
                    e -> assertThat(e.getStatusCode().value()).isEqualTo(404));
        }
    }
}
