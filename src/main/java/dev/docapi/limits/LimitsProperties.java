package dev.docapi.limits;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The account limits of spec §8 ({@code docapi.limits.*}, README "Limits and usage").
 *
 * @param requestsPerMinute  requests per minute per API key (default 120) → 429 {@code rate_limited}
 * @param activeJobs         jobs queued or running per account (default 20) → 429 {@code too_many_jobs}
 * @param freeOperations     successful operations per UTC calendar month on the free plan (default 100) → 402
 * @param fairUseOperations  the fair-use threshold of paid plans per month (default 100000) → 402
 * @param freeAiOperations   AI operations on the service's model per month, free plan (20)
 * @param paidAiOperations   AI operations on the service's model per month, paid plans (1000)
 */
@ConfigurationProperties("docapi.limits")
public record LimitsProperties(int requestsPerMinute, int activeJobs, int freeOperations, int fairUseOperations,
                               int freeAiOperations, int paidAiOperations) {
}
