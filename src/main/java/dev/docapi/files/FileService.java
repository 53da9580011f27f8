package dev.docapi.files;

import dev.docapi.accounts.Account;
import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.config.PublicBaseUrl;
import dev.docapi.config.ValidationPool;
import dev.docapi.config.Ids;
import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.core.FileKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * Files (spec §2.2, §4.1): upload with the size cap, type check and page count, lookup with the 404/410 rules,
 * listing, deletion, signed download links, and expiry 24 hours after creation.
 */
@Service
public class FileService {
    private static final Logger log = LoggerFactory.getLogger(FileService.class);
    /** Maximum upload: 100 MB, counted as 100 MiB = 104,857,600 bytes (spec §8). */
    public static final long MAX_BYTES = 100L * 1024 * 1024;
    public static final Duration RETENTION = Duration.ofHours(24);

    private final JdbcClient db;
    private final BlobStore blobs;
    private final FileTypes types;
    private final PdfBox pdfBox;
    private final SignedLinks links;
    private final PublicBaseUrl baseUrl;
    private final KeptOcr keptOcr;
    private final ValidationPool validation;

    public FileService(JdbcClient db, BlobStore blobs, FileTypes types, PdfBox pdfBox, SignedLinks links, PublicBaseUrl baseUrl,
                       KeptOcr keptOcr, ValidationPool validation) {
        this.db = db;
        this.validation = validation;
        this.keptOcr = keptOcr;
        this.blobs = blobs;
        this.types = types;
        this.pdfBox = pdfBox;
        this.links = links;
        this.baseUrl = baseUrl;
    }

