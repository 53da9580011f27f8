package dev.docapi.mcp;

import dev.docapi.core.J;
import dev.docapi.accounts.Account;
import dev.docapi.http.Authenticated;
import dev.docapi.config.PublicBaseUrl;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapperSupplier;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.ServerHttpHeaderValidator;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.core.Ordered;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The MCP server at {@code /v1/mcp} (spec §4.2 {@code POST /mcp}): the official SDK's Streamable HTTP transport in
 * its <b>stateless</b> form ({@link HttpServletStatelessServerTransport}): every POST carries a whole JSON-RPC
 * exchange and no session is kept, so any node behind a load balancer can answer any request. The servlet sits
 * behind the same {@link dev.docapi.api.AuthFilter} as the HTTP API (same key, same 401s); the authenticated account
 * travels to the tool handlers in the transport context.
 */
@Configuration
public class McpServerConfig {
    static final String ACCOUNT = "docapi.account";
    public static final String PATH = "/v1/mcp";
    /** Largest JSON-RPC request accepted: room for a 10 MB file in base64 plus the call around it. */
    static final int MAX_REQUEST_BYTES = 15 * 1024 * 1024;

    @Bean
    HttpServletStatelessServerTransport mcpTransport(PublicBaseUrl baseUrl,
                                                     @Value("${docapi.mcp.allowed-origins:}") String allowedOrigins,
                                                     @Value("${docapi.mcp.allowed-hosts:}") String allowedHosts) {
        return HttpServletStatelessServerTransport.builder()
                .jsonMapper(mcpJson())
                .messageEndpoint(PATH)
                .maxRequestSize(MAX_REQUEST_BYTES)
                .httpHeaderValidator(originAndHost(baseUrl, split(allowedOrigins), split(allowedHosts)))
                .contextExtractor(request -> {
                    Account account = Authenticated.optional(request);
                    return account == null ? McpTransportContext.EMPTY : McpTransportContext.create(J.o(ACCOUNT, account));
                })
                .build();
    }

    @Bean(destroyMethod = "close")
    McpStatelessSyncServer mcpServer(HttpServletStatelessServerTransport transport, McpTools tools) {
        return McpServer.sync(transport)
                .serverInfo("docapi", "1.0.0")
                .instructions("Document tools: compress, OCR, convert, merge, split, rotate, organise, watermark, protect and more. "
                        + "Give files as a file id, an http(s) URL, or {name, content_base64} (up to 10 MB). Results carry one-hour "
                        + "download_url links; a job still running after 'wait' seconds is returned with its id: poll it with get_job.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .jsonMapper(mcpJson())
                // Arguments are checked by the operations' own declarations, which answer with the API's error codes.
                .validateToolInputs(false)
                // Run tool calls on the request's (virtual) thread: a call waits for its job, so no shared pool is blocked.
                .immediateExecution(true)
                .tools(tools.all())
                .build();
    }

    @Bean
    ServletRegistrationBean<HttpServletStatelessServerTransport> mcpServlet(HttpServletStatelessServerTransport transport) {
        ServletRegistrationBean<HttpServletStatelessServerTransport> bean = new ServletRegistrationBean<>(transport, PATH);
        bean.setName("mcp");
        bean.setAsyncSupported(true);
        bean.setLoadOnStartup(1);
        return bean;
    }

    /** After the {@link dev.docapi.api.AuthFilter}: the transport's own refusals in the API's error shape. */
    @Bean
    FilterRegistrationBean<McpErrorFilter> mcpErrors() {
        FilterRegistrationBean<McpErrorFilter> bean = new FilterRegistrationBean<>(new McpErrorFilter());
        bean.addUrlPatterns(PATH);
        // Last, next to the servlet: the auth and rate-limit filters answer before it in their own (API) shape.
        bean.setOrder(Ordered.LOWEST_PRECEDENCE - 10);
        return bean;
    }

    /** Between the error filter and the servlet: unknown tools and non-object arguments as JSON-RPC errors. */
    @Bean
    FilterRegistrationBean<McpCallCheck> mcpCallCheck(McpTools tools) {
        FilterRegistrationBean<McpCallCheck> bean = new FilterRegistrationBean<>(
                new McpCallCheck(tools.all().stream().map(t -> t.tool().name()).toList()));
        bean.addUrlPatterns(PATH);
        bean.setOrder(Ordered.LOWEST_PRECEDENCE - 5);
        return bean;
    }

    /**
     * Browsers may only call from the service's own origin or a configured one ({@code DOCAPI_MCP_ALLOWED_ORIGINS});
     * requests without an Origin (desktop and server clients) pass. Host is checked only when
     * {@code DOCAPI_MCP_ALLOWED_HOSTS} is set: every call needs an API key, which a DNS-rebinding page does not have.
     */
    static ServerHttpHeaderValidator originAndHost(PublicBaseUrl baseUrl, List<String> origins, List<String> hosts) {
        return headers -> {
            List<String> allowed = new ArrayList<>(origins);
            URI base = URI.create(baseUrl.get());
            allowed.add(base.getScheme() + "://" + base.getHost() + (base.getPort() > 0 ? ":" + base.getPort() : ""));
            DefaultServerTransportSecurityValidator.builder().allowedOrigins(allowed).allowedHosts(hosts).build().validate(headers);
        };
    }

    private static McpJsonMapper mcpJson() {
        // The SDK's own mapper: the application's JsonMapper uses snake_case names, which MCP messages must not.
        return new JacksonMcpJsonMapperSupplier().get();
    }

    private static List<String> split(String csv) {
        return csv == null || csv.isBlank() ? List.of() : Arrays.stream(csv.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
