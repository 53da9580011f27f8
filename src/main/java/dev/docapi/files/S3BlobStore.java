package dev.docapi.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.io.input.BoundedInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Blobs as objects of one bucket in an S3-compatible store (key = file id), shared by all nodes; engines read a
 * node-local copy from a {@link BlobCache} under {@code $DOCAPI_DATA_DIR/cache}. The bucket is created when missing.
 */
public class S3BlobStore implements BlobStore, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(S3BlobStore.class);
    /** Files above this go up in parts of this size (S3 takes parts of 5 MiB to 5 GiB, at most 10,000 of them). */
    static final long PART_BYTES = 16L * 1024 * 1024;
    /** A cached copy unused this long is removed; inputs are read within minutes of their job's start. */
    static final Duration CACHE_IDLE = Duration.ofHours(1);

    private final S3Client s3;
    private final String bucket;
    private final BlobCache cache;

    /**
     * Connects, and creates the bucket when missing.
     *
     * @param cacheDir the node-local cache folder, created when missing
     * @throws IllegalStateException when no bucket is configured
     * @throws SdkException          when the store cannot be reached or refuses the bucket
     */
    public S3BlobStore(BlobStoreProperties.S3 config, Path cacheDir) {
        if (config.bucket() == null || config.bucket().isBlank()) {
            throw new IllegalStateException("DOCAPI_S3_BUCKET is required when DOCAPI_BLOB_STORE=s3");
        }
        this.s3 = client(config);
        this.bucket = config.bucket();
        this.cache = new BlobCache(cacheDir);
        createBucketIfMissing(config.region());
    }

    @Override
    public Path newTempFile() throws IOException {
        return cache.newTempFile();
    }

    /** One PutObject up to {@link #PART_BYTES}, a multipart upload above; then {@code source} becomes the cached copy. */
    @Override
    public void put(String fileId, Path source) throws IOException {
        long size = Files.size(source);
        try {
            if (size <= PART_BYTES) {
                s3.putObject(b -> b.bucket(bucket).key(fileId), RequestBody.fromFile(source));
            } else {
                putInParts(fileId, source, size);
            }
        } catch (SdkException | UncheckedIOException e) {
            throw failure("cannot store " + fileId, e);
        }
        try {
            cache.adopt(fileId, source);
        } catch (IOException otherFileSystem) {
            // the copy is only a shortcut; the blob is stored
            Files.deleteIfExists(source);
        }
    }

    /** Reads each part from the file as it is sent; a failed upload is aborted so the store drops its parts. */
    private void putInParts(String fileId, Path source, long size) {
        String uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(fileId)).uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            for (long offset = 0; offset < size; offset += PART_BYTES) {
                int number = parts.size() + 1;
                long from = offset;
                long length = Math.min(PART_BYTES, size - offset);
                String etag = s3.uploadPart(b -> b.bucket(bucket).key(fileId).uploadId(uploadId).partNumber(number).contentLength(length),
                        RequestBody.fromContentProvider(() -> slice(source, from, length), length, "application/octet-stream")).eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            s3.completeMultipartUpload(b -> b.bucket(bucket).key(fileId).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
        } catch (SdkException | UncheckedIOException e) {
            try {
                s3.abortMultipartUpload(b -> b.bucket(bucket).key(fileId).uploadId(uploadId));
            } catch (SdkException abort) {
                e.addSuppressed(abort);
            }
            throw e;
        }
    }

    /** Bytes {@code from}..{@code from + length} of {@code file}; a new stream per call, as the SDK asks on a retry. */
    private static InputStream slice(Path file, long from, long length) {
        try {
            FileChannel channel = FileChannel.open(file).position(from);
            return BoundedInputStream.builder().setInputStream(Channels.newInputStream(channel)).setMaxCount(length).get();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The cached copy, downloaded first when this node has none. */
    @Override
    public Path local(String fileId) throws IOException {
        Path cached = cache.hit(fileId);
        if (cached != null) return cached;
        try (InputStream in = s3.getObject(b -> b.bucket(bucket).key(fileId))) {
            return cache.fill(fileId, in);
        } catch (NoSuchKeyException absent) {
            return cache.path(fileId);
        } catch (SdkException e) {
            throw failure("cannot read " + fileId, e);
        }
    }

    /** Streams the object from the store. */
    @Override
    public Content open(String fileId) throws IOException {
        try {
            ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(bucket).key(fileId));
            return new Content(in, in.response().contentLength());
        } catch (NoSuchKeyException absent) {
            throw new NoSuchFileException(fileId);
        } catch (SdkException e) {
            throw failure("cannot read " + fileId, e);
        }
    }

    @Override
    public void delete(String fileId) throws IOException {
        try {
            s3.deleteObject(b -> b.bucket(bucket).key(fileId));
        } catch (SdkException e) {
            throw failure("cannot delete " + fileId, e);
        }
        cache.remove(fileId);
    }

    /** Drops cached copies unused for {@link #CACHE_IDLE} and those whose object is gone (deleted or expired on any node). */
    @Scheduled(fixedDelay = 600_000, initialDelay = 60_000)
    public void sweepCache() {
        try {
            cache.sweep(Instant.now().minus(CACHE_IDLE), this::absent);
        } catch (IOException e) {
            log.warn("could not sweep the blob cache: {}", e.getMessage());
        }
    }

    private boolean absent(String fileId) {
        try {
            s3.headObject(b -> b.bucket(bucket).key(fileId));
            return false;
        } catch (NoSuchKeyException gone) {
            return true;
        } catch (SdkException unknown) {
            return false;
        }
    }

    @Override
    public void check() {
        s3.headBucket(b -> b.bucket(bucket));
    }

    @Override
    public void close() {
        s3.close();
    }

    private void createBucketIfMissing(String region) {
        try {
            s3.headBucket(b -> b.bucket(bucket));
        } catch (NoSuchBucketException missing) {
            try {
                s3.createBucket(b -> {
                    b.bucket(bucket);
                    // AWS refuses the default region as an explicit constraint and needs any other one
                    if (!region.equals("us-east-1")) b.createBucketConfiguration(c -> c.locationConstraint(region));
                });
                log.info("created bucket {}", bucket);
            } catch (BucketAlreadyOwnedByYouException anotherNode) {
                // created meanwhile by another node starting
            }
        }
    }

    private static S3Client client(BlobStoreProperties.S3 config) {
        AwsCredentialsProvider credentials = config.accessKey() == null || config.accessKey().isBlank()
                ? DefaultCredentialsProvider.builder().build()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(config.accessKey(), config.secretKey()));
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(Region.of(config.region()))
                .credentialsProvider(credentials)
                .forcePathStyle(config.usePathStyle())
                // Checksums only where S3 requires them: many S3-compatible stores reject the SDK's default
                // trailing-checksum (aws-chunked) uploads.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        if (config.hasEndpoint()) builder.endpointOverride(URI.create(config.endpoint()));
        return builder.build();
    }

    private static IOException failure(String what, RuntimeException e) {
        return new IOException(what + " in the blob store: " + e.getMessage(), e);
    }
}
