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
 */
@ConfigurationProperties("docapi")
public record DocapiProperties(int port, Path dataDir, String databaseUrl, String databaseUser,
                               String databasePassword, String publicBaseUrl, int workers,
                               boolean allowPrivateUrls) {

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
