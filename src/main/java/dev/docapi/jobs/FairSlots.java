package dev.docapi.jobs;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * This node's worker slots, handed out fairly between accounts (issue 9 "fair engines"): when a slot frees, it goes to
 * the waiting job whose account has the fewest jobs running, the oldest such job first. One account that submits many
 * slow jobs therefore never holds every worker while another account's job waits behind them.
 */
final class FairSlots {
    private final int capacity;
    private final Map<String, Integer> runningByAccount = new HashMap<>();
    private final List<Waiter> queue = new ArrayList<>(); // oldest first
    private int used;

    /** One waiting job; compared by identity. */
    private static final class Waiter {
        final String account;

        Waiter(String account) {
            this.account = account;
        }
    }

    FairSlots(int capacity) {
        this.capacity = Math.max(1, capacity);
    }

    /** Blocks until a job of {@code account} may run; each acquire is paired with one {@link #release}. */
    synchronized void acquire(String account) throws InterruptedException {
        Waiter me = new Waiter(account);
        queue.add(me);
        try {
            while (used >= capacity || next() != me) wait();
        } finally {
            queue.remove(me);
            notifyAll(); // the next waiter may now be someone else
        }
        used++;
        runningByAccount.merge(account, 1, Integer::sum);
    }

    synchronized void release(String account) {
        used--;
        runningByAccount.computeIfPresent(account, (a, n) -> n > 1 ? n - 1 : null);
        notifyAll();
    }

    /** The waiter whose account runs the fewest jobs; among those the oldest ({@code min} keeps the first). */
    private Waiter next() {
        return queue.stream().min(Comparator.comparingInt(w -> runningByAccount.getOrDefault(w.account, 0))).orElse(null);
    }
}
