package dev.docapi.limits;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Registers the limit settings. */
@Configuration
@EnableConfigurationProperties(LimitsProperties.class)
class LimitsConfig {
}
