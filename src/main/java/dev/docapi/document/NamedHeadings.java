package dev.docapi.document;

import dev.docapi.document.DocumentModel.Box;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSInteger;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDMarkedContentReference;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureElement;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureNode;
import org.apache.pdfbox.pdmodel.documentinterchange.logicalstructure.PDStructureTreeRoot;
import org.apache.pdfbox.pdmodel.documentinterchange.markedcontent.PDMarkedContent;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionGoTo;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDNamedDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDPageFitDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDPageFitWidthDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDPageXYZDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineNode;
import org.apache.pdfbox.text.PDFMarkedContentExtractor;
import org.apache.pdfbox.text.TextPosition;

/**
 * The headings a PDF names itself (issue 36), which {@link Structure} takes before its font-statistics rules: the
 * structure tree's heading elements ({@code /StructTreeRoot}: {@code H1}..{@code H6} and {@code H}, through the role
 * map) found by where their marked content stands on the page, and the outline's entries (bookmarks) found by their
 * title on their destination page. A tagged heading's text is not compared (a right-to-left heading's content order is
 * visual, the model's logical): its glyphs' box is.
 */
final class NamedHeadings {
    /** At most this many structure elements are visited (a hostile tree can have millions). */
    private static final int MAX_ELEMENTS = 100_000;
    /** At most this many outline entries are read (a hostile outline can have millions). */
    private static final int MAX_OUTLINE = 5000;
    private static final Pattern LEVEL = Pattern.compile("H([1-6])?");

    /**
     * An outline (bookmark) entry: its title and depth (1 = top), its page when known (else 0), and whether its
     * destination shows that page from its top ({@code /Fit}, or {@code /XYZ} or {@code /FitH} at the top edge).
     */
    record OutlineEntry(String title, int depth, int page, boolean pageTop) {
    }

    /** A tagged heading: its page (from 1), level (1-6, or 0 for a plain {@code H}) and glyphs' box (points, top-left). */
    record Tagged(int page, int level, Box box) {
    }

    private final List<OutlineEntry> outline;
    private final List<Tagged> tagged;

    NamedHeadings(List<OutlineEntry> outline, List<Tagged> tagged) {
        this.outline = outline;
        this.tagged = tagged;
    }

    /** The headings {@code doc} names in its structure tree and its outline (none when it has neither). */
    static NamedHeadings of(PDDocument doc) {
        List<OutlineEntry> outline = new ArrayList<>();
        outline(doc, doc.getDocumentCatalog().getDocumentOutline(), 1, outline);
        return new NamedHeadings(outline, tagged(doc));
    }

    /**
     * The heading level the document gives a block (0: a heading of no stated level), or null when it names none:
     * a tagged heading whose box holds the centre of each of the block's lines, or an outline entry whose title the
     * text is (case and spacing aside; a leading number of up to 8 characters may precede it), on the block's page or,
     * for an entry without one, on any page.
     *
     * @param lines the block's lines' boxes (points from the page's top-left)
     */
    Integer level(String text, int page, List<Box> lines) {
        if (text.length() > 200) return null;
        for (Tagged t : tagged) {
            if (t.page() == page && !lines.isEmpty() && lines.stream().allMatch(l -> holds(t.box(), l))) return t.level();
        }
        String s = squeeze(text);
        for (OutlineEntry e : outline) {
            if (e.page() != 0 && e.page() != page) continue;
            String o = squeeze(e.title());
            if (!o.isEmpty() && (s.equals(o) || (s.endsWith(o) && s.length() - o.length() <= 8))) return e.depth();
        }
        return null;
    }

    /**
     * The outline's entries that name parts of the document it does not print, as a workbook's sheets (LibreOffice
     * Calc bookmarks each sheet by its name, at the top of its first page): when the entries with a page whose title
     * (its letters and digits, case aside) is nowhere in that page's text are at least half of the entries with a
     * page, those entries, provided each shows its page from the top and each starts a later page than the one before
     * (a part a page of its own). An outline of the headings the pages print, a few entries worded otherwise ("Chapter
     * 2" over "2 Methods"), gives none, and so does one whose entries point at pages they do not name (a page range cut
     * from a longer report, its entries left pointing at its first page).
     *
     * @param pageText a page's text (from 1), tables' cells included
     */
    List<OutlineEntry> unprinted(IntFunction<String> pageText) {
        Map<Integer, String> keys = new HashMap<>();
        List<OutlineEntry> placed = outline.stream().filter(e -> e.page() > 0).toList();
        List<OutlineEntry> out = new ArrayList<>();
        for (OutlineEntry e : placed) {
            String title = letters(e.title());
            if (!title.isEmpty() && !keys.computeIfAbsent(e.page(), p -> letters(pageText.apply(p))).contains(title)) out.add(e);
        }
        if (out.size() * 2 < placed.size()) return List.of();
        for (int i = 0; i < out.size(); i++) {
            if (!out.get(i).pageTop() || (i > 0 && out.get(i).page() <= out.get(i - 1).page())) return List.of();
        }
        return out;
    }

