package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import dev.docapi.accounts.Plan;
import dev.docapi.config.Ids;
import dev.docapi.support.ApiTestBase;
import java.sql.Connection;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The claim query itself (issue 40 item 3), on the test database (H2, and PostgreSQL in the database pass), for two
 * made-up nodes of 4 workers and a share of 2. Its rows are due a day from now and claimed "two days from now", so
 * the running service's own node never sees them.
 */
@Tag("database")
@Isolated("claims from the one queue as made-up nodes")
class FairClaimTest extends ApiTestBase {
    @Autowired
    DataSource dataSource;
    @Autowired
    JdbcClient db;
    @Autowired
    JobStore jobs;
    private final Instant due = Instant.now().plus(1, ChronoUnit.DAYS);
    private final Instant now = due.plus(1, ChronoUnit.DAYS);
    private final List<String> created = new ArrayList<>();
    private int order;

    @AfterEach
    void removeRows() {
        for (String id : created) {
            db.sql("DELETE FROM scheduled_tasks WHERE task_name = ? AND task_instance = ?").params(JobQueue.TASK, id).update();
            db.sql("DELETE FROM jobs WHERE id = ?").param(id).update();
        }
    }

    @Test
    void theNextWorkerTakesTheOldestJobOfTheAccountWithFewestRunningAndNoAccountPassesItsShareWhileOthersWait() throws Exception {
        FairClaim node1 = claimer("fair-test-node-1-" + UUID.randomUUID());
        String a = account(), b = account();
        String a1 = queue(a), a2 = queue(a), a3 = queue(a), a4 = queue(a), a5 = queue(a);
        String b1 = queue(b), b2 = queue(b), b3 = queue(b);

        // oldest first while the counts tie, then the account with fewer running: A, B, A, B
        assertThat(node1.claim(now)).contains(a1);
        assertThat(node1.claim(now)).contains(b1);
        assertThat(node1.claim(now)).contains(a2);
        assertThat(node1.claim(now)).contains(b2);
        // four workers busy, each account at its share: nothing more starts, though both have jobs queued
        assertThat(node1.claim(now)).isEmpty();
        assertThat(pickedBy(a1)).isEqualTo(pickedBy(b2)).startsWith("fair-test-node-1-");

        // a job of B ends: B has fewer running, so its next job goes first although A's are older
        done(b1);
        assertThat(node1.claim(now)).contains(b3);
        assertThat(node1.claim(now)).isEmpty();
        done(b2);
        done(b3);
        // B has nothing queued: A, alone, takes every worker
        assertThat(node1.claim(now)).contains(a3);
        assertThat(node1.claim(now)).contains(a4);
        assertThat(node1.claim(now)).isEmpty(); // four running: A holds all of them
        assertThat(a5).isNotNull();
    }

    @Test
    void aWorkerBorrowedByALoneAccountIsLentBackAtOnceAndEachNodeCountsItsOwnWorkers() throws Exception {
        FairClaim node1 = claimer("fair-test-node-1-" + UUID.randomUUID());
        FairClaim node2 = claimer("fair-test-node-2-" + UUID.randomUUID());
        String a = account(), b = account();
        List<String> aJobs = new ArrayList<>();
        for (int i = 0; i < 5; i++) aJobs.add(queue(a));
        // A alone: every worker of node 1
        for (int i = 0; i < 4; i++) assertThat(node1.claim(now)).contains(aJobs.get(i));
        assertThat(node1.claim(now)).isEmpty();

        // B's jobs arrive: node 1 is full, but A holds 2 workers past its share, lent back to B at once
        String b1 = queue(b), b2 = queue(b), b3 = queue(b);
        assertThat(node1.claim(now)).contains(b1);
        assertThat(node1.claim(now)).contains(b2);
        // B at its share on node 1 and A over it: nothing more starts there
        assertThat(node1.claim(now)).isEmpty();
        // node 2 counts its own workers: B (fewest running there, tie) is behind A's oldest queued job by age, yet B
        // has fewer running on all nodes (2 against 4): B's job first
        assertThat(node2.claim(now)).contains(b3);
        assertThat(node2.claim(now)).contains(aJobs.get(4));
        assertThat(node2.claim(now)).isEmpty();

        // A's borrowed jobs end on node 1: B's next job must wait for a worker under the plain rule again
        String b4 = queue(b);
        done(aJobs.get(0));
        done(aJobs.get(1));
        // node 1 runs A 2, B 2: four workers busy, no one over its share, nothing lent
        assertThat(node1.claim(now)).isEmpty();
        done(aJobs.get(2));
        assertThat(node1.claim(now)).contains(b4);
    }

    private FairClaim claimer(String node) throws Exception {
        boolean postgres;
        try (Connection c = dataSource.getConnection()) {
            postgres = c.getMetaData().getDatabaseProductName().equals("PostgreSQL");
        }
        return new FairClaim(dataSource, new AutodetectJdbcCustomization(dataSource), postgres, node, 4, JobQueue.share(4, 0));
    }

    private String account() {
        return accounts.createAccount("fair-" + UUID.randomUUID() + "@example.com", Plan.PRO).account().id();
    }

    /** A queued job of {@code accountId} with its queue row, each one a millisecond younger than the one before. */
    private String queue(String accountId) {
        String id = Ids.newId("job_");
        jobs.create(id, accountId, "rotate", JSON.createObjectNode(), null, null, null);
        db.sql("INSERT INTO scheduled_tasks(task_name, task_instance, execution_time, picked, version, priority) VALUES (?,?,?,?,?,?)")
                .params(JobQueue.TASK, id, OffsetDateTime.ofInstant(due.plusMillis(order++), ZoneOffset.UTC), false, 1L, 0).update();
        created.add(id);
        return id;
    }

    private String pickedBy(String id) {
        return db.sql("SELECT picked_by FROM scheduled_tasks WHERE task_name = ? AND task_instance = ?").params(JobQueue.TASK, id)
                .query(String.class).optional().orElse(null);
    }

    /** The job ended: its queue row goes, as db-scheduler removes it. */
    private void done(String id) {
        assertThat(db.sql("DELETE FROM scheduled_tasks WHERE task_name = ? AND task_instance = ? AND picked = TRUE")
                .params(JobQueue.TASK, id).update()).as("a claimed row of " + id).isEqualTo(1);
    }
}
