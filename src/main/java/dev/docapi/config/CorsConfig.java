package dev.docapi.config;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.cors.DefaultCorsProcessor;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.CorsFilter;

/**
 * Cross-origin access for browser clients (issue 13), by Spring's {@link CorsFilter} ahead of authentication, so a
 * preflight ({@code OPTIONS}) never needs a key. {@code GET /v1/openapi.json} is open to every origin; the other
 * routes only to the origins in {@code DOCAPI_CORS_ORIGINS} (comma-separated; none by default, since they carry an
 * API key that belongs on a server). Entries are Spring origin patterns: {@code https://app.example.com},
 * {@code https://*.example.com}, {@code http://localhost:[*]}.
 */
@Configuration
public class CorsConfig {
    /** Response headers a browser client needs to read: where a job is, when to retry, the rate limit. */
    private static final List<String> EXPOSED = List.of("Location", "Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining",
            "X-RateLimit-Reset", "Content-Disposition");

    @Bean
    FilterRegistrationBean<CorsFilter> corsFilter(@Value("${docapi.cors-origins:}") String origins) {
        UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
        CorsConfiguration openapi = new CorsConfiguration();
        openapi.addAllowedOrigin("*");
        openapi.setAllowedMethods(List.of("GET", "HEAD"));
        openapi.setMaxAge(3600L);
        source.registerCorsConfiguration("/v1/openapi.json", openapi);
        List<String> allowed = Arrays.stream(origins.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        if (!allowed.isEmpty()) {
            CorsConfiguration api = new CorsConfiguration();
            api.setAllowedOriginPatterns(allowed);
            api.setAllowedMethods(List.of("GET", "POST", "DELETE", "HEAD"));
            api.setAllowedHeaders(List.of("Authorization", "X-API-Key", "Content-Type", "Accept", "Mcp-Session-Id", "Mcp-Protocol-Version"));
            api.setExposedHeaders(EXPOSED);
            api.setMaxAge(3600L);
            source.registerCorsConfiguration("/v1/**", api);
        }
        CorsFilter filter = new CorsFilter(source);
        filter.setCorsProcessor(new PassThroughProcessor());
        FilterRegistrationBean<CorsFilter> bean = new FilterRegistrationBean<>(filter);
        bean.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return bean;
    }

    /**
     * Refuses only preflights from origins not allowed. An actual request from such an origin goes on without CORS
     * headers (the browser then withholds the answer), so it meets the API's own rules and error shape — e.g. the
     * MCP endpoint's Origin check — rather than a bare 403 "Invalid CORS request".
     */
    static final class PassThroughProcessor extends DefaultCorsProcessor {
        @Override
        public boolean processRequest(CorsConfiguration config, HttpServletRequest request, HttpServletResponse response) throws IOException {
            if (config != null && !CorsUtils.isPreFlightRequest(request) && config.checkOrigin(request.getHeader("Origin")) == null) return true;
            return super.processRequest(config, request, response);
        }
    }
}
