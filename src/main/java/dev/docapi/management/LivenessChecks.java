package dev.docapi.management;

import dev.docapi.jobs.JobQueue;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Liveness besides Spring's own state (issue 24; {@code /actuator/health/liveness}): what the job queue of this node
 * is doing. It stays UP while draining after a stop, so a supervisor does not kill a node finishing its jobs, and
 * depends on nothing outside the JVM (a database outage makes the node unready, never "dead").
 */
@Component("jobQueueHealthIndicator")
class LivenessChecks implements HealthIndicator {
    private final JobQueue queue;

    LivenessChecks(JobQueue queue) {
        this.queue = queue;
    }

    @Override
    public Health health() {
        return Health.up().withDetail("claiming", queue.claiming().name().toLowerCase()).build();
    }
}
