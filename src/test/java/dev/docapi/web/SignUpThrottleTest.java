package dev.docapi.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.limits.RequestBuckets;
import io.github.bucket4j.TimeMeter;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** Issue 40 item 5: {@code POST /signup} is throttled per client address (the suite's own context allows any number). */
class SignUpThrottleTest {

    @Test
    void signUpsPastTheAddressBudgetComeBackThrottledAndOtherAddressesStillSignUp() throws Exception {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + UUID.randomUUID());
        SignInThrottle throttle = new SignInThrottle(RequestBuckets.forDatabase(h2, 5, TimeMeter.SYSTEM_MILLISECONDS),
                RequestBuckets.forDatabase(h2, 20, TimeMeter.SYSTEM_MILLISECONDS), RequestBuckets.forDatabase(h2, 3, TimeMeter.SYSTEM_MILLISECONDS));
        for (int i = 0; i < 3; i++) {
            assertThat(signUp(throttle, "203.0.113.9", "owner" + i + "@example.com").getRedirectedUrl()).as("sign-up %d", i).isNull();
        }
        MockHttpServletResponse fourth = signUp(throttle, "203.0.113.9", "owner3@example.com");
        assertThat(fourth.getRedirectedUrl()).isEqualTo("/signup?throttled");
        assertThat(signUp(throttle, "203.0.113.10", "other@example.com").getRedirectedUrl()).isNull();
    }

    /** A sign-up form post through the throttle: a redirect when throttled, null when it went on to the form's handler. */
    private static MockHttpServletResponse signUp(SignInThrottle throttle, String address, String email) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/signup");
        request.setServletPath("/signup");
        request.setRemoteAddr(address);
        request.addParameter("email", email);
        request.addParameter("password", "a long enough password");
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        throttle.doFilter(request, response, chain);
        assertThat(chain.getRequest() != null).as("passed on").isEqualTo(response.getRedirectedUrl() == null);
        return response;
    }
}
