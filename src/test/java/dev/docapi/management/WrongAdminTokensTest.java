package dev.docapi.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** Issue 40 item 5: wrong admin tokens are counted and, past the budget of an address, refused before any comparison. */
class WrongAdminTokensTest {

    @Test
    void anAddressPastItsBudgetIsRefusedWhateverItSendsAndOthersAreNot() throws Exception {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + UUID.randomUUID());
        WrongAdminTokens tokens = new WrongAdminTokens(h2);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        tokens.bindTo(meters);

        for (int i = 0; i < WrongAdminTokens.PER_MINUTE; i++) {
            tokens.checkNotBlocked("192.0.2.7");
            tokens.wrong("192.0.2.7"); // the caller answers 401
        }
        ApiException past = catchThrowableOfType(ApiException.class, () -> tokens.wrong("192.0.2.7"));
        assertThat(past.code()).isEqualTo(ErrorCode.RATE_LIMITED);
        assertThat(past.retryAfterSeconds()).isBetween(1L, 61L);
        // blocked: refused before its token is looked at, so a right one fares as a wrong one
        ApiException blocked = catchThrowableOfType(ApiException.class, () -> tokens.checkNotBlocked("192.0.2.7"));
        assertThat(blocked.code()).isEqualTo(ErrorCode.RATE_LIMITED);
        assertThat(blocked.getMessage()).doesNotContain("192.0.2.7");
        assertThatCode(() -> tokens.checkNotBlocked("198.51.100.1")).doesNotThrowAnyException();
        assertThat(meters.get("docapi.admin.wrong.tokens").functionCounter().count()).isEqualTo(WrongAdminTokens.PER_MINUTE + 1);
    }
}
