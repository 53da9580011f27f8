package dev.docapi.accounts;

import dev.docapi.config.Ids;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * One-time links of the developer area: a random token, valid for its {@link Purpose}'s time and once, and only
 * for that purpose; only its SHA-256 is stored, like an API key's.
 */
@Service
public class LoginLinks {
    /** The validity of a sign-in link ({@code bin/docapi admin login-link}). */
    public static final Duration VALIDITY = Purpose.SIGN_IN.validity;
    private final JdbcClient db;

    public LoginLinks(JdbcClient db) {
        this.db = db;
    }

    /** What a link does when followed, and how long it is valid. */
    public enum Purpose {
        /** Signs in ({@code admin login-link}). */
        SIGN_IN(Duration.ofMinutes(15)),
        /** Marks the account's email verified (mailed at sign-up). */
        VERIFY_EMAIL(Duration.ofHours(24)),
        /** Lets the owner set a new password ("forgot password" mail). */
        RESET_PASSWORD(Duration.ofMinutes(30));

        public final Duration validity;

        Purpose(Duration validity) {
            this.validity = validity;
        }

        String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A new sign-in token for the account (43 base62 characters). */
    public String create(String accountId) {
        return create(accountId, Purpose.SIGN_IN);
    }

    /** A new token for the account and purpose (43 base62 characters). */
    public String create(String accountId, Purpose purpose) {
        String token = Ids.random(43);
        db.sql("INSERT INTO login_links(token_hash, account_id, expires_at, purpose) VALUES (?,?,?,?)")
                .params(AccountService.hash(token), accountId, Instant.now().plus(purpose.validity).toEpochMilli(), purpose.id()).update();
        return token;
    }

    /** Uses a sign-in token up; see {@link #redeem(String, Purpose)}. */
    public Optional<String> redeem(String token) {
        return redeem(token, Purpose.SIGN_IN);
    }

    /**
     * Uses the token up: the account id when it was made for this purpose, unused and not expired; empty otherwise
     * (a token of another purpose stays unused).
     */
    public Optional<String> redeem(String token, Purpose purpose) {
        String h = AccountService.hash(token);
        long now = Instant.now().toEpochMilli();
        // the conditional update decides: of two concurrent uses, only one changes the row
        int used = db.sql("UPDATE login_links SET used_at = ? WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?")
                .params(now, h, purpose.id(), now).update();
        if (used == 0) return Optional.empty();
        return db.sql("SELECT account_id FROM login_links WHERE token_hash = ?").param(h).query(String.class).optional();
    }
}
