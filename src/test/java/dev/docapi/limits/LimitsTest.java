package dev.docapi.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.Account;
import dev.docapi.accounts.Plan;
import dev.docapi.accounts.UsageService;
import dev.docapi.core.ErrorCode;
import dev.docapi.jobs.Job;
import dev.docapi.jobs.JobStore;
import dev.docapi.support.ApiTestBase;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/** Limits and usage (spec §8), each driven past its edge over real HTTP, including concurrent requests. */
@Tag("database")
@Isolated("measures the rate limit's refill in time")
class LimitsTest extends ApiTestBase {
    private static final String FOUR = "pdf-text/pdflatex-4-pages-objstm.pdf";

    @Autowired UsageService usage;
    @Autowired JobStore jobs;
    @Autowired JdbcClient db;
    @Autowired LimitsProperties limits;

    private Account account(String key) {
        return accounts.authenticate(key).orElseThrow();
    }

    /** Sends all requests at once (released together by a latch) and returns the responses in order. */
    private List<Response> concurrently(List<Callable<Response>> requests) throws Exception {
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Response>> futures = new ArrayList<>();
        for (Callable<Response> c : requests) futures.add(pool.submit(() -> {
            go.await();
            return c.call();
        }));
        go.countDown();
        List<Response> out = new ArrayList<>();
        for (Future<Response> f : futures) out.add(f.get());
        pool.shutdown();
        return out;
    }

    private static tools.jackson.databind.node.ObjectNode parkedInput(String file) {
        tools.jackson.databind.node.ObjectNode input = json();
        input.putArray("files").add(file);
        input.putObject("options").put("seconds", 60);
        return input;
    }

    private static long count(List<Response> rs, int status) {
        return rs.stream().filter(r -> r.status() == status).count();
    }

    @Test
    void theShippedRequestLimitIs120PerMinute() throws Exception {
        java.util.Properties shipped = new java.util.Properties();
        try (var in = java.nio.file.Files.newInputStream(java.nio.file.Path.of("src/main/resources/application.properties"))) {
            shipped.load(in);
        }
        assertThat(shipped.getProperty("docapi.limits.requests-per-minute")).isEqualTo("${DOCAPI_REQUESTS_PER_MINUTE:120}");
    }

    /** Drives past the configured limit (120 when shipped; the test service allows more, see src/test/resources/config). */
    @Test
    void moreRequestsAMinuteThanTheLimitWithOneKeyAre429WithRetryAfterAndOtherKeysAreUnaffected() throws Exception {
        String key = newKey();
        int limit = limits.requestsPerMinute();
        int sent = limit + Math.max(20, limit / 4);
        long start = System.nanoTime();
        List<Callable<Response>> burst = new ArrayList<>();
        for (int i = 0; i < sent; i++) burst.add(() -> get(key, "/jobs"));
        List<Response> rs = concurrently(burst);
        double seconds = (System.nanoTime() - start) / 1e9;
        long ok = count(rs, 200);
        // The full bucket at once, plus what the greedy refill (limit/60 per second) added while the burst ran.
        assertThat(ok).isBetween((long) limit, limit + (long) Math.ceil(seconds * limit / 60.0) + 1);
        Response limited = rs.stream().filter(r -> r.status() == 429).findFirst().orElseThrow();
        assertThat(limited.code()).isEqualTo("rate_limited");
        long retryAfter = Long.parseLong(limited.headers().firstValue("Retry-After").orElseThrow());
        assertThat(retryAfter).isBetween(1L, 60L);
        assertThat(count(rs, 200) + count(rs, 429)).isEqualTo(sent);

        assertThat(get(newKey(), "/jobs").status()).as("another key has its own budget").isEqualTo(200);
        assertThat(get(null, "/jobs").status()).as("no key: 401, not counted").isEqualTo(401);
        Thread.sleep(retryAfter * 1000 + 100);
        assertThat(get(key, "/jobs").status()).as("after Retry-After").isEqualTo(200);
    }

