package dev.docapi.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.accounts.Plan;
import dev.docapi.accounts.UsageService;
import dev.docapi.ai.ScriptedModelServer;
import dev.docapi.support.ApiTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The free plan's AI cap held exactly under concurrency (issue 25 item 5): the AI operation is reserved with the job
 * at admission, in the same transaction, so 30 simultaneous extract calls at 15 of 20 admit exactly 5.
 */
@ResourceLock(ApiTestBase.MODEL_LOCK)
class AiQuotaTest extends ApiTestBase {
    @Autowired
    JdbcClient db;
    @Autowired
    Reservations reservations;

    @Test
    @SuppressWarnings("unchecked")
    void thirtySimultaneousExtractCallsAtFifteenOfTwentyAdmitExactlyFive() throws Exception {
        var created = accounts.createAccount("ai-quota@example.com", Plan.of("free"));
        String key = created.apiKey();
        String file = uploadId(key, corpus("pdf-text/rotated-pages-20p.pdf"));
        reservations.ensureCounter(created.account().id());
        db.sql("UPDATE usage_counters SET ai_operations = 15 WHERE account_id = ? AND period = ?")
                .params(created.account().id(), UsageService.currentPeriod()).update();
        Function<ScriptedModelServer.Recorded, ScriptedModelServer.Reply>[] replies = new Function[5];
        for (int i = 0; i < replies.length; i++) replies[i] = ScriptedModelServer.openAiJson("{\"data\":{\"title\":null},\"sources\":[]}");
        MODEL.script(replies);

        List<Callable<Response>> calls = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            calls.add(() -> post(key, "/extract", json().put("file", file).put("wait", 0).set("fields", JSON.readTree("[\"title\"]"))));
        }
        ExecutorService pool = Executors.newFixedThreadPool(30);
        List<Response> answers = new ArrayList<>();
        try {
            for (Future<Response> f : pool.invokeAll(calls)) answers.add(f.get());
        } finally {
            pool.shutdown();
        }
        List<Response> admitted = answers.stream().filter(r -> r.status() == 202 || r.status() == 200).toList();
        List<Response> refused = answers.stream().filter(r -> r.status() == 402).toList();
        assertThat(admitted).as("admitted: %s", answers.stream().map(Response::status).toList()).hasSize(5);
        assertThat(refused).hasSize(25).allSatisfy(r -> {
            assertThat(r.code()).isEqualTo("quota_exceeded");
            assertThat(r.body().at("/error/message").asString()).contains("AI operations");
        });

        for (Response r : admitted) awaitFinished(key, r.body().get("id").asString());
        Response usage = get(key, "/usage");
        assertThat(usage.body().at("/ai_operations/used").asInt()).as(usage.body().toString()).isEqualTo(20);
        assertThat(db.sql("SELECT ai_reserved FROM usage_counters WHERE account_id = ? AND period = ?")
                .params(created.account().id(), UsageService.currentPeriod()).query(Integer.class).single()).as("nothing left reserved").isZero();
        assertThat(post(key, "/extract", Map.of("file", file, "fields", List.of("title"))).code()).isEqualTo("quota_exceeded");
    }
}
