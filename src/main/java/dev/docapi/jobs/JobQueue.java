package dev.docapi.jobs;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.DeadExecutionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionComplete;
import com.github.kagkarlsson.scheduler.task.ExecutionOperations;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import dev.docapi.config.DocapiProperties;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.stereotype.Component;

/**
 * The durable job queue (issue 15), on db-scheduler: every queued or running job is one execution row of task
 * {@code job} (instance id = job id) in the shared database. Each node's workers ({@code DOCAPI_WORKERS}) claim due
 * rows with {@link FairClaim}'s query — on PostgreSQL under {@code FOR UPDATE SKIP LOCKED}, elsewhere with a
 * versioned update — and keep a heartbeat on them while the job runs.
 *
 * <ul>
 *   <li>Admission schedules the row in the admitting transaction ({@link #schedule}; the data source is
 *       transaction-aware), then {@link #wake}s this node, so a node with a free worker starts its own job at once;
 *       on PostgreSQL every other node is woken by a notification ({@link QueueNotifications}), elsewhere it finds
 *       the job within the polling interval (500 ms).</li>
 *   <li>Fairness between accounts (issue 40 item 3; {@link FairClaim}): the next free worker takes the oldest job of
 *       the account with the fewest jobs running on the node; while other accounts wait, no account holds more than
 *       {@code DOCAPI_MAX_WORKERS_PER_ACCOUNT} workers (default half of {@code DOCAPI_WORKERS}, at least 1); a lone
 *       account uses every worker, and a worker it borrowed is lent back at once to a job of another account. A job's
 *       priority (minus the number of the account's jobs already queued or running when it was admitted) breaks
 *       ties.</li>
 *   <li>A node that dies stops beating; after {@link #LEASE} another node's dead-execution check hands the row to
 *       {@link JobRunner#deadExecution}: a job that had started fails with {@code interrupted} (spec §3), one that had
 *       not is queued again.</li>
 *   <li>Stop ({@code SIGTERM}): claiming stops at once, running jobs get {@code DOCAPI_SHUTDOWN_GRACE} (default
 *       120 s) to finish, then are interrupted; the stop takes at most the grace plus {@link #INTERRUPTED_WAIT}. The HTTP server stops after this (a later lifecycle phase), so waits
 *       on finishing jobs are still answered.</li>
 * </ul>
 */
