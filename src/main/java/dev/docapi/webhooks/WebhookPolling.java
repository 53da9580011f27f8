package dev.docapi.webhooks;

import java.time.Instant;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Profile;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * What drives {@link WebhookDispatcher} besides a job's end: at the start and once a minute, the finished jobs whose
 * event was lost (e.g. jobs marked interrupted while the service started); every {@code docapi.webhooks.poll-interval}
 * the retries due.
 * Not in {@code bin/docapi admin}'s own JVM (profile {@code admin}): a command lives for seconds, and a delivery it
 * started would be cut off when it exits.
 */
@Component
@Profile("!admin")
class WebhookPolling {
    private final WebhookDispatcher dispatcher;

    WebhookPolling(WebhookDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    @EventListener(ApplicationReadyEvent.class)
    void onReady() {
        dispatcher.recoverLost();
    }

    @Scheduled(fixedDelay = 60_000, initialDelay = 60_000)
    void recoverLost() {
        dispatcher.recoverLost();
    }

    @Scheduled(fixedDelayString = "${docapi.webhooks.poll-interval:5s}", initialDelayString = "${docapi.webhooks.poll-interval:5s}")
    void poll() {
        dispatcher.pollOnce(Instant.now());
    }
}
