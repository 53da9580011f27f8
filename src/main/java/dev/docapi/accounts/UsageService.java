package dev.docapi.accounts;

import java.time.LocalDate;
import java.time.ZoneOffset;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** Counts successful operations and AI operations per account and UTC calendar month (spec §8 counting rules). */
@Service
public class UsageService {
    private final JdbcClient db;

    public UsageService(JdbcClient db) {
        this.db = db;
    }

    /** The current period, e.g. {@code 2026-11} (UTC). */
    public static String currentPeriod() {
        return LocalDate.now(ZoneOffset.UTC).toString().substring(0, 7);
    }

    /** Adds {@code operations} and {@code aiOperations} to this month's counters of the account. */
    public void record(String accountId, int operations, int aiOperations) {
        String period = currentPeriod();
        int updated = db.sql("UPDATE usage_counters SET operations = operations + ?, ai_operations = ai_operations + ? WHERE account_id = ? AND period = ?")
                .params(operations, aiOperations, accountId, period).update();
        if (updated > 0) return;
        try {
            db.sql("INSERT INTO usage_counters(account_id, period, operations, ai_operations) VALUES (?,?,?,?)")
                    .params(accountId, period, operations, aiOperations).update();
        } catch (DuplicateKeyException raced) {
            record(accountId, operations, aiOperations);
        }
    }

    /** This month's counts: {@code [operations, aiOperations]}. */
    public int[] current(String accountId) {
        return db.sql("SELECT operations, ai_operations FROM usage_counters WHERE account_id = ? AND period = ?")
                .params(accountId, currentPeriod())
                .query((rs, i) -> new int[] {rs.getInt(1), rs.getInt(2)})
                .optional().orElse(new int[] {0, 0});
    }
}