    private static String letters(String s) {
        StringBuilder sb = new StringBuilder();
        s.toLowerCase(Locale.ROOT).codePoints().filter(Character::isLetterOrDigit).forEach(sb::appendCodePoint);
        return sb.toString();
    }

    /** Whether a line (its box) stands in one of the page's tagged headings: a block does not run across its edge. */
    boolean inTagged(int page, Box line) {
        for (Tagged t : tagged) if (t.page() == page && holds(t.box(), line)) return true;
        return false;
    }

    private static boolean holds(Box outer, Box inner) {
        float cx = inner.x() + inner.width() / 2, cy = inner.y() + inner.height() / 2;
        float slack = 2;
        return cx >= outer.x() - slack && cx <= outer.right() + slack && cy >= outer.y() - slack && cy <= outer.bottom() + slack;
    }

    private static String squeeze(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
    }

    /** The outline's entries, depth first, with their pages where the destination names one. */
    private static void outline(PDDocument doc, PDOutlineNode node, int depth, List<OutlineEntry> out) {
        if (node == null || depth > 8) return;
        Set<PDOutlineItem> seen = new HashSet<>();
        for (PDOutlineItem item = node.getFirstChild(); item != null && out.size() < MAX_OUTLINE && seen.add(item); item = item.getNextSibling()) {
            int page = 0;
            boolean pageTop = false;
            try {
                PDPage p = item.findDestinationPage(doc);
                if (p != null) {
                    page = doc.getPages().indexOf(p) + 1;
                    pageTop = pageTop(doc, item, p);
                }
            } catch (IOException | RuntimeException e) {
                // a destination that cannot be resolved: the entry matches on any page
            }
            String title = item.getTitle();
            if (title != null && !title.isBlank()) out.add(new OutlineEntry(title.strip(), depth, page, pageTop));
            outline(doc, item, depth + 1, out);
        }
    }

    /**
     * Whether an entry's destination (PDF 32000-1 §12.3.2.2) shows its page from the top: {@code /Fit} or {@code /FitB},
     * or a {@code /XYZ} or {@code /FitH} whose top lies within 2 % of the page's height below its top edge. An
     * {@code /XYZ} that keeps the reader's view ({@code null} top) does not.
     */
    private static boolean pageTop(PDDocument doc, PDOutlineItem item, PDPage page) throws IOException {
        PDDestination d = item.getDestination();
        if (d == null && item.getAction() instanceof PDActionGoTo go) d = go.getDestination();
        if (d instanceof PDNamedDestination named) d = doc.getDocumentCatalog().findNamedDestinationPage(named);
        if (d instanceof PDPageFitDestination) return true;
        int top = d instanceof PDPageXYZDestination xyz ? xyz.getTop() : d instanceof PDPageFitWidthDestination w ? w.getTop() : -1;
        PDRectangle box = page.getCropBox();
        return top >= 0 && page.getRotation() == 0 && box.getUpperRightY() - top <= 0.02f * box.getHeight();
    }

    /** The tagged headings of {@code doc}: none when it has no structure tree or the tree cannot be read. */
    static List<Tagged> tagged(PDDocument doc) {
        PDStructureTreeRoot root = doc.getDocumentCatalog().getStructureTreeRoot();
        if (root == null) return List.of();
        // heading elements' marked-content ids by page
        Map<PDPage, Map<Integer, Integer>> wanted = new HashMap<>();
        Map<COSDictionary, Integer> elements = new HashMap<>();
        try {
            List<PDStructureNode> stack = new ArrayList<>(List.of(root));
            Set<COSDictionary> seen = new HashSet<>();
            int visited = 0, headings = 0;
            while (!stack.isEmpty() && visited++ < MAX_ELEMENTS) {
                PDStructureNode node = stack.removeLast();
                if (!seen.add(node.getCOSObject())) continue;
                for (Object kid : node.getKids()) {
                    if (!(kid instanceof PDStructureElement e)) continue;
                    Matcher m = LEVEL.matcher(String.valueOf(e.getStandardStructureType()));
                    if (m.matches()) contents(e, (++headings << 3) | (m.group(1) == null ? 0 : Integer.parseInt(m.group(1))), page(e), wanted, elements, 0);
                    else stack.add(e);
                }
            }
            // contents whose elements name no page: the page's entry in the parent tree names their elements
            if (!elements.isEmpty() && root.getCOSObject().getDictionaryObject(COSName.PARENT_TREE) instanceof COSDictionary tree) {
                for (PDPage page : doc.getPages()) {
                    if (!(number(tree, page.getStructParents(), 0) instanceof COSArray byMcid)) continue;
                    for (int mcid = 0; mcid < byMcid.size(); mcid++) {
                        Integer key = byMcid.getObject(mcid) instanceof COSDictionary d ? elements.get(d) : null;
                        if (key != null) wanted.computeIfAbsent(page, p -> new HashMap<>()).putIfAbsent(mcid, key);
                    }
                }
            }
        } catch (RuntimeException e) {
            return List.of(); // a damaged tree names no heading: the font rules decide
        }
        List<Tagged> out = new ArrayList<>();
        for (Map.Entry<PDPage, Map<Integer, Integer>> byPage : wanted.entrySet()) {
            int number = doc.getPages().indexOf(byPage.getKey()) + 1;
            if (number < 1) continue;
            try {
                PDFMarkedContentExtractor extractor = new PDFMarkedContentExtractor();
                extractor.processPage(byPage.getKey());
                Map<Integer, Box> boxes = new HashMap<>();
                for (PDMarkedContent mc : extractor.getMarkedContents()) collect(mc, mc.getMCID(), boxes);
                // one heading's pieces (several marked contents) become one box per heading element
                Map<Integer, Box> headings = new HashMap<>();
                Map<Integer, Integer> levels = new HashMap<>();
                byPage.getValue().forEach((mcid, key) -> {
                    Box b = boxes.get(mcid);
                    if (b == null) return;
                    int id = key >> 3;
                    headings.merge(id, b, Box::union);
                    levels.put(id, key & 7);
                });
                headings.forEach((id, box) -> out.add(new Tagged(number, levels.get(id), box)));
            } catch (IOException | RuntimeException e) {
                // a page whose content cannot be read names no heading
            }
        }
        return out;
    }

