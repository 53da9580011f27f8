package dev.docapi.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Settings derived from the node's name and the log format before logging starts (issue 38; docs/operations.md
 * "Logs"). Runs after the configuration files are read (so {@code DOCAPI_*} are resolved) and before Spring Boot's
 * logging system reads {@code logging.structured.*}.
 *
 * <ul>
 *   <li>{@code DOCAPI_LOG_FORMAT}: {@code json} is ECS JSON (Spring Boot knows only {@code ecs}, {@code logstash} and
 *   {@code gelf}, and stopped the node at start on {@code json}); {@code text} or unset is plain text; any other word
 *   stops the start with a message naming the accepted values (a fully qualified class name is passed on to Spring
 *   Boot as a custom formatter).</li>
 *   <li>The node's name ({@code DOCAPI_NODE_NAME}, default the host name; {@link DocapiProperties#nodeName(String)})
 *   in every structured line ({@code service.node.name} in ECS, {@code host} in GELF, {@code node} in Logstash) and as
 *   the OpenTelemetry resource attributes {@code service.instance.id} and {@code host.name} of every span.</li>
 * </ul>
 * An operator's own setting of any of these properties wins.
 */
public class NodeEnvironment implements EnvironmentPostProcessor, Ordered {
    static final String FORMAT = "logging.structured.format.console";
    /** The words {@code DOCAPI_LOG_FORMAT} accepts (besides a formatter's class name). */
    static final List<String> ACCEPTED = List.of("json", "ecs", "logstash", "gelf", "text");

    @Override
    public int getOrder() {
        // after ConfigDataEnvironmentPostProcessor (HIGHEST_PRECEDENCE + 10), which reads application.properties
        return Ordered.HIGHEST_PRECEDENCE + 20;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
        String node = DocapiProperties.nodeName(env.getProperty("docapi.node-name"));
        String format = logFormat(env.getProperty(FORMAT, ""));
        Map<String, Object> forced = new LinkedHashMap<>();
        forced.put(FORMAT, format);
        env.getPropertySources().addFirst(new MapPropertySource("docapiLogFormat", forced));

        Map<String, Object> defaults = new LinkedHashMap<>();
        defaults.put("docapi.node-name", node);
        defaults.put("logging.structured.ecs.service.node-name", node);
        defaults.put("logging.structured.gelf.host", node);
        if (format.equals("logstash")) defaults.put("logging.structured.json.add.node", node);
        defaults.put("management.opentelemetry.resource-attributes.service.instance.id", node);
        defaults.put("management.opentelemetry.resource-attributes.host.name", node);
        Map<String, Object> unset = new LinkedHashMap<>();
        defaults.forEach((k, v) -> {
            String current = env.getProperty(k);
            if (current == null || current.isBlank()) unset.put(k, v);
        });
        env.getPropertySources().addFirst(new MapPropertySource("docapiNode", unset));
    }

    /**
     * The value Spring Boot understands for {@code DOCAPI_LOG_FORMAT} {@code given}: {@code ""} (plain text),
     * {@code ecs}, {@code logstash}, {@code gelf} or a class name.
     *
     * @throws IllegalStateException naming the accepted values when {@code given} is none of them
     */
    static String logFormat(String given) {
        String f = given == null ? "" : given.strip();
        if (f.contains(".")) return f; // a StructuredLogFormatter of the operator's own
        f = f.toLowerCase(Locale.ROOT);
        return switch (f) {
            case "", "text", "plain" -> "";
            case "json" -> "ecs";
            case "ecs", "logstash", "gelf" -> f;
            default -> throw new IllegalStateException("DOCAPI_LOG_FORMAT='" + given + "' is not a log format: use one of "
                    + String.join(", ", ACCEPTED) + " (json is ECS JSON, one object a line; text or unset is plain text)");
        };
    }
}
