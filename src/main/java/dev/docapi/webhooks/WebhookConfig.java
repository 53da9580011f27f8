package dev.docapi.webhooks;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Registers the webhook settings. */
@Configuration
@EnableConfigurationProperties(WebhookProperties.class)
class WebhookConfig {
}
