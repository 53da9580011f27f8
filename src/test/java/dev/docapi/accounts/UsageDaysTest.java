package dev.docapi.accounts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Daily counts (the developer area's chart) are kept {@link UsageService#DAYS_KEPT} days, the monthly ones stay. */
class UsageDaysTest extends ApiTestBase {
    @Autowired
    UsageService usage;
    @Autowired
    JdbcClient db;

    @Test
    void dailyCountsOlderThanTheKeptDaysArePruned() {
        String account = accounts.createAccount("usage-days-" + System.nanoTime() + "@example.com", Plan.FREE).account().id();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        usage.record(account, 2, 0);
        LocalDate kept = today.minusDays(UsageService.DAYS_KEPT), gone = kept.minusDays(1);
        for (LocalDate day : new LocalDate[] {kept, gone}) {
            db.sql("INSERT INTO usage_days(account_id, utc_day, operations, ai_operations) VALUES (?,?,?,0)").params(account, day.toString(), 5).update();
        }

        usage.pruneDays();

        assertThat(usage.operationsPerDay(account, gone)).containsOnlyKeys(kept, today);
        assertThat(usage.current(account)[0]).as("this month's count").isEqualTo(2);
    }
}
