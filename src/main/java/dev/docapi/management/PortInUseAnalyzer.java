package dev.docapi.management;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * A start that fails on a taken port names the variable that moves it (issue 38): {@code DOCAPI_MANAGEMENT_PORT}
 * for the management port ({@link ManagementPort}, default 8081; a second node on one host meets this first),
 * {@code DOCAPI_PORT} for the main one. Spring Boot's own analysis says only "configure this application to listen on
 * another port". Ordered before it.
 */
public class PortInUseAnalyzer extends AbstractFailureAnalyzer<PortInUseException> implements Ordered {
    private final Environment env;

    public PortInUseAnalyzer(Environment env) {
        this.env = env;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    protected FailureAnalysis analyze(Throwable root, PortInUseException cause) {
        int port = cause.getPort();
        String variable = String.valueOf(port).equals(env.getProperty("docapi.management-port")) ? "DOCAPI_MANAGEMENT_PORT"
                : String.valueOf(port).equals(env.getProperty("docapi.port")) ? "DOCAPI_PORT" : null;
        if (variable == null) return null; // not one of ours: Spring Boot's analysis
        String what = variable.equals("DOCAPI_MANAGEMENT_PORT") ? "the management port (probes, metrics, admin API)" : "the API port";
        return new FailureAnalysis("docapi could not listen on " + what + " " + port + ": another process already listens there.",
                "Stop that process, or set " + variable + " to a free port (each node on one host needs its own "
                        + "DOCAPI_PORT and DOCAPI_MANAGEMENT_PORT; bin/docapi admin needs the same DOCAPI_MANAGEMENT_PORT).",
                cause);
    }
}
