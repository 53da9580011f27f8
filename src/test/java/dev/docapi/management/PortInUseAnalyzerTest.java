package dev.docapi.management;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.http.ErrorWriter;
import dev.docapi.config.DocapiProperties;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.mock.env.MockEnvironment;
import tools.jackson.databind.json.JsonMapper;

/**
 * A second node on one host (issue 38): the real Jetty server with the management connector on a taken port fails with
 * the port it could not bind, and the start error names {@code DOCAPI_MANAGEMENT_PORT}.
 */
class PortInUseAnalyzerTest {

    @Test
    void aTakenManagementPortNamesDocapiManagementPort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("0.0.0.0"))) {
            int port = taken.getLocalPort();
            DocapiProperties props = new DocapiProperties(0, Path.of("."), null, null, null, null, 1, false,
                    Duration.ZERO, 0, port, "n1");
            ManagementPort management = new ManagementPort(props, new ErrorWriter(JsonMapper.builder().build(), new SimpleMeterRegistry()), null);
            JettyServletWebServerFactory factory = new JettyServletWebServerFactory(0);
            management.customize(factory);
            WebServer server = factory.getWebServer();
            PortInUseException failure = null;
            try {
                server.start();
            } catch (PortInUseException e) {
                failure = e;
            } finally {
                server.stop();
            }
            assertThat(failure).as("the server started on a taken port").isNotNull();
            assertThat(failure.getPort()).isEqualTo(port);

            MockEnvironment env = new MockEnvironment().withProperty("docapi.management-port", String.valueOf(port)).withProperty("docapi.port", "8080");
            FailureAnalysis analysis = new PortInUseAnalyzer(env).analyze(failure);
            assertThat(analysis.getDescription()).contains("management port", String.valueOf(port));
            assertThat(analysis.getAction()).contains("DOCAPI_MANAGEMENT_PORT");

            FailureAnalysis api = new PortInUseAnalyzer(env).analyze(new PortInUseException(8080));
            assertThat(api.getAction()).contains("set DOCAPI_PORT");
            assertThat(new PortInUseAnalyzer(env).analyze(new PortInUseException(9999))).as("not ours: Spring Boot's analysis").isNull();
        }
    }
}
