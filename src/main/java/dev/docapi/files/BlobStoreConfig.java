package dev.docapi.files;

import dev.docapi.config.DocapiProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@link BlobStore} {@code DOCAPI_BLOB_STORE} names. */
@Configuration
@EnableConfigurationProperties(BlobStoreProperties.class)
class BlobStoreConfig {

    /** @throws IllegalStateException at start for a store name other than local or s3 */
    @Bean
    BlobStore blobStore(DocapiProperties props, BlobStoreProperties store) {
        return switch (store.blobStore()) {
            case "local" -> new LocalBlobStore(props.blobDir());
            case "s3" -> new S3BlobStore(store.s3(), props.cacheDir());
            default -> throw new IllegalStateException("DOCAPI_BLOB_STORE must be local or s3, not '" + store.blobStore() + "'");
        };
    }
}
