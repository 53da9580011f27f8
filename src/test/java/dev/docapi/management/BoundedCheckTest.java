package dev.docapi.management;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A readiness check of a thing that hangs or refuses (issue 38): a probe is answered within {@link BoundedCheck#ANSWER}
 * (HAProxy gives up after 1 s), DOWN once the check has run past {@link BoundedCheck#LIMIT}, and the log has one line
 * per change of state, without a stack trace, however many probes come.
 */
@ExtendWith(OutputCaptureExtension.class)
class BoundedCheckTest {

    @Test
    void aHangingCheckIsAnsweredAtOnceAndLoggedOncePerStateChange(CapturedOutput output) throws Exception {
        AtomicLong clock = new AtomicLong(0);
        CountDownLatch hang = new CountDownLatch(1);
        AtomicBoolean refuse = new AtomicBoolean(false);
        BoundedCheck check = new BoundedCheck("the test thing", () -> {
            if (refuse.get()) throw new ConnectException("Connection refused");
            hang.await();
        }, clock::get);

        long t0 = System.nanoTime();
        Health first = check.health();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("a probe while the check hangs").isLessThan(Duration.ofMillis(1500));
        assertThat(first.getStatus()).isEqualTo(Status.DOWN);

        clock.addAndGet(Duration.ofSeconds(3).toNanos()); // the check has now run past the limit
        for (int i = 0; i < 5; i++) {
            Health h = check.health();
            assertThat(h.getStatus()).isEqualTo(Status.DOWN);
            assertThat(h.getDetails().get("error")).isEqualTo("the test thing did not answer within 2 s");
        }

        hang.countDown(); // it answers
        Health up = awaitStatus(check, clock, Status.UP);
        assertThat(up.getDetails()).isEmpty();

        refuse.set(true); // then refuses at once
        Health refused = awaitStatus(check, clock, Status.DOWN);
        assertThat(refused.getDetails().get("error")).isEqualTo("the test thing is unreachable: ConnectException: Connection refused");
        for (int i = 0; i < 5; i++) {
            clock.addAndGet(Duration.ofSeconds(1).toNanos());
            assertThat(check.health().getStatus()).isEqualTo(Status.DOWN);
        }

        String log = output.getOut() + output.getErr();
        assertThat(log.lines().filter(l -> l.contains("readiness: the test thing is DOWN") && l.contains("WARN")).count())
                .as("one WARN line per change to DOWN:\n" + log).isEqualTo(2);
        assertThat(log.lines().filter(l -> l.contains("readiness: the test thing answers again")).count()).isEqualTo(1);
        assertThat(log).as("no stack trace").doesNotContain("\tat ", "Exception:\n");
    }

    private static Health awaitStatus(BoundedCheck check, AtomicLong clock, Status wanted) throws InterruptedException {
        Health h = null;
        for (int i = 0; i < 100; i++) {
            clock.addAndGet(Duration.ofSeconds(1).toNanos()); // past FRESH: a new check
            h = check.health();
            if (h.getStatus().equals(wanted)) return h;
            Thread.sleep(50);
        }
        throw new AssertionError("still " + h);
    }
}
