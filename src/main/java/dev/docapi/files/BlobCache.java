package dev.docapi.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.function.Predicate;

/**
 * Node-local copies of remote blobs, one file per id directly under the cache folder ({@code $DOCAPI_DATA_DIR/cache}),
 * plus {@code incoming/} for files being written. An entry appears by an atomic move, so a reader never sees a
 * partial copy; its modification time is its last use.
 */
final class BlobCache {
    private final Path dir;
    private final Path incoming;

    /** @param dir the cache folder, created when missing */
    BlobCache(Path dir) {
        this.dir = dir;
        this.incoming = dir.resolve("incoming");
        try {
            Files.createDirectories(incoming);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + incoming, e);
        }
    }

    /** A new empty temp file beside the entries (same file system, so it can be moved in). */
    Path newTempFile() throws IOException {
        return Files.createTempFile(incoming, "tmp-", ".part");
    }

    /** Where the entry of {@code fileId} is (or would be). */
    Path path(String fileId) {
        return dir.resolve(fileId);
    }

    /** The entry of {@code fileId}, marked as used now; null when there is none. */
    Path hit(String fileId) throws IOException {
        Path entry = path(fileId);
        try {
            Files.setLastModifiedTime(entry, FileTime.from(Instant.now()));
            return entry;
        } catch (NoSuchFileException absent) {
            return null;
        }
    }

    /** Copies {@code in} to a temp file and moves it in as the entry of {@code fileId}; returns the entry. */
    Path fill(String fileId, InputStream in) throws IOException {
        Path tmp = newTempFile();
        try {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return adopt(fileId, tmp);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Moves {@code source} in as the entry of {@code fileId} (replacing a copy another thread just made). */
    Path adopt(String fileId, Path source) throws IOException {
        Path entry = path(fileId);
        Files.move(source, entry, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return entry;
    }

    void remove(String fileId) throws IOException {
        Files.deleteIfExists(path(fileId));
    }

    /**
     * Removes the entries last used before {@code unusedSince} and those for which {@code gone} holds (e.g. the blob
     * was deleted or expired on another node).
     */
    void sweep(Instant unusedSince, Predicate<String> gone) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, Files::isRegularFile)) {
            for (Path entry : entries) {
                String fileId = entry.getFileName().toString();
                try {
                    if (Files.getLastModifiedTime(entry).toInstant().isBefore(unusedSince) || gone.test(fileId)) remove(fileId);
                } catch (NoSuchFileException removedMeanwhile) {
                    // another thread's delete got there first
                }
            }
        }
    }
}
