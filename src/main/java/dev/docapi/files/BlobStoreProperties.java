package dev.docapi.files;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where file bytes are kept (see README "Blob store").
 *
 * @param blobStore {@code local} (under {@code $DOCAPI_DATA_DIR/files}) or {@code s3} ({@code DOCAPI_BLOB_STORE},
 *                  default local)
 * @param s3        the S3-compatible store, when {@code blobStore} is {@code s3}
 */
@ConfigurationProperties("docapi")
public record BlobStoreProperties(@DefaultValue("local") String blobStore, @DefaultValue S3 s3) {

    /**
     * @param endpoint  the store's base URL, e.g. {@code http://minio:9000}; empty for AWS S3 itself
     *                  ({@code DOCAPI_S3_ENDPOINT})
     * @param bucket    created at start when missing ({@code DOCAPI_S3_BUCKET}, required)
     * @param region    {@code DOCAPI_S3_REGION}, default us-east-1
     * @param accessKey {@code DOCAPI_S3_ACCESS_KEY}; empty to use the AWS SDK's default credentials chain
     * @param secretKey {@code DOCAPI_S3_SECRET_KEY}
     * @param pathStyle addresses the bucket as {@code endpoint/bucket/key} rather than {@code bucket.endpoint/key}
     *                  ({@code DOCAPI_S3_PATH_STYLE}); null means true when an endpoint is given
     */
    public record S3(String endpoint, String bucket, @DefaultValue("us-east-1") String region, String accessKey,
                     String secretKey, Boolean pathStyle) {

        boolean hasEndpoint() {
            return endpoint != null && !endpoint.isBlank();
        }

        boolean usePathStyle() {
            return pathStyle != null ? pathStyle : hasEndpoint();
        }

        /** Without the secret key, which must not reach logs. */
        @Override
        public String toString() {
            return "S3[endpoint=" + endpoint + ", bucket=" + bucket + ", region=" + region + ", accessKey=" + accessKey + "]";
        }
    }
}
