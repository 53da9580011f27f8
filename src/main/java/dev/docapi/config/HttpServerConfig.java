package dev.docapi.config;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.ServerConnector;
import org.springframework.boot.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The HTTP server's listening socket keeps up to {@link #ACCEPT_QUEUE} connections waiting to be accepted. Jetty's
 * default (the JDK's 50) let a burst of simultaneous new connections overflow it: with SYN cookies the kernel then
 * reset some connections after their request was sent, and clients saw the connection close with no answer (a few of
 * 200 simultaneous operation requests in CI, 12 of 400 here; {@code nstat} counted them as {@code SyncookiesFailed}).
 * Linux caps the value at {@code net.core.somaxconn} (4096 by default).
 */
@Configuration
public class HttpServerConfig {
    static final int ACCEPT_QUEUE = 1024;

    @Bean
    WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory> acceptQueue() {
        return factory -> factory.addServerCustomizers(server -> {
            for (Connector c : server.getConnectors()) {
                if (c instanceof ServerConnector connector) connector.setAcceptQueueSize(ACCEPT_QUEUE);
            }
        });
    }
}
