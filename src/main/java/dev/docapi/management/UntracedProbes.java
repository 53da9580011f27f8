package dev.docapi.management;

import io.micrometer.observation.ObservationPredicate;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Probes and metric scrapes ({@code /actuator/**} on the management port) are not observed (issue 38): no span, no
 * {@code http_server_requests} sample. A balancer checking every second made 95 % of all spans
 * {@code GET /actuator/health/**}. Observations made within such a request (Spring Security's filter chain) are
 * dropped with it, else each would start a trace of its own. The admin API ({@code /admin/**}) is traced.
 */
@Configuration
class UntracedProbes {
    @Bean
    ObservationPredicate noProbeObservations() {
        return (name, context) -> {
            HttpServletRequest request = context instanceof ServerRequestObservationContext server ? server.getCarrier() : currentRequest();
            return request == null || !isProbeOrScrape(request.getRequestURI());
        };
    }

    static boolean isProbeOrScrape(String path) {
        return path != null && (path.equals("/actuator") || path.startsWith("/actuator/"));
    }

    private static HttpServletRequest currentRequest() {
        return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes a ? a.getRequest() : null;
    }
}
