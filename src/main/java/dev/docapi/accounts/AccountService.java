package dev.docapi.accounts;

import dev.docapi.crypto.SecretBox;
import dev.docapi.config.Ids;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Accounts and their API keys (spec §5). A key is {@code dk_<prefix>_<secret>}: random, shown once at creation,
 * stored only as its SHA-256 hash; revoking takes effect on the next request.
 */
@Service
public class AccountService {
    private static final long LAST_USED_PRECISION_MS = 60_000;
    private final JdbcClient db;
    private final SecretBox box;

    public AccountService(JdbcClient db, SecretBox box) {
        this.box = box;
        this.db = db;
    }

    /** A new account and the plain API key for it. */
    public record Created(Account account, String apiKey) {
    }

    /**
     * @throws IllegalArgumentException if the email is blank or already has an account
     */
    @Transactional
    public Created createAccount(String email, Plan plan) {
        Account a = insert(email, plan, null);
        // the operator made it for this address: nothing to verify
        markEmailVerified(a.id());
        return new Created(a, createKey(a.id()));
    }

    /**
     * A free account signed up in the developer area, with its password hash and no API key yet.
     *
     * @throws IllegalArgumentException if the email is not valid or already has an account
     */
    public Account signUp(String email, String passwordHash) {
        return insert(email, Plan.FREE, passwordHash);
    }

    private Account insert(String email, Plan plan, String passwordHash) {
        if (email == null || !email.contains("@")) throw new IllegalArgumentException("a valid --email is required");
        if (findByEmail(email).isPresent()) throw new IllegalArgumentException("an account with email " + email + " exists");
        Instant now = Instant.now();
        Instant expires = plan == Plan.WEEK_PASS ? now.plus(Duration.ofDays(7)) : null;
        Account a = new Account(Ids.newId("acct_"), email, plan, expires, "whsec_" + Ids.random(40), now);
        db.sql("INSERT INTO accounts(id, email, plan, plan_expires_at, webhook_secret, created_at, password_hash) VALUES (?,?,?,?,?,?,?)")
                .params(a.id(), a.email(), plan.id(), expires == null ? null : expires.toEpochMilli(), box.seal(a.webhookSecret(), a.id()),
                        now.toEpochMilli(), passwordHash)
                .update();
        return a;
    }

    /** The account's password hash (developer area sign-in), empty when it has none yet or no such email. */
    public Optional<String> passwordHash(String email) {
        return db.sql("SELECT password_hash FROM accounts WHERE email = ? AND password_hash IS NOT NULL").param(email)
                .query(String.class).optional();
    }

    public void setPasswordHash(String accountId, String passwordHash) {
        db.sql("UPDATE accounts SET password_hash = ? WHERE id = ?").params(passwordHash, accountId).update();
    }

    /** Whether the account's email was verified (README "The developer area": an unverified one cannot create API keys). */
    public boolean isEmailVerified(String accountId) {
        return db.sql("SELECT email_verified_at FROM accounts WHERE id = ?").param(accountId)
                .query((rs, i) -> rs.getObject(1) != null).optional().orElse(false);
    }

    public void markEmailVerified(String accountId) {
        db.sql("UPDATE accounts SET email_verified_at = ? WHERE id = ? AND email_verified_at IS NULL")
                .params(Instant.now().toEpochMilli(), accountId).update();
    }

    /** An API key as the developer area lists it: never the key itself, which is not stored. */
    public record ApiKey(String id, String name, String prefix, Instant createdAt, Instant lastUsedAt) {
    }

    /** The account's active keys, newest first. */
    public List<ApiKey> listKeys(String accountId) {
        return db.sql("SELECT id, name, prefix, created_at, last_used_at FROM api_keys WHERE account_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id")
                .param(accountId)
                .query((rs, i) -> {
                    long used = rs.getLong("last_used_at");
                    Instant lastUsed = rs.wasNull() ? null : Instant.ofEpochMilli(used); // wasNull() refers to the last column read
                    return new ApiKey(rs.getString("id"), rs.getString("name"), rs.getString("prefix"),
                            Instant.ofEpochMilli(rs.getLong("created_at")), lastUsed);
                }).list();
    }

    /**
     * Creates another key for an account and returns it in plain text (the only time it is shown).
     *
     * @throws IllegalArgumentException if the account does not exist
     */
    public String createKey(String accountId) {
        return createKey(accountId, null);
    }

