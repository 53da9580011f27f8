package dev.docapi.files;

import dev.docapi.config.DocapiProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.springframework.stereotype.Component;

/**
 * File bytes on local disk under {@code $DOCAPI_DATA_DIR/files}, one immutable blob per file id. Blobs arrive by an
 * atomic move from a temp file in the same directory tree, so a reader never sees a half-written file.
 */
@Component
public class BlobStore {
    private final Path root;
    private final Path incoming;

    public BlobStore(DocapiProperties props) {
        this.root = props.blobDir();
        this.incoming = root.resolve("incoming");
        try {
            Files.createDirectories(incoming);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + incoming, e);
        }
    }

    /** A new empty temp file for an upload in progress; move it in with {@link #put} or delete it. */
    public Path newTempFile() throws IOException {
        return Files.createTempFile(incoming, "up-", ".part");
    }

    /** Moves {@code source} into the store as the blob of {@code fileId}. */
    public void put(String fileId, Path source) throws IOException {
        Path target = path(fileId);
        Files.createDirectories(target.getParent());
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException crossDevice) {
            Path tmp = target.resolveSibling(fileId + ".part");
            Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            Files.deleteIfExists(source);
        }
    }

    /** The blob's path (two-level fan-out by the id's last characters). */
    public Path path(String fileId) {
        String shard = fileId.substring(fileId.length() - 2);
        return root.resolve(shard).resolve(fileId);
    }

    public void delete(String fileId) throws IOException {
        Files.deleteIfExists(path(fileId));
    }
}
