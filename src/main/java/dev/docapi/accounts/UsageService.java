package dev.docapi.accounts;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * Counts successful operations and AI operations per account and UTC calendar month (spec §8 counting rules), and per
 * UTC day for the developer area's chart; daily counts older than {@link #DAYS_KEPT} days are deleted.
 */
@Service
public class UsageService {
    /** Days of daily counts kept: the chart shows 7; a quarter leaves room for a longer one. */
    static final int DAYS_KEPT = 92;

    private final JdbcClient db;

    public UsageService(JdbcClient db) {
        this.db = db;
    }

    /** The current period, e.g. {@code 2026-11} (UTC). */
    public static String currentPeriod() {
        return LocalDate.now(ZoneOffset.UTC).toString().substring(0, 7);
    }

    /** Adds {@code operations} and {@code aiOperations} to this month's and today's counters of the account. */
    public void record(String accountId, int operations, int aiOperations) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        add("usage_counters", "period", today.toString().substring(0, 7), accountId, operations, aiOperations);
        add("usage_days", "utc_day", today.toString(), accountId, operations, aiOperations);
    }

    /** Adds {@code operations} to today's count only: the month's was counted through a reservation ({@code limits.Reservations}). */
    public void recordDay(String accountId, int operations) {
        add("usage_days", "utc_day", LocalDate.now(ZoneOffset.UTC).toString(), accountId, operations, 0);
    }

    private void add(String table, String column, String key, String accountId, int operations, int aiOperations) {
        int updated = db.sql("UPDATE " + table + " SET operations = operations + ?, ai_operations = ai_operations + ? WHERE account_id = ? AND " + column + " = ?")
                .params(operations, aiOperations, accountId, key).update();
        if (updated > 0) return;
        try {
            db.sql("INSERT INTO " + table + "(account_id, " + column + ", operations, ai_operations) VALUES (?,?,?,?)")
                    .params(accountId, key, operations, aiOperations).update();
        } catch (DuplicateKeyException raced) {
            add(table, column, key, accountId, operations, aiOperations);
        }
    }

    /** The account's operations per UTC day since {@code first} (inclusive); days without any are absent. */
    public Map<LocalDate, Integer> operationsPerDay(String accountId, LocalDate first) {
        Map<LocalDate, Integer> out = new TreeMap<>();
        db.sql("SELECT utc_day, operations FROM usage_days WHERE account_id = ? AND utc_day >= ?").params(accountId, first.toString())
                .query(rs -> {
                    out.put(LocalDate.parse(rs.getString(1)), rs.getInt(2));
                });
        return out;
    }

    /** Deletes the daily counts older than {@link #DAYS_KEPT} days (every node may run it; the monthly counts stay). */
    @Scheduled(fixedDelay = 3_600_000, initialDelay = 120_000)
    public void pruneDays() {
        db.sql("DELETE FROM usage_days WHERE utc_day < ?").param(LocalDate.now(ZoneOffset.UTC).minusDays(DAYS_KEPT).toString()).update();
    }

    /** This month's counts: {@code [operations, aiOperations]}. */
    public int[] current(String accountId) {
        return db.sql("SELECT operations, ai_operations FROM usage_counters WHERE account_id = ? AND period = ?")
                .params(accountId, currentPeriod())
                .query((rs, i) -> new int[] {rs.getInt(1), rs.getInt(2)})
                .optional().orElse(new int[] {0, 0});
    }
}
