package dev.docapi.management;

import dev.docapi.config.DocapiProperties;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code Docapi-Node: <DOCAPI_NODE_NAME>} on every response, so an operator behind a balancer sees which node answered;
 * the same name tags every metric ({@code node}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class NodeHeader extends OncePerRequestFilter {
    public static final String HEADER = "Docapi-Node";
    private final String node;

    public NodeHeader(DocapiProperties props) {
        this.node = props.nodeName();
    }

    @Bean
    static MeterRegistryCustomizer<MeterRegistry> nodeTag(DocapiProperties props) {
        return registry -> registry.config().commonTags("node", props.nodeName());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        response.setHeader(HEADER, node);
        chain.doFilter(request, response);
    }
}
