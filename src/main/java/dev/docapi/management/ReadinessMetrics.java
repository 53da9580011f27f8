package dev.docapi.management;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

/**
 * Readiness as metrics (issue 38), so an alert sees a node that is alive but not ready (a database outage), which
 * {@code up == 0} does not: {@code docapi_ready} (1 when every readiness check is UP, as
 * {@code /actuator/health/readiness} answers 200) and {@code docapi_readiness_check{check}} (1 UP, 0 otherwise) for
 * each check of the readiness group ({@code management.endpoint.health.group.readiness.include}: readinessState,
 * database, blobStore, engines). The checks run in the background every second ({@link Refresh}), each bounded
 * ({@link BoundedCheck}); a scrape only reads their last answers. {@code docapi_metrics_age_seconds{source="readiness"}}
 * is their age.
 */
@Component
class ReadinessMetrics implements MeterBinder, DisposableBean {
    private final Map<String, HealthIndicator> checks = new LinkedHashMap<>();
    private final Map<String, Double> states = new ConcurrentHashMap<>();
    private Refresh refresh;

    ReadinessMetrics(Map<String, HealthIndicator> indicators, @Value("${management.endpoint.health.group.readiness.include:}") List<String> include) {
        for (String name : include) {
            HealthIndicator indicator = indicators.get(name.strip() + "HealthIndicator");
            if (indicator != null) checks.put(name.strip(), indicator);
        }
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        if (refresh == null) refresh = new Refresh("readiness", this::check);
        for (String name : checks.keySet()) {
            Gauge.builder("docapi.readiness.check", states, s -> s.getOrDefault(name, Double.NaN)).tag("check", name)
                    .description("1 when this readiness check is UP, 0 when not").register(registry);
        }
        Gauge.builder("docapi.ready", this, ReadinessMetrics::ready)
                .description("1 when the node is ready (every readiness check UP), 0 when not").register(registry);
        refresh.bindAge(registry);
    }

    private void check() {
        checks.forEach((name, indicator) -> {
            Double up;
            try {
                up = Status.UP.equals(indicator.health().getStatus()) ? 1.0 : 0.0;
            } catch (RuntimeException e) {
                up = 0.0;
            }
            states.put(name, up);
        });
    }

    private double ready() {
        if (states.size() < checks.size()) return Double.NaN;
        return states.values().stream().allMatch(v -> v == 1.0) ? 1 : 0;
    }

    /** The checks this exports, by their name in the readiness group. */
    List<String> checks() {
        return List.copyOf(checks.keySet());
    }

    @Override
    public synchronized void destroy() {
        if (refresh != null) refresh.close();
    }
}
