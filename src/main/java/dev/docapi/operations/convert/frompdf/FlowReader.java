package dev.docapi.operations.convert.frompdf;

import dev.docapi.engines.pdfbox.PdfBox;
import dev.docapi.engines.pdfbox.PdfForms;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.tabula.Tabula;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.springframework.stereotype.Component;

/**
 * A PDF read as a flowing document, the part pdf → docx, md and html share: paragraphs in reading order (columns one
 * after the other, Arabic in logical order: {@link ParagraphStripper}), those set clearly larger or bold as headings
 * of two levels, ruled tables found by Tabula where the text reaches them, pictures after their page's text (left out
 * for OCR'd scans, whose only picture is the page itself, or when not asked for). Scans are OCR'd first, once per
 * file ({@link PdfSource#withText}); a form's values are read where they stand, from a flattened copy. Progress is
 * reported in pages read.
 */
@Component
public class FlowReader {
    /** A paragraph at least this much larger than the body text is a Heading 1. */
    static final float H1_RATIO = 1.3f;
    /** At least this much larger (or bold and a little larger) is a Heading 2. */
    static final float H2_RATIO = 1.15f;
    private static final int HEADING_MAX_CHARS = 200;
    private final PdfSource source;
    private final Tabula tabula;
    private final PdfBox pdfBox;
    private final PdfForms forms;

    public FlowReader(PdfSource source, Tabula tabula, PdfBox pdfBox, PdfForms forms) {
        this.source = source;
        this.tabula = tabula;
        this.pdfBox = pdfBox;
        this.forms = forms;
    }

    /**
     * The document's items in reading order.
     *
     * @param images whether the pages' pictures are read too (PNG bytes, held in memory up to a bound)
     * @throws OperationFailure {@code invalid_file} when the PDF cannot be read or needs a password
     */
    List<Item> read(InputFile in, OperationContext<?> ctx, boolean images) throws Exception {
        int pages = source.pages(in);
        PdfSource.Prepared prepared = source.withText(in, pages, ctx);
        Path pdf = prepared.pdf();
        Tabula.Tables found;
        try {
            pdf = withFormValues(pdf, ctx);
            found = tabula.tables(pdf, false);
        } catch (EngineFailure e) {
            // named, its kind kept: the one place engine failures meet error codes is OperationService.failure
            throw new EngineFailure(e.kind(), "'" + in.file().name() + "': " + e.getMessage(), e);
        }
        ctx.note(found.note());
        List<Tabula.PdfTable> tables = found.tables().stream().filter(FlowReader::tabular).toList();
        ParagraphStripper stripper = new ParagraphStripper(tables, prepared.ocrPages(), images);
        stripper.onPageDone(page -> ctx.progress(page, pages, "pages"));
        try (PDDocument doc = pdfBox.open(pdf, null, ctx.tempDir("flow-open"))) {
            stripper.writeText(doc, Writer.nullWriter());
        }
        return items(stripper.blocks(), stripper.bodySize());
    }

    /**
     * A flattened copy of {@code pdf} when it has a form, so its values are read where they stand; {@code pdf} itself
     * when it has none, or when the form cannot be flattened (a value its field's font cannot draw): the values are then
     * left out, and the note says so.
     */
    private Path withFormValues(Path pdf, OperationContext<?> ctx) {
        Path flattened = ctx.tempDir("flow-form").resolve("flattened.pdf");
        try {
            return forms.flattenForReading(pdf, flattened) ? flattened : pdf;
        } catch (IOException | RuntimeException e) {
            ctx.note("The form's field values could not be read (" + e.getMessage() + ") and are left out.");
            return pdf;
        }
    }

    /**
     * Whether a ruled area Tabula found reads as a table: at least 2 rows and 2 columns, at least half the cells
     * filled. Drawings (a figure's axes and labels, a framed box, form widgets' borders) also have rulings; as tables
     * their labels would be cut at the cell edges, as text they read whole.
     */
    private static boolean tabular(Tabula.PdfTable t) {
        int rows = t.rows().size(), cols = rows == 0 ? 0 : t.rows().getFirst().size();
        if (rows < 2 || cols < 2) return false;
        long filled = t.rows().stream().flatMap(List::stream).filter(c -> !c.isBlank()).count();
        return filled * 2 >= (long) rows * cols;
    }

    /**
     * A paragraph (its lines and heading style: {@code Heading1}, {@code Heading2} or null for body text), a table or
     * a picture, and whether a new page starts before it.
     */
    record Item(List<ParagraphStripper.Line> lines, String style, Tabula.PdfTable table, ParagraphStripper.Image image, boolean pageBreak) {
    }