    /**
     * Files the marked-content ids of heading element {@code e} (and of its spans) under {@code key}: the heading's
     * number over the document shifted left 3 bits, its level in the low bits.
     */
    private static void contents(PDStructureElement e, int key, PDPage page, Map<PDPage, Map<Integer, Integer>> wanted,
                                 Map<COSDictionary, Integer> elements, int depth) {
        if (depth > 8) return;
        elements.put(e.getCOSObject(), key);
        for (Object kid : e.getKids()) {
            if (kid instanceof Integer mcid && page != null) {
                wanted.computeIfAbsent(page, p -> new HashMap<>()).put(mcid, key);
            } else if (kid instanceof PDMarkedContentReference ref) {
                PDPage p = ref.getPage() != null ? ref.getPage() : page;
                if (p != null) wanted.computeIfAbsent(p, x -> new HashMap<>()).put(ref.getMCID(), key);
            } else if (kid instanceof PDStructureElement span) {
                contents(span, key, span.getPage() != null ? span.getPage() : page, wanted, elements, depth + 1);
            }
        }
    }

    /** The value of {@code key} in a number tree ({@code /Nums} pairs, {@code /Kids}), or null. */
    private static COSBase number(COSDictionary node, int key, int depth) {
        if (key < 0 || depth > 16) return null;
        if (node.getDictionaryObject(COSName.NUMS) instanceof COSArray nums) {
            for (int i = 0; i + 1 < nums.size(); i += 2) {
                if (nums.getObject(i) instanceof COSInteger k && k.intValue() == key) return nums.getObject(i + 1);
            }
        }
        if (node.getDictionaryObject(COSName.KIDS) instanceof COSArray kids) {
            for (int i = 0; i < kids.size(); i++) {
                if (!(kids.getObject(i) instanceof COSDictionary kid)) continue;
                // a kid's /Limits say whether the key can be below it
                if (kid.getDictionaryObject(COSName.LIMITS) instanceof COSArray limits && limits.size() == 2
                        && limits.getObject(0) instanceof COSInteger lo && limits.getObject(1) instanceof COSInteger hi
                        && (key < lo.intValue() || key > hi.intValue())) continue;
                COSBase found = number(kid, key, depth + 1);
                if (found != null) return found;
            }
        }
        return null;
    }

    private static PDPage page(PDStructureElement e) {
        for (PDStructureNode n = e; n instanceof PDStructureElement el; n = el.getParent()) {
            if (el.getPage() != null) return el.getPage();
        }
        return null;
    }

    /** The box of the glyphs of each marked content by its id; a nested content without an id counts to its parent's. */
    private static void collect(PDMarkedContent mc, int id, Map<Integer, Box> boxes) {
        for (Object c : mc.getContents()) {
            if (c instanceof TextPosition p && id >= 0 && !p.getUnicode().isBlank()) {
                float size = Math.max(p.getHeightDir(), 1);
                Box b = new Box(p.getXDirAdj(), p.getYDirAdj() - size, p.getWidthDirAdj(), size);
                boxes.merge(id, b, Box::union);
            } else if (c instanceof PDMarkedContent inner) {
                collect(inner, inner.getMCID() >= 0 ? inner.getMCID() : id, boxes);
            }
        }
    }
}
