package dev.docapi.config;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Operator settings, read from the {@code DOCAPI_*} environment variables (see README "Configuration").
 *
 * @param port             HTTP port ({@code DOCAPI_PORT}, default 8080)
 * @param dataDir          holds the embedded H2 database, the file blobs (or, with an S3 blob store, their local
 *                         cache) and the job scratch folders ({@code DOCAPI_DATA_DIR}, default ./data)
 * @param databaseUrl      PostgreSQL JDBC URL; when set it replaces H2 ({@code DOCAPI_DATABASE_URL})
 * @param databaseUser     database user, if not in the URL ({@code DOCAPI_DATABASE_USER})
 * @param databasePassword database password ({@code DOCAPI_DATABASE_PASSWORD})
 * @param publicBaseUrl    the base address clients see, ending in /v1 ({@code DOCAPI_PUBLIC_BASE_URL})
 * @param workers          jobs run at once by this node ({@code DOCAPI_WORKERS}, default 4)
 * @param allowPrivateUrls lets URL imports and webhooks reach loopback and private addresses; for local
 *                         development and tests only ({@code DOCAPI_ALLOW_PRIVATE_URLS}, default false)
 * @param shutdownGrace    on stop, how long running jobs may take to finish before they are interrupted
 *                         ({@code DOCAPI_SHUTDOWN_GRACE}, default 120 s; issue 15)
 * @param databasePool     database connections of this node ({@code DOCAPI_DATABASE_POOL}; default, when 0:
 *                         2 × workers + 10, see {@link #poolSize()})
 * @param managementPort   port of the probes, metrics and admin API ({@code DOCAPI_MANAGEMENT_PORT}, default 8081;
 *                         0: any free port; issue 24); never the same as {@code port}
 * @param nodeName         this node's name in the {@code Docapi-Node} response header, logs and metrics
 *                         ({@code DOCAPI_NODE_NAME}, default the host name)
 */
@ConfigurationProperties("docapi")
public record DocapiProperties(int port, Path dataDir, String databaseUrl, String databaseUser,
                               String databasePassword, String publicBaseUrl, int workers,
                               boolean allowPrivateUrls, java.time.Duration shutdownGrace, int databasePool,
                               int managementPort, String nodeName) {

    public DocapiProperties {
        if (managementPort != 0 && managementPort == port) {
            throw new IllegalArgumentException("DOCAPI_MANAGEMENT_PORT must differ from DOCAPI_PORT (" + port + ")");
        }
        nodeName = nodeName(nodeName);
    }

    /** {@code configured} ({@code DOCAPI_NODE_NAME}) or, when blank, the host name: the one rule for the node's name. */
    public static String nodeName(String configured) {
        return configured == null || configured.isBlank() ? hostName() : configured.strip();
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }

    /**
     * The connection pool's size: a running job holds a connection only for short writes (progress, outputs, usage),
     * an admission for one short transaction, the queue for its poll and heartbeat; so two per worker plus ten for
     * requests (authentication, lookups, admissions) keep a burst waiting briefly instead of failing.
     */
    public int poolSize() {
        return databasePool > 0 ? databasePool : 2 * Math.max(1, workers) + 10;
    }

    public Path blobDir() {
        return dataDir.toAbsolutePath().resolve("files");
    }

    /** Node-local copies of blobs kept in a remote store. */
    public Path cacheDir() {
        return dataDir.toAbsolutePath().resolve("cache");
    }

    public Path workDir() {
        return dataDir.toAbsolutePath().resolve("work");
    }
}
