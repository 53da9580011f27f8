package dev.docapi.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Properties;
import javax.crypto.KDF;
import javax.crypto.spec.HKDFParameterSpec;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The one master key every stored secret is derived from (issue 10): link signing, the AES-GCM key of sealed provider
 * keys, webhook signing secrets and saved workflow steps. It comes from {@code DOCAPI_SECRET} when set (every node of
 * a cluster sets the same), otherwise from {@code secrets.key} in the data dir, created at first start with mode
 * 0600 — never from the database, so a copy of the database alone reveals no secret. The same file holds the
 * embedded database's random password. The data dir itself is made 0700.
 *
 * <p>Keys for each purpose are derived with HKDF-SHA256 (RFC 5869, the JDK's {@code javax.crypto.KDF}).
 */
@Component
public class MasterKey {
    static final String FILE = "secrets.key";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] material;
    private final String databasePassword;
    private final Path dataDir;

    public MasterKey(DocapiProperties props, String operatorSecret) throws IOException {
        this(props, operatorSecret, false);
    }

    /**
     * @param adminDirect {@code bin/docapi admin} in a JVM of its own (issue 38): with {@code DOCAPI_SECRET} set and no
     *                    key file, none is created (a PostgreSQL service's key file is on its own node)
     */
    @org.springframework.beans.factory.annotation.Autowired
    public MasterKey(DocapiProperties props, @Value("${docapi.ai.secret:}") String operatorSecret,
                     @Value("${docapi.admin-direct:false}") boolean adminDirect) throws IOException {
        this.dataDir = props.dataDir().toAbsolutePath().normalize();
        boolean secret = operatorSecret != null && !operatorSecret.isBlank();
        Properties file = adminDirect && secret && !Files.exists(dataDir.resolve(FILE)) ? new Properties() : loadOrCreate(dataDir);
        this.material = operatorSecret != null && !operatorSecret.isBlank()
                ? operatorSecret.getBytes(StandardCharsets.UTF_8)
                : Base64.getDecoder().decode(file.getProperty("master"));
        this.databasePassword = file.getProperty("database_password");
    }

    /**
     * A 32-byte key for one purpose (e.g. {@code "link signing"}); the same master and purpose always give the same key.
     */
    public byte[] derive(String purpose) {
        return derive(material, purpose);
    }

    private static byte[] derive(byte[] material, String purpose) {
        try {
            return KDF.getInstance("HKDF-SHA256").deriveData(HKDFParameterSpec.ofExtract().addIKM(material)
                    .addSalt("docapi master key".getBytes(StandardCharsets.UTF_8))
                    .thenExpand(purpose.getBytes(StandardCharsets.UTF_8), 32));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HKDF-SHA256 is not available in this JDK", e);
        }
    }

    /**
     * A master key to rotate to: {@code newSecret} (the operator's next {@code DOCAPI_SECRET}) or, when null, a new
     * random key that {@link Rotation#commit()} writes to {@code secrets.key}.
     */
    public Rotation next(String newSecret) {
        byte[] m = newSecret != null ? newSecret.getBytes(StandardCharsets.UTF_8) : Base64.getDecoder().decode(random(32));
        return new Rotation(m, newSecret == null);
    }

    /** A new master key: its derived keys; {@link #prepare()} before re-sealing, {@link #commit()} after. */
    public final class Rotation {
        private final byte[] next;
        private final boolean toFile;

        private Rotation(byte[] next, boolean toFile) {
            this.next = next;
            this.toFile = toFile;
        }

        /** The key for {@code purpose} under the new master (see {@link MasterKey#derive}). */
        public byte[] key(String purpose) {
            return derive(next, purpose);
        }

        /** Writes the new key beside {@code secrets.key} before anything is re-sealed, so it cannot be lost. */
        public void prepare() throws IOException {
            if (!toFile) return;
            Properties p = loadOrCreate(dataDir);
            p.setProperty("master", Base64.getEncoder().encodeToString(next));
            Path tmp = pending();
            Files.deleteIfExists(tmp);
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (var out = Files.newBufferedWriter(tmp)) {
                p.store(out, "docapi master key and embedded database password; keep private, back up with the data dir");
            }
        }

        /** Makes the prepared key the master key (an atomic rename); call once everything is re-sealed. */
        public void commit() throws IOException {
            if (toFile) Files.move(pending(), dataDir.resolve(FILE), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }

        /** Drops the prepared key (the re-sealing failed and was rolled back). */
        public void abandon() throws IOException {
            Files.deleteIfExists(pending());
        }

        private Path pending() {
            return dataDir.resolve(FILE + ".new");
        }
    }

    /**
     * The admin API's token when {@code DOCAPI_ADMIN_TOKEN} is not set (issue 24): derived from the master key, so the
     * admin CLI on the same machine, which can read the key file or has {@code DOCAPI_SECRET}, knows it without a
     * new secret to keep.
     */
    public String adminToken() {
        return adminToken(material);
    }

    /**
     * The derived admin token ({@link #adminToken()}) as a process other than the service computes it: from
     * {@code operatorSecret} when set, else from the key file in {@code dataDir}; empty when neither exists (the key
     * file is never created here).
     */
    public static java.util.Optional<String> adminToken(Path dataDir, String operatorSecret) throws IOException {
        if (operatorSecret != null && !operatorSecret.isBlank()) return java.util.Optional.of(adminToken(operatorSecret.getBytes(StandardCharsets.UTF_8)));
        Path key = dataDir.toAbsolutePath().normalize().resolve(FILE);
        if (!Files.isReadable(key)) return java.util.Optional.empty();
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(key)) {
            p.load(in);
        }
        String master = p.getProperty("master");
        return master == null ? java.util.Optional.empty() : java.util.Optional.of(adminToken(Base64.getDecoder().decode(master)));
    }

    private static String adminToken(byte[] material) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(derive(material, "admin api token"));
    }

    /** The embedded database's password (random, from the key file). */
    public String databasePassword() {
        return databasePassword;
    }

    /** Reads the key file, creating it (0600, in a 0700 data dir) on first start. */
    static Properties loadOrCreate(Path dataDir) throws IOException {
        Path dir = dataDir.toAbsolutePath().normalize();
        Files.createDirectories(dir);
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException notPosix) {
            // a file system without POSIX permissions: nothing to tighten
        }
        Path key = dir.resolve(FILE);
        if (!Files.exists(key)) {
            Properties fresh = new Properties();
            fresh.setProperty("master", random(32));
            fresh.setProperty("database_password", random(24));
            Path tmp = dir.resolve(FILE + "." + ProcessHandle.current().pid());
            Files.deleteIfExists(tmp);
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (var out = Files.newBufferedWriter(tmp)) {
                fresh.store(out, "docapi master key and embedded database password; keep private, back up with the data dir");
            }
            try {
                Files.createLink(key, tmp); // atomic and never overwrites: the first process to start wins
            } catch (FileAlreadyExistsException raced) {
                // another process created it first; use that one
            } finally {
                Files.delete(tmp);
            }
        }
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(key)) {
            p.load(in);
        }
        if (p.getProperty("master") == null || p.getProperty("database_password") == null) {
            throw new IllegalStateException(key + " is incomplete; restore it from a backup (stored secrets depend on it)");
        }
        return p;
    }

    private static String random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }
}
