package dev.docapi.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.docapi.accounts.AccountService;
import dev.docapi.http.ErrorWriter;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

/**
 * A request whose key cannot be checked because no database connection comes answers 503 {@code service_unavailable}
 * with {@code Retry-After}, never a 500 (issue 15: in a burst the first connection of a request is the one that waits
 * longest). The pool is real and points at a port where nothing listens.
 */
class DatabaseUnavailableTest {

    @Test
    void aKeyThatCannotBeCheckedAnswers503WithRetryAfter() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (HikariDataSource ds = new HikariDataSource()) {
            ds.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + closedPort + "/none");
            ds.setConnectionTimeout(250);
            ds.setInitializationFailTimeout(-1);
            AuthFilter filter = new AuthFilter(new AccountService(JdbcClient.create(ds), null), new ErrorWriter(JsonMapper.builder().build(), new io.micrometer.core.instrument.simple.SimpleMeterRegistry()));
            MockHttpServletRequest request = new MockHttpServletRequest("GET", "/v1/jobs");
            request.setServletPath("/v1/jobs");
            request.addHeader("Authorization", "Bearer dk_abc_secret");
            MockHttpServletResponse response = new MockHttpServletResponse();
            MockFilterChain chain = new MockFilterChain();

            filter.doFilter(request, response, chain);

            assertThat(response.getStatus()).isEqualTo(503);
            assertThat(response.getHeader("Retry-After")).isEqualTo("2");
            assertThat(response.getContentAsString()).contains("\"service_unavailable\"");
            assertThat(chain.getRequest()).as("the request went no further").isNull();
        }
    }
}
