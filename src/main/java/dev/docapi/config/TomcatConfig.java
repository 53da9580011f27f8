package dev.docapi.config;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * Answers {@code Expect: 100-continue} only when the body is actually read, so an upload refused from its headers
 * (413 over 100 MB, 401) is refused before the client sends a byte of it.
 */
@Component
public class TomcatConfig implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {
    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addConnectorCustomizers(connector -> connector.setProperty("continueResponseTiming", "onRead"));
    }
}
