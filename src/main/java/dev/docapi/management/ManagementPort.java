package dev.docapi.management;

import dev.docapi.http.ErrorWriter;
import dev.docapi.config.DocapiProperties;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.eclipse.jetty.server.ServerConnector;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The management port (issue 24; {@code DOCAPI_MANAGEMENT_PORT}, default 8081): probes, Prometheus metrics
 * ({@code /actuator/**}) and the admin API ({@code /admin/**}) answer there and only there; the API and the developer
 * area answer only on the main port. A balancer that routes the main port therefore never exposes them.
 *
 * <p>It is a second connector of the one Jetty server, not Spring Boot's separate management server: that one is a
 * child context closed as soon as the service is told to stop, so its probes would vanish (connection refused, liveness
 * failing) for the whole drain of running jobs. Here readiness answers DOWN from the first moment of the stop
 * ({@code REFUSING_TRAFFIC}) while liveness stays UP until the last job has finished and the server stops.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class ManagementPort extends OncePerRequestFilter implements WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory> {
    private final DocapiProperties props;
    private final ErrorWriter errors;
    private final String address;
    private volatile ServerConnector connector;

    /** @param address the address the management connector binds ({@code DOCAPI_MANAGEMENT_ADDRESS}); blank: every interface */
    public ManagementPort(DocapiProperties props, ErrorWriter errors, @Value("${docapi.management-address:}") String address) {
        this.props = props;
        this.errors = errors;
        this.address = address == null || address.isBlank() ? null : address.strip();
    }

    @Override
    public void customize(ConfigurableJettyWebServerFactory factory) {
        factory.addServerCustomizers(server -> {
            ServerConnector c = new ServerConnector(server);
            c.setName("management");
            c.setPort(props.managementPort());
            c.setHost(address);
            server.addConnector(c);
            connector = c;
        });
    }

    /** The port the management connector listens on (the bound one when configured as 0); -1 before the server starts. */
    public int port() {
        ServerConnector c = connector;
        return c == null ? -1 : c.getLocalPort();
    }

    /** True for the paths served on the management port only. */
    public static boolean isManagementPath(HttpServletRequest request) {
        String p = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        return p.equals("/actuator") || p.startsWith("/actuator/") || p.startsWith("/admin/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        boolean onManagementPort = request.getLocalPort() == port();
        if (onManagementPort != isManagementPath(request)) {
            errors.write(response, new ApiException(ErrorCode.NOT_FOUND, onManagementPort
                    ? "the management port serves /actuator and /admin only"
                    : "no such resource"));
            return;
        }
        chain.doFilter(request, response);
    }
}