@Component
public class JobQueue implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(JobQueue.class);
    static final String TASK = "job";
    static final Duration POLL = Duration.ofMillis(500);
    static final Duration HEARTBEAT = Duration.ofSeconds(2);
    static final int MISSED_HEARTBEATS = 5;
    /** How long a claimed job survives without its node's heartbeat. */
    static final Duration LEASE = HEARTBEAT.multipliedBy(MISSED_HEARTBEATS);
    /** How long a stop waits, past the grace, for interrupted jobs to record that they were interrupted. */
    static final Duration INTERRUPTED_WAIT = Duration.ofSeconds(15);

    private final DataSource dataSource;
    private final OneTimeTask<Void> task;
    private final DocapiProperties props;
    private final String node;
    private final boolean postgres;
    private final boolean worker;
    private final SchedulerClient client;
    /** The claiming scheduler while started; a new one each start (a stopped db-scheduler cannot start again). */
    private volatile Scheduler scheduler;
    private final JdbcClient db;
    /** PostgreSQL only: wakes this node when any node queues a job. */
    private final QueueNotifications notifications;
    private volatile boolean stopping;
    /** The database without the transaction-aware proxy: claims run in transactions of their own. */
    private final DataSource rawDataSource;
    /** {@code DOCAPI_MAX_WORKERS_PER_ACCOUNT}, resolved: 1 to {@code DOCAPI_WORKERS}. */
    private final int share;

    public JobQueue(DataSource dataSource, DocapiProperties props, JobRunner runner, Environment env,
                    @Value("${docapi.max-workers-per-account:0}") int maxWorkersPerAccount) throws SQLException {
        this.rawDataSource = dataSource;
        this.share = share(Math.max(1, props.workers()), maxWorkersPerAccount);
        this.dataSource = new TransactionAwareDataSourceProxy(dataSource);
        this.props = props;
        this.node = runner.node();
        this.task = Tasks.oneTime(TASK)
                .onDeadExecution(new DeadExecutionHandler<>() {
                    @Override
                    public void deadExecution(ExecutionComplete complete, ExecutionOperations<Void> ops) {
                        String jobId = complete.getExecution().taskInstance.getId();
                        if (runner.deadExecution(jobId)) ops.reschedule(complete, Instant.now());
                        else ops.remove();
                    }
                })
                .execute((instance, ctx) -> runner.execute(instance.getId()));
        this.postgres = isPostgres(dataSource);
        // Scheduling joins the admitting transaction: the data source is transaction-aware and the client never commits.
        this.client = SchedulerClient.Builder.create(this.dataSource, task).enablePriority().build();
        // The admin CLI shares the database with a running service: it never claims jobs.
        this.worker = !env.matchesProfiles("admin");
        this.db = JdbcClient.create(this.dataSource);
        // every node, the admin CLI too, notifies; only workers listen
        this.notifications = postgres ? new QueueNotifications(props, this::wake) : null;
    }

    /** {@code DOCAPI_MAX_WORKERS_PER_ACCOUNT}: 0 (unset) is half of the workers; always 1 to {@code workers}. */
    static int share(int workers, int configured) {
        int share = configured > 0 ? configured : workers / 2;
        return Math.max(1, Math.min(workers, share));
    }

    /** How many of this node's workers one account may hold while other accounts' jobs wait. */
    public int share() {
        return share;
    }

    /**
     * Adds the job's execution row, due now. Call inside the admitting transaction; {@link #wake} after it commits.
     *
     * @param priority higher runs first among due jobs (minus the account's active jobs; see the class comment)
     */
    public void schedule(String jobId, int priority) {
        client.scheduleIfNotExists(new TaskInstance.Builder<Void>(TASK, jobId).priority(priority).scheduledTo(Instant.now()));
        if (notifications != null) QueueNotifications.notifyQueued(db);
    }

    /** Makes this node look for due jobs now instead of at its next poll. */
    public void wake() {
        Scheduler s = scheduler;
        if (s != null) s.triggerCheckForDueExecutions();
    }

    @Override
    public synchronized void start() {
        if (!worker || scheduler != null) return;
        int workers = Math.max(1, props.workers());
        var builder = Scheduler.create(dataSource, task)
                .schedulerName(new SchedulerName.Fixed(node))
                // threads for the workers and for the ones lent back by an account over its share (FairClaim)
                .threads(FairClaim.threads(workers, share))
                .jdbcCustomization(new FairClaim(rawDataSource, new AutodetectJdbcCustomization(rawDataSource), postgres, node, workers, share))
                .pollingInterval(POLL)
                .heartbeatInterval(HEARTBEAT)
                .missedHeartbeatsLimit(MISSED_HEARTBEATS)
                .enablePriority()
                .shutdownMaxWait(props.shutdownGrace())
                .deleteUnresolvedAfter(Duration.ofDays(1));
        // Claim only jobs this node starts now, as FairClaim's rule allows (on every database).
        builder.pollUsingLockAndFetch(0.5, 1.0);
        Scheduler s = builder.build();
        s.start();
        scheduler = s;
        if (notifications != null) notifications.start();
    }

    @Override
    public synchronized void stop() {
        Scheduler s = scheduler;
        if (s == null) return;
        scheduler = null;
        stopping = true;
        if (notifications != null) notifications.stop();
        log.info("stopping: no new jobs are claimed; running jobs have {} to finish", props.shutdownGrace());
        // db-scheduler waits the grace, interrupts the jobs still running, then waits the grace again for them to end:
        // up to twice DOCAPI_SHUTDOWN_GRACE. An interrupted job ends in moments (its engine is killed), so the stop
        // waits at most the grace plus INTERRUPTED_WAIT, which a container's stop period can be sized for (issue 24).
        Thread stopper = Thread.ofPlatform().name("job-queue-stop").start(s::stop);
        try {
            stopper.join(props.shutdownGrace().plus(INTERRUPTED_WAIT));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }

    /** Whether this node claims jobs now (liveness, issue 24). */
    public enum Claiming { YES, STARTING, DRAINING, NEVER }

    /**
     * {@code YES} while this node's scheduler claims jobs, {@code DRAINING} once a stop was asked, {@code NEVER} in
     * the admin CLI.
     */
    public Claiming claiming() {
        if (!worker) return Claiming.NEVER;
        Scheduler s = scheduler;
        if (s == null) return stopping ? Claiming.DRAINING : Claiming.STARTING;
        var state = s.getSchedulerState();
        if (state.isShuttingDown()) return Claiming.DRAINING;
        return state.isStarted() ? Claiming.YES : Claiming.STARTING;
    }

    /** Stops before the web server (a lower phase), so clients waiting on draining jobs still get their answer. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE;
    }

    private static boolean isPostgres(DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return c.getMetaData().getDatabaseProductName().equals("PostgreSQL");
        }
    }
}