    @Test
    void twentyJobsQueuedOrRunningIsTheCapEvenForConcurrentRequests() throws Exception {
        String key = newKey();
        Account a = account(key);
        String file = uploadId(key, corpus(FOUR));
        // 17 jobs that stay queued (never started by any runner), then 6 slow requests at once: exactly 3 fit.
        List<Job> parked = new ArrayList<>();
        for (int i = 0; i < limits.activeJobs() - 3; i++) parked.add(jobs.create(dev.docapi.config.Ids.newId("job_"), a.id(), "test-sleep", parkedInput(file), null, null, null));
        try {
            List<Callable<Response>> six = new ArrayList<>();
            for (int i = 0; i < 6; i++) six.add(() -> post(key, "/test-sleep", Map.of("file", file, "seconds", 3, "wait", 0)));
            List<Response> rs = concurrently(six);
            assertThat(count(rs, 202)).as(rs.toString()).isEqualTo(3);
            assertThat(count(rs, 429)).isEqualTo(3);
            Response refused = rs.stream().filter(r -> r.status() == 429).findFirst().orElseThrow();
            assertThat(refused.code()).isEqualTo("too_many_jobs");
            assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isPositive();
            assertThat(jobs.countActive(a.id())).isEqualTo(20);
            // A workflow run is a job too.
            Response wf = post(key, "/workflows/run", Map.of("file", file, "steps", List.of(Map.of("operation", "rotate", "options", Map.of("angle", 90)))));
            assertThat(wf.code()).isEqualTo("too_many_jobs");
            // Polling and listing are not refused.
            assertThat(get(key, "/jobs").status()).isEqualTo(200);

            jobs.markFailed(parked.getFirst().id(), ErrorCode.INTERRUPTED, "test");
            Response next = post(key, "/rotate", Map.of("file", file, "angle", 90, "wait", 0));
            assertThat(next.status()).as("a finished job frees a place").isIn(200, 202);
        } finally {
            for (Job j : parked) jobs.markFailed(j.id(), ErrorCode.INTERRUPTED, "test");
        }
    }

    @Test
    void theFreeQuotaCannotBeOvershotByConcurrentRequestsAndIsRefusedBeforeAnyJob() throws Exception {
        String key = newKey(Plan.FREE);
        Account a = account(key);
        String file = uploadId(key, corpus(FOUR));
        usage.record(a.id(), limits.freeOperations() - 2, 0);
        List<Callable<Response>> eight = new ArrayList<>();
        for (int i = 0; i < 8; i++) eight.add(() -> post(key, "/rotate", Map.of("file", file, "angle", 90)));
        List<Response> rs = concurrently(eight);
        assertThat(count(rs, 200)).as(rs.toString()).isEqualTo(2);
        assertThat(count(rs, 402)).isEqualTo(6);
        assertThat(rs.stream().filter(r -> r.status() == 402).map(Response::code).distinct().toList()).containsExactly("quota_exceeded");
        assertThat(get(key, "/jobs").body().get("data").size()).as("refused requests created no job").isEqualTo(2);

        JsonNode u = get(key, "/usage").body();
        assertThat(u.at("/operations/used").asInt()).isEqualTo(100);
        assertThat(u.at("/operations/limit").asInt()).isEqualTo(100);
        assertThat(post(key, "/rotate", Map.of("file", file, "angle", 90)).status()).isEqualTo(402);
        assertThat(post(key, "/workflows/run", Map.of("file", file, "steps", List.of(Map.of("operation", "rotate", "options", Map.of("angle", 90)))))
                .status()).isEqualTo(402);
        // Uploading, listing and polling stay free; a failed validation is a 400, not a 402, and costs nothing.
        assertThat(upload(key, corpus(FOUR)).get("id").asString()).startsWith("file_");
        assertThat(get(key, "/files").status()).isEqualTo(200);
        assertThat(post(key, "/rotate", Map.of("file", file, "angle", 45)).status()).isEqualTo(400);
        assertThat(get(key, "/usage").body().at("/operations/used").asInt()).isEqualTo(100);
        assertThat(db.sql("SELECT reserved FROM usage_counters WHERE account_id = ?").param(a.id()).query(Integer.class).single())
                .as("no reservation left behind").isZero();
    }