    /**
     * Streams {@code in} to a temp file (never held in the heap); pass it to {@link #register} or delete it.
     *
     * @throws ApiException 413 {@code file_too_large} past {@link #MAX_BYTES} (reading stops there)
     */
    public Path receive(InputStream in) throws IOException {
        Path tmp = blobs.newTempFile();
        try {
            copyCapped(in, tmp);
            return tmp;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /**
     * Stores a received temp file as a new file of the account; the temp file is consumed either way.
     *
     * @param source {@code upload} or {@code url}
     * @throws ApiException 400 {@code empty_file}, 400 {@code invalid_file}, 415 {@code unsupported_file_type}
     */
    public StoredFile register(Account account, Path tmp, String name, String source) throws IOException {
        try {
            long size = Files.size(tmp);
            if (size == 0) throw new ApiException(ErrorCode.EMPTY_FILE, "the file is empty");
            return register(account.id(), tmp, cleanName(name), size, source, null);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** {@link #receive} then {@link #register}. */
    public StoredFile store(Account account, InputStream in, String name, String source) throws IOException {
        return register(account, receive(in), name, source);
    }

    /** Stores a file an operation produced (source {@code job}); its type is trusted from its name. */
    public StoredFile storeOutput(String accountId, Path produced, String name) throws IOException {
        FileTypes.Type type = types.forOutput(name);
        return register(accountId, produced, cleanName(name), Files.size(produced), "job", type);
    }

    private StoredFile register(String accountId, Path tmp, String name, long size, String source, FileTypes.Type known) throws IOException {
        // sniffing, opening and inflating an upload is work its bytes choose: on a platform thread (issue 40 item 0)
        Inspected inspected;
        try {
            inspected = validation.call(accountId, () -> {
                try {
                    return inspect(tmp, name, known);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        StoredFile f = new StoredFile(Ids.newId("file_"), accountId, name, size, inspected.type().contentType(), inspected.type().kind(),
                inspected.pages(), inspected.encrypted(), source, now, now.plus(RETENTION), null);
        blobs.put(f.id(), tmp);
        db.sql("""
                INSERT INTO files(id, account_id, name, size, content_type, kind, pages, encrypted, source, created_at, expires_at)
                VALUES (?,?,?,?,?,?,?,?,?,?,?)""")
                .params(f.id(), accountId, f.name(), f.size(), f.contentType(), f.kind().name(), f.pages(), f.encrypted(),
                        f.source(), now.toEpochMilli(), f.expiresAt().toEpochMilli())
                .update();
        return f;
    }

    /** What a file is: its type, its pages (an image's frames), whether it needs a password. */
    private record Inspected(FileTypes.Type type, Integer pages, boolean encrypted) {
    }

    private Inspected inspect(Path tmp, String name, FileTypes.Type known) throws IOException {
        FileTypes.Type type = known != null ? known : types.detect(tmp, name);
        Integer pages = null;
        boolean encrypted = false;
        if (type.kind() == FileKind.PDF) {
            try {
                PdfBox.PdfInfo info = pdfBox.inspect(tmp);
                pages = info.pages();
                encrypted = info.needsPassword();
            } catch (IOException e) {
                if (known != null) throw e;
                throw new ApiException(ErrorCode.INVALID_FILE, "'" + name + "' is not a PDF any reader can open or repair");
            }
        } else if (type.kind() == FileKind.OFFICE && known == null) {
            PackageInflation.check(tmp, name);
        } else if (type.kind() == FileKind.IMAGE) {
            pages = imageFrames(tmp);
            if (pages == null) throw new ApiException(ErrorCode.INVALID_FILE, "'" + name + "' is an image that cannot be decoded");
        }
        return new Inspected(type, pages, encrypted);
    }

    /**
     * The account's file, if it can still be used.
     *
     * @throws ApiException 404 {@code file_not_found} (unknown, another account's, or deleted); 410 {@code file_expired}
     */
    public StoredFile get(Account account, String id) {
        StoredFile f = find(id).filter(x -> x.accountId().equals(account.id()) && x.deletedAt() == null)
                .orElseThrow(() -> new ApiException(ErrorCode.FILE_NOT_FOUND, "no file '" + id + "'"));
        if (Instant.now().isAfter(f.expiresAt())) {
            throw new ApiException(ErrorCode.FILE_EXPIRED, "file '" + id + "' expired at " + f.expiresAt() + " (files are kept 24 hours)");
        }
        return f;
    }

    /** Any file by id, whatever its state (for rendering job outputs). */
    public Optional<StoredFile> find(String id) {
        return db.sql("SELECT * FROM files WHERE id = ?").param(id).query(FileService::map).optional();
    }

    /** The account's files of the last 24 hours, newest first; {@code limit} 1-200. */
    public List<StoredFile> list(Account account, int limit) {
        return db.sql("SELECT * FROM files WHERE account_id = ? AND deleted_at IS NULL AND expires_at > ? ORDER BY created_at DESC, id DESC LIMIT ?")
                .params(account.id(), Instant.now().toEpochMilli(), limit).query(FileService::map).list();
    }

    /**
     * Deletes the file's bytes at once, and the OCR kept of them ({@link KeptOcr}).
     *
     * @throws ApiException 404 {@code file_not_found}
     */
    public void delete(Account account, String id) throws IOException {
        StoredFile f = find(id).filter(x -> x.accountId().equals(account.id()) && x.deletedAt() == null)
                .orElseThrow(() -> new ApiException(ErrorCode.FILE_NOT_FOUND, "no file '" + id + "'"));
        db.sql("UPDATE files SET deleted_at = ?, purged = TRUE WHERE id = ?").params(Instant.now().toEpochMilli(), f.id()).update();
        blobs.delete(f.id());
        keptOcr.forgetFile(f.id());
    }

    /**
     * A local path of the file's bytes for engines to read (see {@link BlobStore#local}); it does not exist when the
     * bytes are gone.
     *
     * @throws UncheckedIOException when the blob store cannot be read
     */
    public Path path(StoredFile f) {
        try {
            return blobs.local(f.id());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The file's bytes as a stream from the blob store, with their length; close it.
     *
     * @throws ApiException 410 {@code file_expired} when the bytes are no longer stored
     */
    public BlobStore.Content content(StoredFile f) throws IOException {
        try {
            return blobs.open(f.id());
        } catch (NoSuchFileException gone) {
            throw new ApiException(ErrorCode.FILE_EXPIRED, "file '" + f.id() + "' is no longer stored");
        }
    }

    /** A fresh signed link to the file's content, valid one hour. */
    public String downloadUrl(StoredFile f) {
        return baseUrl.get() + downloadPath(f).substring("/v1".length());
    }

    /**
     * The signed link of {@link #downloadUrl}, as a path from the service's root ({@code /v1/files/{id}/content?e=…&t=…}):
     * for the service's own pages, which fetch it from their own origin whatever the public base URL says.
     */
    public String downloadPath(StoredFile f) {
        return "/v1/files/" + f.id() + "/content?" + links.query(f.id());
    }

    /**
     * Removes the bytes of expired files, and the OCR kept of them, from the blob store; their records stay so
     * requests get 410.
     */
    @Scheduled(fixedDelay = 60_000, initialDelay = 10_000)
    public void purgeExpired() {
        List<String> ids = db.sql("SELECT id FROM files WHERE purged = FALSE AND expires_at < ?")
                .param(Instant.now().toEpochMilli()).query(String.class).list();
        for (String id : ids) {
            try {
                blobs.delete(id);
                db.sql("UPDATE files SET purged = TRUE WHERE id = ?").param(id).update();
            } catch (IOException e) {
                log.warn("could not remove expired file {}: {}", id, e.getMessage());
            }
        }
        try {
            keptOcr.purgeExpired(Instant.now());
        } catch (IOException e) {
            log.warn("could not remove expired kept OCR: {}", e.getMessage());
        }
        // Records of files expired for more than 7 days are no longer referenced by any kept job.
        db.sql("DELETE FROM files WHERE purged = TRUE AND expires_at < ?")
                .param(Instant.now().minus(Duration.ofDays(8)).toEpochMilli()).update();
    }

    private static long copyCapped(InputStream in, Path target) throws IOException {
        long total = 0;
        byte[] buf = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(target)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                total += n;
                if (total > MAX_BYTES) {
                    throw new ApiException(ErrorCode.FILE_TOO_LARGE, "the file is larger than 100 MB (104,857,600 bytes)");
                }
                out.write(buf, 0, n);
            }
        }
        return total;
    }

    private static Integer imageFrames(Path image) {
        try (ImageInputStream iis = ImageIO.createImageInputStream(image.toFile())) {
            Iterator<ImageReader> readers = ImageIO.getImageReaders(iis);
            if (!readers.hasNext()) return null;
            ImageReader reader = readers.next();
            try {
                reader.setInput(iis);
                int n = reader.getNumImages(true);
                if (n < 1) return null;
                reader.getWidth(0);
                return n;
            } finally {
                reader.dispose();
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The last path segment without control or format characters (also no bidi overrides such as U+202E, which disguise an extension), at most 255 characters; "upload" when empty (issue 10). */
    static String cleanName(String name) {
        String n = name == null ? "" : name;
        n = n.substring(Math.max(n.lastIndexOf('/'), n.lastIndexOf('\\')) + 1).replaceAll("[\\p{Cc}\\p{Cf}]", "").strip();
        if (n.isEmpty() || n.equals(".") || n.equals("..")) n = "upload";
        if (n.length() > 255) {
            int dot = n.lastIndexOf('.');
            String ext = dot > 0 && n.length() - dot <= 10 ? n.substring(dot) : "";
            n = n.substring(0, 255 - ext.length()) + ext;
        }
        return n;
    }

    private static StoredFile map(ResultSet rs, int row) throws SQLException {
        int pages = rs.getInt("pages");
        boolean noPages = rs.wasNull();
        long deleted = rs.getLong("deleted_at");
        boolean notDeleted = rs.wasNull();
        return new StoredFile(rs.getString("id"), rs.getString("account_id"), rs.getString("name"), rs.getLong("size"),
                rs.getString("content_type"), FileKind.valueOf(rs.getString("kind")), noPages ? null : pages,
                rs.getBoolean("encrypted"), rs.getString("source"), Instant.ofEpochMilli(rs.getLong("created_at")),
                Instant.ofEpochMilli(rs.getLong("expires_at")), notDeleted ? null : Instant.ofEpochMilli(deleted));
    }
}
