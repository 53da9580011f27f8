package dev.docapi.limits;

import dev.docapi.core.ApiException;
import dev.docapi.http.Authenticated;
import dev.docapi.core.ErrorCode;
import dev.docapi.http.ErrorWriter;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code docapi.limits.requests-per-minute} (default 120) requests per minute per API key (spec §8), counted in
 * {@link RequestBuckets}: shared by all nodes on PostgreSQL, per node on H2. Every counted response carries
 * {@code X-RateLimit-Limit} and {@code X-RateLimit-Remaining}; past the limit: 429 {@code rate_limited} with
 * {@code Retry-After} in whole seconds (DESIGN §4). Runs after {@link dev.docapi.api.AuthFilter}: requests without a
 * valid key are not counted (they get 401).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class RateLimitFilter extends OncePerRequestFilter {
    private final ErrorWriter errors;
    private final RequestBuckets buckets;

    public RateLimitFilter(ErrorWriter errors, RequestBuckets buckets) {
        this.errors = errors;
        this.buckets = buckets;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String key = Authenticated.optional(request) == null ? null : keyId(request);
        if (key == null) {
            chain.doFilter(request, response);
            return;
        }
        int perMinute = buckets.perMinute();
        ConsumptionProbe probe = buckets.tryConsume(key);
        response.setHeader("X-RateLimit-Limit", String.valueOf(perMinute));
        response.setHeader("X-RateLimit-Remaining", String.valueOf(probe.getRemainingTokens()));
        if (!probe.isConsumed()) {
            long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(probe.getNanosToWaitForRefill() + 999_999_999L));
            errors.write(response, new ApiException(ErrorCode.RATE_LIMITED,
                    "more than " + perMinute + " requests per minute with this API key; retry after " + seconds + " s", seconds, null));
            return;
        }
        chain.doFilter(request, response);
    }

    /** The key's public prefix ({@code dk_<prefix>_...}) identifies it without keeping the secret as a map key. */
    private static String keyId(HttpServletRequest request) {
        String auth = request.getHeader("Authorization");
        String key = auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7) ? auth.substring(7).strip() : null;
        if (key == null || key.isEmpty()) key = request.getHeader("X-API-Key");
        if (key == null) return null;
        key = key.strip();
        int second = key.indexOf('_', 3);
        return key.startsWith("dk_") && second > 3 ? key.substring(0, second) : Integer.toHexString(key.hashCode()) + key.length();
    }
}