    /**
     * The document's paragraphs and tables in order. PDFBox starts a new paragraph at many line starts in justified
     * multi-column text (a line that reaches less far, a superscript); two body paragraphs in a row on one page with
     * the same size and weight are joined again when the first does not end a sentence.
     */
    private static List<Item> items(List<ParagraphStripper.Block> blocks, float body) {
        List<Item> out = new ArrayList<>();
        boolean pageBreak = false;
        for (ParagraphStripper.Block b : blocks) {
            switch (b) {
                case ParagraphStripper.PageBreak ignored -> pageBreak = true;
                case ParagraphStripper.TableRef t -> {
                    out.add(new Item(null, null, t.table(), null, pageBreak));
                    pageBreak = false;
                }
                case ParagraphStripper.Image i -> {
                    out.add(new Item(null, null, null, i, pageBreak));
                    pageBreak = false;
                }
                case ParagraphStripper.Paragraph p -> {
                    for (List<ParagraphStripper.Line> group : byStyle(p.lines())) {
                        String style = style(group, body);
                        Item prev = out.isEmpty() ? null : out.getLast();
                        if (!pageBreak && prev != null && prev.lines() != null && prev.style() == null && style == null
                                && (continues(lastFull(prev.lines()), group.getFirst()) || fragment(group.getFirst(), lastFull(prev.lines())))) {
                            List<ParagraphStripper.Line> joined = new ArrayList<>(prev.lines());
                            joined.addAll(group);
                            out.set(out.size() - 1, new Item(joined, null, null, null, prev.pageBreak()));
                        } else {
                            out.add(new Item(group, style, null, null, pageBreak));
                        }
                        pageBreak = false;
                    }
                }
            }
        }
        return out;
    }

    /** The last line that is not a fragment (the first line when all are). */
    private static ParagraphStripper.Line lastFull(List<ParagraphStripper.Line> lines) {
        for (int i = lines.size() - 1; i > 0; i--) {
            if (!fragment(lines.get(i), lines.get(i - 1))) return lines.get(i);
        }
        return lines.getFirst();
    }

    /** True when {@code next} continues the sentence {@code last} leaves open, in the same size and weight. */
    private static boolean continues(ParagraphStripper.Line last, ParagraphStripper.Line next) {
        if (last.bold() != next.bold() || !sameSize(last.size(), next.size())) return false;
        String t = last.text().strip();
        char end = t.isEmpty() ? '.' : t.charAt(t.length() - 1);
        return ".?!:".indexOf(end) < 0;
    }

    private static boolean sameSize(float a, float b) {
        return Math.abs(a - b) <= Math.max(0.6f, 0.06f * Math.max(a, b));
    }

    /** Heading1, Heading2 or null (body) for a group of lines, by its size relative to the body text and weight. */
    private static String style(List<ParagraphStripper.Line> lines, float body) {
        ParagraphStripper.Line first = lines.getFirst();
        float size = first.size();
        int chars = lines.stream().mapToInt(l -> l.text().length() + 1).sum();
        if (chars > HEADING_MAX_CHARS || size <= 0) return null;
        if (size >= body * H1_RATIO) return "Heading1";
        // a short all-bold paragraph at least body size ("Abstract", "1 Introduction" in many journal styles)
        boolean allBold = lines.stream().allMatch(ParagraphStripper.Line::bold);
        if (size >= body * H2_RATIO || (allBold && size >= body * 0.98f && chars <= 80)) return "Heading2";
        return null;
    }

    /** Splits a PDF paragraph where the style changes (a heading line directly followed by body lines). */
    private static List<List<ParagraphStripper.Line>> byStyle(List<ParagraphStripper.Line> lines) {
        List<List<ParagraphStripper.Line>> out = new ArrayList<>();
        List<ParagraphStripper.Line> cur = new ArrayList<>();
        ParagraphStripper.Line ref = null; // the last line of the group that is not a sub/superscript fragment
        for (ParagraphStripper.Line l : lines) {
            if (ref != null && fragment(l, ref)) {
                cur.add(l);
                continue;
            }
            if (ref != null && (ref.bold() != l.bold() || !sameSize(ref.size(), l.size()))) {
                out.add(cur);
                cur = new ArrayList<>();
            }
            cur.add(l);
            ref = l;
        }
        if (!cur.isEmpty()) out.add(cur);
        return out;
    }

    /** A few smaller characters on a "line" of their own: an index or exponent PDFBox saw as a line (e.g. "(i)"). */
    private static boolean fragment(ParagraphStripper.Line l, ParagraphStripper.Line ref) {
        return l.text().strip().length() <= 5 && l.size() < ref.size() * 0.9f;
    }

    /** Joins lines with spaces; a line ending in letter + hyphen before a lower-case letter is rejoined without it. */
    static String join(List<ParagraphStripper.Line> lines) {
        StringBuilder sb = new StringBuilder();
        for (ParagraphStripper.Line l : lines) {
            String t = l.text();
            if (sb.isEmpty()) {
                sb.append(t);
                continue;
            }
            int n = sb.length();
            boolean hyphen = n >= 2 && sb.charAt(n - 1) == '-' && Character.isLetter(sb.charAt(n - 2)) && !t.isEmpty();
            if (hyphen && Character.isLowerCase(t.charAt(0))) {
                sb.setLength(n - 1);
                sb.append(t);
            } else if (hyphen) {
                sb.append(t); // "Lucene-" + "BM25": a compound, keep the hyphen
            } else {
                sb.append(' ').append(t);
            }
        }
        return sb.toString();
    }

}
