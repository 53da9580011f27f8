package dev.docapi.files;

import dev.docapi.config.Ids;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The OCR of a file kept with it (issue 12 item 4): the OCR'd PDF and the recognised text, as blobs of the
 * {@link BlobStore} (so every node sees them), with a row of table {@code kept_ocr} per account, content and
 * variant. The key begins with the account: one account never sees, waits on or times another's OCR. Its lifetime
 * is its files': it goes when one of them is deleted ({@link #forgetFile}) or when the last of them expires
 * ({@link #purgeExpired}). A job claims a key before it OCRs (the row, state {@code running}); others wait for it.
 * Blobs are stored before the row says {@code done}, so no reader sees a half-written result.
 */
@Component
public class KeptOcr {
    private static final Logger log = LoggerFactory.getLogger(KeptOcr.class);
    private final JdbcClient db;
    private final BlobStore blobs;

    public KeptOcr(JdbcClient db, BlobStore blobs) {
        this.db = db;
        this.blobs = blobs;
    }

    /** What a kept OCR is of: an account's bytes ({@code sha256}, hex) OCR'd one way ({@code variant}). */
    public record Key(String accountId, String sha256, String variant) {
    }

    /**
     * A kept OCR: {@code done} with its blobs, or still {@code running} in another job (then {@code pagesDone} is
     * its progress and {@code staleAt} when its claim may be taken over).
     */
    public record Entry(boolean done, Instant staleAt, int pagesDone, int runs, String pdfBlob, String textBlob, List<Integer> repaired) {
    }

    /** The blobs of a finished kept OCR as local paths, to read only ({@code pdf} null for a kept text alone). */
    public record Blobs(Path pdf, Path text) {
    }

    /**
     * Records that {@code file} has the bytes of {@code key} (its kept OCR then lives as long as the file) and
     * extends the kept OCR's expiry to the file's.
     */
    public void link(StoredFile file, Key key) {
        try {
            db.sql("INSERT INTO kept_ocr_files(file_id, account_id, sha256) VALUES (?,?,?)")
                    .params(file.id(), key.accountId(), key.sha256()).update();
        } catch (DuplicateKeyException already) {
            // linked by an earlier operation on the file
        }
        db.sql("UPDATE kept_ocr SET expires_at = ? WHERE account_id = ? AND sha256 = ? AND expires_at < ?")
                .params(file.expiresAt().toEpochMilli(), key.accountId(), key.sha256(), file.expiresAt().toEpochMilli()).update();
    }

    /** The kept OCR of {@code key}, finished or running, if any. */
    public Optional<Entry> find(Key key) {
        return db.sql("SELECT state, stale_at, pages_done, runs, pdf_blob, text_blob, repaired FROM kept_ocr WHERE account_id = ? AND sha256 = ? AND variant = ?")
                .params(key.accountId(), key.sha256(), key.variant())
                .query((rs, n) -> new Entry("done".equals(rs.getString("state")), Instant.ofEpochMilli(rs.getLong("stale_at")),
                        rs.getInt("pages_done"), rs.getInt("runs"), rs.getString("pdf_blob"), rs.getString("text_blob"),
                        pages(rs.getString("repaired"))))
                .optional();
    }

    /**
     * Claims {@code key} for the caller to OCR: true when there was no kept OCR, or when {@code stale} (the entry
     * found, a running one past its {@code staleAt}) is still the claim in the table; false when another job got it.
     *
     * @param staleAt when this claim may be taken over if its job dies (OCR's own timeout has passed by then)
     * @param expiresAt the expiry of the file being OCR'd
     */
    public boolean claim(Key key, Optional<Entry> stale, Instant staleAt, Instant expiresAt) {
        if (stale.isPresent()) {
            return db.sql("UPDATE kept_ocr SET stale_at = ?, pages_done = 0, runs = runs + 1 WHERE account_id = ? AND sha256 = ? AND variant = ? AND state = 'running' AND stale_at = ?")
                    .params(staleAt.toEpochMilli(), key.accountId(), key.sha256(), key.variant(), stale.get().staleAt().toEpochMilli())
                    .update() == 1;
        }
        try {
            db.sql("""
                    INSERT INTO kept_ocr(account_id, sha256, variant, state, stale_at, pages_done, runs, expires_at)
                    VALUES (?,?,?,'running',?,0,1,?)""")
                    .params(key.accountId(), key.sha256(), key.variant(), staleAt.toEpochMilli(), expiresAt.toEpochMilli()).update();
            return true;
        } catch (DuplicateKeyException raced) {
            return false;
        }
    }

    /** The progress of a claimed OCR, for the jobs waiting on it: pages OCR'd so far. */
    public void progress(Key key, int pagesDone) {
        db.sql("UPDATE kept_ocr SET pages_done = ? WHERE account_id = ? AND sha256 = ? AND variant = ? AND state = 'running'")
                .params(pagesDone, key.accountId(), key.sha256(), key.variant()).update();
    }

    /** Gives up a claim (the OCR failed or was cancelled): the next job to need it claims it anew. */
    public void release(Key key) {
        db.sql("DELETE FROM kept_ocr WHERE account_id = ? AND sha256 = ? AND variant = ? AND state = 'running'")
                .params(key.accountId(), key.sha256(), key.variant()).update();
    }

    /**
     * Stores copies of a claimed OCR's PDF and text as blobs, then marks it done. Nothing is kept when the claim
     * is gone meanwhile (its file was deleted): the blobs are removed again. {@code pdf} is null for what is kept as
     * a text alone (the document model of {@code dev.docapi.document}, under its own variant).
     */
    public void publish(Key key, Path pdf, Path text, List<Integer> repaired) throws IOException {
        String pdfBlob = pdf == null ? null : put(pdf);
        String textBlob;
        try {
            textBlob = put(text);
        } catch (IOException | RuntimeException e) {
            if (pdfBlob != null) blobs.delete(pdfBlob);
            throw e;
        }
        int published;
        try {
            published = db.sql("UPDATE kept_ocr SET state = 'done', pdf_blob = ?, text_blob = ?, repaired = ? WHERE account_id = ? AND sha256 = ? AND variant = ? AND state = 'running'")
                    .params(pdfBlob, textBlob, String.join(",", repaired.stream().map(String::valueOf).toList()),
                            key.accountId(), key.sha256(), key.variant())
                    .update();
        } catch (RuntimeException e) {
            published = 0;
            log.warn("could not publish the kept OCR: {}", e.getMessage());
        }
        if (published != 1) deleteBlobs(new String[] {pdfBlob, textBlob});
    }

    /**
     * Local paths of a finished entry's blobs, or null when they are gone (deleted meanwhile).
     *
     * @throws IOException when the blob store cannot be read
     */
    public Blobs open(Entry done) throws IOException {
        Path pdf = done.pdfBlob() == null ? null : blobs.local(done.pdfBlob());
        Path text = blobs.local(done.textBlob());
        return (pdf == null || Files.exists(pdf)) && Files.exists(text) ? new Blobs(pdf, text) : null;
    }

    /** Deletes the kept OCR of the bytes of {@code fileId} (all its variants, with their blobs), for any file that had them. */
    public void forgetFile(String fileId) throws IOException {
        List<String[]> contents = db.sql("SELECT account_id, sha256 FROM kept_ocr_files WHERE file_id = ?").param(fileId)
                .query((rs, n) -> new String[] {rs.getString(1), rs.getString(2)}).list();
        for (String[] c : contents) {
            List<String[]> kept = db.sql("SELECT pdf_blob, text_blob FROM kept_ocr WHERE account_id = ? AND sha256 = ?")
                    .params(c[0], c[1]).query((rs, n) -> new String[] {rs.getString(1), rs.getString(2)}).list();
            for (String[] b : kept) deleteBlobs(b);
            db.sql("DELETE FROM kept_ocr WHERE account_id = ? AND sha256 = ?").params(c[0], c[1]).update();
            db.sql("DELETE FROM kept_ocr_files WHERE account_id = ? AND sha256 = ?").params(c[0], c[1]).update();
        }
    }

    /** Removes kept OCRs whose files have all expired (blobs first: a failure leaves the row to try again), and the links of expired files. */
    public void purgeExpired(Instant now) throws IOException {
        List<String[]> kept = db.sql("SELECT pdf_blob, text_blob FROM kept_ocr WHERE expires_at < ?").param(now.toEpochMilli())
                .query((rs, n) -> new String[] {rs.getString(1), rs.getString(2)}).list();
        for (String[] b : kept) deleteBlobs(b);
        db.sql("DELETE FROM kept_ocr WHERE expires_at < ?").param(now.toEpochMilli()).update();
        db.sql("DELETE FROM kept_ocr_files WHERE file_id IN (SELECT id FROM files WHERE expires_at < ?)").param(now.toEpochMilli()).update();
    }

    /** The SHA-256 of a file's bytes, hex: the content part of a {@link Key}. */
    public static String sha256(Path file) throws IOException {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[64 * 1024];
            int n;
            while ((n = in.read(buf)) > 0) md.update(buf, 0, n);
            return java.util.HexFormat.of().formatHex(md.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private String put(Path source) throws IOException {
        String id = Ids.newId("ocr_");
        Path copy = blobs.newTempFile();
        try {
            Files.copy(source, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            blobs.put(id, copy);
            return id;
        } finally {
            Files.deleteIfExists(copy);
        }
    }

    private void deleteBlobs(String[] ids) throws IOException {
        for (String id : ids) if (id != null) blobs.delete(id);
    }

    private static List<Integer> pages(String list) {
        if (list == null || list.isEmpty()) return List.of();
        return Arrays.stream(list.split(",")).map(Integer::valueOf).toList();
    }
}
