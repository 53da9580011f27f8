package dev.docapi.webhooks;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Webhook delivery settings ({@code docapi.webhooks.*}).
 *
 * @param retryDelays  delay before each retry after a failed attempt (spec §6: 30 s, then 5 min)
 * @param pollInterval how often each node looks for due retries (default 5 s)
 * @param timeout      the whole-call timeout of one delivery attempt (default 10 s)
 */
@ConfigurationProperties("docapi.webhooks")
public record WebhookProperties(List<Duration> retryDelays, Duration pollInterval, Duration timeout) {
}
