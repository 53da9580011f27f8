package dev.docapi.ai;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Configuration;

/** Registers the AI settings ({@link AiProperties}). */
@Configuration
@EnableConfigurationProperties(AiProperties.class)
public class AiConfig {
}
