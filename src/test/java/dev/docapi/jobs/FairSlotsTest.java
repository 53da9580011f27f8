package dev.docapi.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A freed worker slot goes to the account running the fewest jobs, oldest job first (issue 9 "fair engines"). */
class FairSlotsTest {

    @Test
    void aFreedSlotGoesToTheAccountThatRunsNothingBeforeTheBusyAccountsOlderJobs() throws Exception {
        FairSlots slots = new FairSlots(2);
        slots.acquire("busy");
        slots.acquire("busy");
        List<String> started = new CopyOnWriteArrayList<>();
        List<Thread> waiting = new java.util.ArrayList<>();
        for (String account : List.of("busy", "busy", "busy", "other")) {
            waiting.add(Thread.ofVirtual().start(() -> {
                try {
                    slots.acquire(account);
                    started.add(account);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            Thread.sleep(50); // arrival order: three of "busy", then "other"
        }
        assertThat(started).isEmpty();

        slots.release("busy");
        awaitSize(started, 1);
        assertThat(started).containsExactly("other");

        slots.release("busy"); // busy 0 running + other 1: busy's oldest waiting job is next
        awaitSize(started, 2);
        assertThat(started).containsExactly("other", "busy");
        slots.release("other");
        slots.release("busy");
        awaitSize(started, 4);
        for (Thread t : waiting) assertThat(t.join(java.time.Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void anInterruptedWaiterLeavesTheQueueAndPassesItsTurnOn() throws Exception {
        FairSlots slots = new FairSlots(1);
        slots.acquire("a");
        Thread first = Thread.ofVirtual().start(() -> {
            try {
                slots.acquire("b");
            } catch (InterruptedException expected) {
                // leaves the queue
            }
        });
        List<String> started = new CopyOnWriteArrayList<>();
        Thread.sleep(50);
        Thread second = Thread.ofVirtual().start(() -> {
            try {
                slots.acquire("c");
                started.add("c");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread.sleep(50);
        first.interrupt();
        first.join();
        slots.release("a");
        awaitSize(started, 1);
        assertThat(second.join(java.time.Duration.ofSeconds(5))).isTrue();
    }

    private static void awaitSize(List<String> list, int size) throws InterruptedException {
        for (int i = 0; i < 200 && list.size() < size; i++) TimeUnit.MILLISECONDS.sleep(10);
        assertThat(list).hasSize(size);
    }
}
