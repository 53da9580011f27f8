package dev.docapi.management;

import dev.docapi.files.BlobStore;
import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What readiness waits for besides Spring's own state (issue 24; {@code /actuator/health/readiness} on the
 * management port): the database and the blob store answer, each within {@link BoundedCheck#LIMIT}. Both are shared by
 * every node, so all nodes turn not-ready together when one is down; the balancer then has no node, which is right:
 * no request could be served.
 */
@Configuration
class ReadinessChecks {
    @Bean
    HealthIndicator databaseHealthIndicator(DataSource dataSource) {
        return databaseCheck(dataSource)::health;
    }

    /** The database answers: a connection from the pool that is valid. */
    static BoundedCheck databaseCheck(DataSource dataSource) {
        return new BoundedCheck("the database", () -> {
            try (Connection c = dataSource.getConnection()) {
                if (!c.isValid((int) BoundedCheck.LIMIT.toSeconds())) throw new IllegalStateException("the connection is not valid");
            }
        });
    }

    @Bean
    HealthIndicator blobStoreHealthIndicator(BlobStore blobs) {
        BoundedCheck check = new BoundedCheck("the blob store", blobs::check);
        return check::health;
    }
}
