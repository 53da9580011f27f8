package dev.docapi.files;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * File bytes, one immutable blob per file id: on local disk ({@link LocalBlobStore}, the embedded default) or in an
 * S3-compatible bucket shared by all nodes ({@link S3BlobStore}), chosen by {@code DOCAPI_BLOB_STORE}. Engines never
 * read the store itself: they get a local path from {@link #local}.
 */
public interface BlobStore {

    /** A new empty temp file on local disk for an upload in progress; hand it to {@link #put} or delete it. */
    Path newTempFile() throws IOException;

    /**
     * Stores {@code source} as the blob of {@code fileId}, consuming {@code source} (it is moved away). Readers never
     * see a half-stored blob.
     *
     * @throws IOException when the store cannot take it; nothing is then stored under {@code fileId} and
     *                     {@code source} is left to the caller
     */
    void put(String fileId, Path source) throws IOException;

    /**
     * A local path holding the blob's bytes, to read only: the blob itself on local disk, a node-local cached copy
     * for a remote store (downloaded on first use). The path does not exist when the store holds no such blob.
     *
     * @throws IOException when the store cannot be read
     */
    Path local(String fileId) throws IOException;

    /**
     * The blob's bytes as a stream, for sending them on without holding them in memory; close it.
     *
     * @throws java.nio.file.NoSuchFileException when the store holds no such blob
     * @throws IOException                       when the store cannot be read
     */
    Content open(String fileId) throws IOException;

    /** Removes the blob (and any local copy); nothing happens when there is none. */
    void delete(String fileId) throws IOException;

    /**
     * Checks that the store can be used now (readiness, issue 24): the local folder is writable, the bucket answers.
     *
     * @throws IOException or a store client's exception, saying why not
     */
    void check() throws IOException;

    /** An open blob: its bytes and their number. */
    record Content(InputStream stream, long length) implements Closeable {
        @Override
        public void close() throws IOException {
            stream.close();
        }
    }
}