    /** As {@link #createKey(String)}, with the name the owner gave it in the developer area (≤ 100 characters). */
    public String createKey(String accountId, String name) {
        if (findById(accountId).isEmpty()) throw new IllegalArgumentException("no account " + accountId);
        String prefix = Ids.random(8);
        String key = "dk_" + prefix + "_" + Ids.random(32);
        db.sql("INSERT INTO api_keys(id, account_id, prefix, key_hash, created_at, name) VALUES (?,?,?,?,?,?)")
                .params(Ids.newId("key_"), accountId, prefix, hash(key), Instant.now().toEpochMilli(), name)
                .update();
        return key;
    }

    /** Revokes one of the account's own keys by id; false when the account has no such active key. */
    public boolean revokeKey(String accountId, String keyId) {
        return db.sql("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND account_id = ? AND revoked_at IS NULL")
                .params(Instant.now().toEpochMilli(), keyId, accountId).update() > 0;
    }

    /** @return false when no active key has that prefix */
    public boolean revokeKey(String prefix) {
        String p = prefix.startsWith("dk_") ? prefix.substring(3) : prefix;
        if (p.contains("_")) p = p.substring(0, p.indexOf('_'));
        return db.sql("UPDATE api_keys SET revoked_at = ? WHERE prefix = ? AND revoked_at IS NULL")
                .params(Instant.now().toEpochMilli(), p).update() > 0;
    }

    /** The account owning an active key, or empty for an unknown or revoked key. */
    public Optional<Account> authenticate(String apiKey) {
        String keyHash = hash(apiKey);
        record Found(Account account, long lastUsed) {
        }
        Optional<Found> found = db.sql("SELECT a.*, k.last_used_at AS key_last_used FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ? AND k.revoked_at IS NULL")
                .param(keyHash).query((rs, row) -> new Found(map(rs, row), rs.getLong("key_last_used"))).optional();
        long now = Instant.now().toEpochMilli();
        // "last used" is shown to the minute: one write per key and minute, not one per request
        if (found.isPresent() && now - found.get().lastUsed() > LAST_USED_PRECISION_MS) {
            db.sql("UPDATE api_keys SET last_used_at = ? WHERE key_hash = ?").params(now, keyHash).update();
        }
        return found.map(Found::account);
    }

    public Optional<Account> findById(String id) {
        return db.sql("SELECT * FROM accounts WHERE id = ?").param(id).query(this::map).optional();
    }

    public Optional<Account> findByEmail(String email) {
        return db.sql("SELECT * FROM accounts WHERE email = ?").param(email).query(this::map).optional();
    }

    public List<Account> list() {
        return db.sql("SELECT * FROM accounts ORDER BY created_at").query(this::map).list();
    }

    /** Changes an account's plan; a week pass runs for 7 days from now. */
    public void setPlan(String accountId, Plan plan) {
        Long expires = plan == Plan.WEEK_PASS ? Instant.now().plus(Duration.ofDays(7)).toEpochMilli() : null;
        db.sql("UPDATE accounts SET plan = ?, plan_expires_at = ? WHERE id = ?").params(plan.id(), expires, accountId).update();
    }

    /** Replaces the account's webhook signing secret and returns the new one. */
    public String rotateWebhookSecret(String accountId) {
        String secret = "whsec_" + Ids.random(40);
        db.sql("UPDATE accounts SET webhook_secret = ? WHERE id = ?").params(box.seal(secret, accountId), accountId).update();
        return secret;
    }

    private String webhookSecret(String stored, String accountId) {
        return stored.startsWith("whsec_") ? stored : box.open(stored, accountId);
    }

    static String hash(String key) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The webhook secret is stored sealed ({@link SecretBox}); one stored in clear by an older version still reads. */
    private Account map(ResultSet rs, int row) throws SQLException {
        long exp = rs.getLong("plan_expires_at");
        Instant expires = rs.wasNull() ? null : Instant.ofEpochMilli(exp); // wasNull() refers to the last column read
        return new Account(rs.getString("id"), rs.getString("email"), Plan.of(rs.getString("plan")),
                expires, webhookSecret(rs.getString("webhook_secret"), rs.getString("id")),
                Instant.ofEpochMilli(rs.getLong("created_at")));
    }
}
