package dev.docapi.operations.compare;

import com.github.difflib.DiffUtils;
import com.github.difflib.algorithm.DiffAlgorithmListener;
import com.github.difflib.algorithm.myers.MyersDiffWithLinearSpace;
import com.github.difflib.patch.AbstractDelta;
import dev.docapi.operations.compare.PdfWords.Word;
import java.util.ArrayList;
import java.util.List;

/**
 * The word-level difference of two word sequences (java-diff-utils, Myers in linear space). The whole documents are
 * diffed at once so that text moving across a page break is not reported; when that takes longer than a budget
 * (two long, unrelated documents), it falls back to diffing page {@code i} against page {@code i}, which is bounded
 * by the size of a page.
 */
final class WordDiff {

    /** Words of the first document absent from the second, and words of the second absent from the first. */
    record Result(List<Word> deleted, List<Word> inserted, boolean pageByPage) {
    }

    private WordDiff() {
    }

    static Result diff(List<Word> a, List<Word> b, long budgetMillis) {
        try {
            Result r = new Result(new ArrayList<>(), new ArrayList<>(), false);
            collect(r, a, b, budgetMillis);
            return r;
        } catch (OverBudget e) {
            Result r = new Result(new ArrayList<>(), new ArrayList<>(), true);
            int pages = Math.max(lastPage(a), lastPage(b)) + 1;
            for (int p = 0; p < pages; p++) {
                final int page = p;
                collect(r, a.stream().filter(w -> w.page() == page).toList(), b.stream().filter(w -> w.page() == page).toList(), Long.MAX_VALUE);
            }
            return r;
        }
    }

    private static int lastPage(List<Word> words) {
        return words.isEmpty() ? -1 : words.getLast().page();
    }

    private static final class OverBudget extends RuntimeException {
        OverBudget() {
            super(null, null, false, false);
        }
    }

    private static List<String> texts(List<Word> words) {
        return words.stream().map(Word::text).toList();
    }

    private static DiffAlgorithmListener deadline(long budgetMillis) {
        long end = budgetMillis == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + budgetMillis * 1_000_000;
        return new DiffAlgorithmListener() {
            @Override
            public void diffStart() {
            }

            @Override
            public void diffStep(int value, int max) {
                if (System.nanoTime() > end || Thread.currentThread().isInterrupted()) throw new OverBudget();
            }

            @Override
            public void diffEnd() {
            }
        };
    }

    private static void add(List<Word> into, List<Word> from, int position, int size) {
        into.addAll(from.subList(position, position + size));
    }

    private static void collect(Result r, List<Word> a, List<Word> b, long budgetMillis) {
        var patch = DiffUtils.diff(texts(a), texts(b), new MyersDiffWithLinearSpace<>(), deadline(budgetMillis));
        for (AbstractDelta<String> d : patch.getDeltas()) {
            add(r.deleted(), a, d.getSource().getPosition(), d.getSource().size());
            add(r.inserted(), b, d.getTarget().getPosition(), d.getTarget().size());
        }
    }
}
