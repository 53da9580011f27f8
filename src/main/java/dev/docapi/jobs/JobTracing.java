package dev.docapi.jobs;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Traces that cross the queue (issue 24): the request admitting a job leaves its W3C {@code traceparent} on the job
 * row ({@link #currentParent}); whichever node runs the job, and later delivers its webhook, continues that trace
 * ({@link #observe}). Each observation is also a timer (Micrometer), so the same call gives the span and the metric.
 */
@Component
public class JobTracing {
    private static final String TRACEPARENT = "traceparent";
    private final ObservationRegistry observations;
    private final Tracer tracer;
    private final Propagator propagator;

    public JobTracing(ObjectProvider<ObservationRegistry> observations, ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        this.observations = observations.getIfAvailable(() -> ObservationRegistry.NOOP);
        this.tracer = tracer.getIfAvailable(() -> Tracer.NOOP);
        this.propagator = propagator.getIfAvailable(() -> Propagator.NOOP);
    }

    /** The {@code traceparent} of the span current on this thread (the admitting request's), or null when none. */
    public String currentParent() {
        Span span = tracer.currentSpan();
        if (span == null) return null;
        Map<String, String> carrier = new HashMap<>();
        propagator.inject(span.context(), carrier, Map::put);
        return carrier.get(TRACEPARENT);
    }

    /**
     * A new observation {@code name}, not started, whose span is a child of {@code traceParent} (a new trace when null).
     * Set its low-cardinality key values (metric tags) before {@link Observation#stop}.
     */
    public Observation observe(String name, String contextualName, String traceParent) {
        ReceiverContext<Map<String, String>> context = new ReceiverContext<>((carrier, key) -> carrier.get(key));
        context.setCarrier(traceParent == null ? Map.of() : Map.of(TRACEPARENT, traceParent));
        return Observation.createNotStarted(name, () -> context, observations).contextualName(contextualName);
    }

    /** The trace id of the span current on this thread, or null (for log lines). */
    public String currentTraceId() {
        Span span = tracer.currentSpan();
        return span == null ? null : span.context().traceId();
    }
}