    @Test
    void aWorkflowReservesOneOperationPerStepAndAFailedJobGivesItsReservationBack() {
        String key = newKey(Plan.FREE);
        Account a = account(key);
        String file = uploadId(key, corpus(FOUR));
        usage.record(a.id(), limits.freeOperations() - 2, 0);
        List<Object> three = List.of(Map.of("operation", "rotate", "options", Map.of("angle", 90)),
                Map.of("operation", "rotate", "options", Map.of("angle", 90)), Map.of("operation", "rotate", "options", Map.of("angle", 90)));
        Response tooBig = post(key, "/workflows/run", Map.of("file", file, "steps", three));
        assertThat(tooBig.status()).isEqualTo(402);
        assertThat(tooBig.body().at("/error/message").asString()).contains("too few are left");

        assertThat(post(key, "/test-fail", Map.of("file", file)).status()).isEqualTo(502);
        Response failedStep = post(key, "/workflows/run", Map.of("file", file, "steps", List.of(
                Map.of("operation", "rotate", "options", Map.of("angle", 90)), Map.of("operation", "test-fail"))));
        assertThat(failedStep.status()).isEqualTo(502);
        assertThat(get(key, "/usage").body().at("/operations/used").asInt()).as("only the succeeded step counted").isEqualTo(99);
        assertThat(post(key, "/rotate", Map.of("file", file, "angle", 90)).status()).as("the last operation is still available").isEqualTo(200);
        assertThat(post(key, "/rotate", Map.of("file", file, "angle", 90)).status()).isEqualTo(402);
    }

    @Test
    void usageShowsThePlanThePeriodAndLimitsAndAWeekPassEndsAfterSevenDays() {
        String free = newKey(Plan.FREE);
        JsonNode u = get(free, "/usage").body();
        LocalDate first = LocalDate.now(ZoneOffset.UTC).withDayOfMonth(1);
        assertThat(u.get("object").asString()).isEqualTo("usage");
        assertThat(u.get("plan").asString()).isEqualTo("free");
        assertThat(u.get("period_start").asString()).isEqualTo(first.atStartOfDay().toInstant(ZoneOffset.UTC).toString());
        assertThat(u.get("period_end").asString()).isEqualTo(first.plusMonths(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString());
        assertThat(u.at("/operations/used").asInt()).isZero();
        assertThat(u.at("/operations/limit").asInt()).isEqualTo(100);
        assertThat(u.at("/ai_operations/limit").asInt()).isEqualTo(20);

        String pro = newKey(Plan.PRO);
        JsonNode p = get(pro, "/usage").body();
        assertThat(p.get("plan").asString()).isEqualTo("pro");
        assertThat(p.at("/operations/limit").isNull()).as("unlimited").isTrue();
        assertThat(p.at("/ai_operations/limit").asInt()).isEqualTo(1000);

        String pass = newKey(Plan.WEEK_PASS);
        assertThat(get(pass, "/usage").body().get("plan").asString()).isEqualTo("week_pass");
        db.sql("UPDATE accounts SET plan_expires_at = ? WHERE id = ?")
                .params(Instant.now().minus(Duration.ofMinutes(1)).toEpochMilli(), account(pass).id()).update();
        JsonNode ended = get(pass, "/usage").body();
        assertThat(ended.get("plan").asString()).isEqualTo("free");
        assertThat(ended.at("/operations/limit").asInt()).isEqualTo(100);
    }

    @Test
    void aPaidPlanIsRefusedOnlyPastTheFairUseThreshold() {
        String key = newKey(Plan.PRO);
        Account a = account(key);
        String file = uploadId(key, corpus(FOUR));
        usage.record(a.id(), limits.fairUseOperations() - 1, 0);
        assertThat(post(key, "/rotate", Map.of("file", file, "angle", 90)).status()).isEqualTo(200);
        Response over = post(key, "/rotate", Map.of("file", file, "angle", 90));
        assertThat(over.status()).isEqualTo(402);
        assertThat(over.body().at("/error/message").asString()).contains("fair-use");
    }
}
