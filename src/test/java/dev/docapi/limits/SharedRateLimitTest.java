package dev.docapi.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.api.AuthFilter;
import dev.docapi.http.ErrorWriter;
import dev.docapi.support.ApiTestBase;
import io.github.bucket4j.TimeMeter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/**
 * The request limit across nodes (issue 15, spec §8): two limiters built as two nodes build theirs, over the test
 * database's one DataSource, each a real {@link RateLimitFilter} behind the real {@link AuthFilter}. On PostgreSQL
 * they share one budget per key; on H2 (the embedded single-node default) each node keeps its own budget in memory.
 * The limiters run on a frozen clock, so the greedy refill adds no token while a test runs.
 */
@Tag("database")
class SharedRateLimitTest extends ApiTestBase {
    private static final int LIMIT = 120;
    /** Stands for the operation behind the filters: answers 200. */
    private static final HttpServlet OK = new HttpServlet() {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) {
            response.setStatus(200);
        }
    };

    @Autowired DataSource dataSource;
    @Autowired AuthFilter auth;
    @Autowired ErrorWriter errors;
    @Autowired JdbcClient db;

    private final AtomicLong nowNanos = new AtomicLong(TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis()));
    private final TimeMeter clock = new TimeMeter() {
        @Override
        public long currentTimeNanos() {
            return nowNanos.get();
        }

        @Override
        public boolean isWallClockBased() {
            return true;
        }
    };

    private RequestBuckets node() throws Exception {
        return RequestBuckets.forDatabase(dataSource, LIMIT, clock);
    }

    private MockHttpServletResponse get(RateLimitFilter node, String key) throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", "/v1/jobs");
        request.setServletPath("/v1/jobs");
        request.addHeader("Authorization", "Bearer " + key);
        MockHttpServletResponse response = new MockHttpServletResponse();
        new MockFilterChain(OK, auth, node).doFilter(request, response);
        return response;
    }

    @Test
    void requestsAlternatingBetweenTwoNodesShareOneBudgetOnPostgreSqlAndHaveOneBudgetPerNodeOnH2() throws Exception {
        RequestBuckets bucketsA = node(), bucketsB = node();
        boolean shared = bucketsA instanceof SharedRequestBuckets;
        assertThat(shared).as("shared exactly when the test database is PostgreSQL")
                .isEqualTo(System.getenv("DOCAPI_TEST_DATABASE_URL") != null);
        RateLimitFilter nodeA = new RateLimitFilter(errors, bucketsA), nodeB = new RateLimitFilter(errors, bucketsB);
        String key = newKey();
        int budget = shared ? LIMIT : 2 * LIMIT;

        for (int i = 0; i < 130; i++) {
            MockHttpServletResponse r = get(i % 2 == 0 ? nodeA : nodeB, key);
            assertThat(r.getHeader("X-RateLimit-Limit")).isEqualTo(String.valueOf(LIMIT));
            if (i < budget) {
                assertThat(r.getStatus()).as("request %d", i + 1).isEqualTo(200);
                int remaining = shared ? LIMIT - 1 - i : LIMIT - 1 - i / 2;
                assertThat(r.getHeader("X-RateLimit-Remaining")).as("request %d", i + 1).isEqualTo(String.valueOf(remaining));
            } else {
                assertThat(r.getStatus()).as("request %d", i + 1).isEqualTo(429);
                assertThat(r.getContentAsString()).contains("\"rate_limited\"");
                // one token comes back every 60/120 s: the next whole second
                assertThat(r.getHeader("Retry-After")).isEqualTo("1");
                assertThat(r.getHeader("X-RateLimit-Remaining")).isEqualTo("0");
            }
        }
        assertThat(get(nodeB, newKey()).getStatus()).as("another key has its own budget").isEqualTo(200);
        nowNanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        assertThat(get(nodeB, key).getStatus()).as("after Retry-After").isEqualTo(200);
    }

    @Test
    void aDatabaseErrorFailsOpenToThisNodesOwnBudgetInsteadOfA500() throws Exception {
        // nothing listens on port 1: every shared call fails at once
        RequestBuckets unreachable = new SharedRequestBuckets(
                new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/none"), LIMIT, clock);
        RateLimitFilter node = new RateLimitFilter(errors, unreachable);
        String key = newKey();
        for (int i = 0; i < LIMIT; i++) assertThat(get(node, key).getStatus()).as("request %d", i + 1).isEqualTo(200);
        MockHttpServletResponse refused = get(node, key);
        assertThat(refused.getStatus()).isEqualTo(429);
        assertThat(refused.getHeader("Retry-After")).isEqualTo("1");
    }

    @Test
    void theRowOfAKeyIsDeletedOnceItsBucketIsFullAgain() throws Exception {
        RequestBuckets buckets = node();
        Assumptions.assumeTrue(buckets instanceof SharedRequestBuckets, "H2 keeps no rows (buckets in memory)");
        RateLimitFilter node = new RateLimitFilter(errors, buckets);
        String key = newKey();
        String id = key.substring(0, key.indexOf('_', 3));
        for (int i = 0; i < 3; i++) get(node, key);
        buckets.forgetIdle();
        assertThat(rows(id)).as("3 tokens short: kept").isEqualTo(1);

        // 3 tokens refill in 1.5 s; Bucket4j's removeExpired compares with the system clock, not the limiter's
        Thread.sleep(2000);
        nowNanos.addAndGet(TimeUnit.SECONDS.toNanos(2));
        buckets.forgetIdle();
        assertThat(rows(id)).as("full again: deleted").isZero();
        assertThat(get(node, key).getHeader("X-RateLimit-Remaining")).as("a new full bucket").isEqualTo(String.valueOf(LIMIT - 1));
    }

    private long rows(String id) {
        return db.sql("SELECT COUNT(*) FROM rate_limit_buckets WHERE id = ?").param(id).query(Long.class).single();
    }
}
