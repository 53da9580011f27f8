package dev.docapi.config;

import java.util.Arrays;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.CorsFilter;

/**
 * Cross-origin access for browser clients (issue 13), by Spring's {@link CorsFilter} ahead of authentication, so a
 * preflight ({@code OPTIONS}) never needs a key. {@code GET /v1/openapi.json} is open to every origin; the other
 * routes only to the origins in {@code DOCAPI_CORS_ORIGINS} (comma-separated; none by default, since they carry an
 * API key that belongs on a server).
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
            api.setAllowedOrigins(allowed);
            api.setAllowedMethods(List.of("GET", "POST", "DELETE", "HEAD"));
            api.setAllowedHeaders(List.of("Authorization", "X-API-Key", "Content-Type", "Accept", "Mcp-Session-Id", "Mcp-Protocol-Version"));
            api.setExposedHeaders(EXPOSED);
            api.setMaxAge(3600L);
            source.registerCorsConfiguration("/v1/**", api);
        }
        FilterRegistrationBean<CorsFilter> bean = new FilterRegistrationBean<>(new CorsFilter(source));
        bean.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return bean;
    }
}
