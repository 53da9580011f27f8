package dev.docapi.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Blobs on local disk under {@code $DOCAPI_DATA_DIR/files}, fanned out by the id's last two characters
 * ({@code files/ab/file_…ab}). Blobs arrive by an atomic move from a temp file in the same directory tree, so a
 * reader never sees a half-written file.
 */
public class LocalBlobStore implements BlobStore {
    private final Path root;
    private final Path incoming;

    /** @param root the blob folder, created when missing */
    public LocalBlobStore(Path root) {
        this.root = root;
        this.incoming = root.resolve("incoming");
        try {
            Files.createDirectories(incoming);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + incoming, e);
        }
    }

    @Override
    public Path newTempFile() throws IOException {
        return Files.createTempFile(incoming, "up-", ".part");
    }

    @Override
    public void put(String fileId, Path source) throws IOException {
        Path target = local(fileId);
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

    /** The blob itself. */
    @Override
    public Path local(String fileId) {
        String shard = fileId.substring(fileId.length() - 2);
        return root.resolve(shard).resolve(fileId);
    }

    @Override
    public Content open(String fileId) throws IOException {
        Path blob = local(fileId);
        long length = Files.size(blob);
        return new Content(Files.newInputStream(blob), length);
    }

    @Override
    public void delete(String fileId) throws IOException {
        Files.deleteIfExists(local(fileId));
    }

    @Override
    public void check() throws IOException {
        if (!java.nio.file.Files.isDirectory(root) || !java.nio.file.Files.isWritable(root)) {
            throw new IOException("the folder of the files is missing or not writable");
        }
    }
}
