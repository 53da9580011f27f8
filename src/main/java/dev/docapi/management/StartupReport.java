package dev.docapi.management;

import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;
import org.springframework.context.ApplicationListener;

/**
 * Where a start's time goes (issue 41): with {@code DOCAPI_STARTUP_REPORT=true} Spring records each start step (bean
 * instantiations, configuration class parsing, context refresh) and the node logs the slowest ones, in ms, once it is
 * ready. Off by default: recording costs a little memory and time. A step's time includes its nested steps (a bean's
 * instantiation includes the beans it depends on), so the list shows the expensive chains, not a sum.
 */
public final class StartupReport implements ApplicationListener<ApplicationReadyEvent> {
    private static final Logger log = LoggerFactory.getLogger(StartupReport.class);
    private static final int SHOWN = 25;
    private final BufferingApplicationStartup startup = new BufferingApplicationStartup(20_000);

    /** Records the start of {@code app} when {@code DOCAPI_STARTUP_REPORT=true}. */
    public static void attachIfAsked(SpringApplication app) {
        if (!"true".equalsIgnoreCase(System.getenv("DOCAPI_STARTUP_REPORT"))) return;
        StartupReport report = new StartupReport();
        app.setApplicationStartup(report.startup);
        app.addListeners(report);
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        StartupTimeline timeline = startup.drainBufferedTimeline();
        String slowest = timeline.getEvents().stream()
                .sorted(Comparator.comparing(StartupTimeline.TimelineEvent::getDuration).reversed())
                .limit(SHOWN)
                .map(e -> String.format("%6d ms  %s%s", e.getDuration().toMillis(), e.getStartupStep().getName(),
                        StreamSupport.stream(e.getStartupStep().getTags().spliterator(), false)
                                .map(t -> t.getKey() + "=" + t.getValue()).collect(Collectors.joining(", ", " ", ""))))
                .collect(Collectors.joining("\n"));
        Duration jvm = Duration.ofMillis(System.currentTimeMillis() - ProcessHandle.current().info().startInstant()
                .map(java.time.Instant::toEpochMilli).orElse(System.currentTimeMillis()));
        log.info("start: ready {} ms after the JVM started; the {} slowest start steps (nested steps included):\n{}",
                jvm.toMillis(), SHOWN, slowest);
    }
}
