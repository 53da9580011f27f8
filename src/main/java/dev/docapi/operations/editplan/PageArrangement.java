package dev.docapi.operations.editplan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * A document's pages as the page-arranging steps of a plan leave them ({@code organize}, {@code rotate},
 * {@code remove-pages}: what the editor itself does): each place holds a page of the source file (from 1) and the
 * clockwise rotation added to it. This is the preview the editor draws before anything runs; it is computed here from
 * the steps, never taken from the model. The steps' page numbers must have been checked against {@link #size()}
 * first (each operation's own validation does it).
 */
final class PageArrangement {
    /** The operations this arrangement follows. */
    static final Set<String> OPERATIONS = Set.of("organize", "rotate", "remove-pages");

    /** One place of the arrangement: a source page (from 1) and the degrees (0, 90, 180, 270) added to its rotation. */
    record Placement(int page, int rotation) {
    }

    private final int sourcePages;
    private List<Placement> pages = new ArrayList<>();

    /** The source file as it is: pages 1 to {@code sourcePages}, none rotated. */
    PageArrangement(int sourcePages) {
        this.sourcePages = sourcePages;
        for (int p = 1; p <= sourcePages; p++) pages.add(new Placement(p, 0));
    }

    int size() {
        return pages.size();
    }

    /** Applies one step of {@link #OPERATIONS}, with its validated options; its page numbers count in the arrangement as it is. */
    void apply(String operation, JsonNode options) {
        List<Integer> numbers = new ArrayList<>();
        options.path("pages").forEach(n -> numbers.add(n.asInt()));
        List<Placement> next = new ArrayList<>();
        switch (operation) {
            case "organize" -> numbers.forEach(n -> next.add(pages.get(n - 1)));
            case "remove-pages" -> {
                Set<Integer> gone = new HashSet<>(numbers);
                for (int i = 0; i < pages.size(); i++) if (!gone.contains(i + 1)) next.add(pages.get(i));
            }
            case "rotate" -> {
                int angle = options.path("angle").asInt();
                Set<Integer> turned = new HashSet<>(numbers); // none listed: every page
                for (int i = 0; i < pages.size(); i++) {
                    Placement p = pages.get(i);
                    next.add(turned.isEmpty() || turned.contains(i + 1) ? new Placement(p.page(), (p.rotation() + angle) % 360) : p);
                }
            }
            default -> throw new IllegalArgumentException(operation + " does not arrange pages");
        }
        pages = next;
    }

    /** The places in their new order. */
    List<Placement> pages() {
        return List.copyOf(pages);
    }

    /** The source pages that appear nowhere in the arrangement, ascending. */
    List<Integer> deleted() {
        Set<Integer> gone = new TreeSet<>();
        for (int p = 1; p <= sourcePages; p++) gone.add(p);
        pages.forEach(p -> gone.remove(p.page()));
        return List.copyOf(gone);
    }
}
