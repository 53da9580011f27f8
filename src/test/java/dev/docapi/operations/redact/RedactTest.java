package dev.docapi.operations.redact;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionURI;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationText;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDDocumentOutline;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem;
import org.apache.pdfbox.text.PDFTextStripper;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * redact (issue 27 item 2) on a born-digital page, the corpus's two-column paper, its rotated pages and a scan. Each
 * output is read by four readers that did not write it — pdftotext, mutool draw -F txt, PDFBox and a search of qpdf's
 * uncompressed file (QDF, kerned string pieces joined) — none of which may find a redacted string, while every other
 * word of the page survives (word-level similarity at least 0.99, by pdftotext).
 */
class RedactTest extends ApiTestBase {
    private static final String IBAN = "\\b[A-Z]{2}\\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,4})?\\b";

    @Test
    void anEmailAnIbanPatternAndAnAreaAreRemovedFromABornDigitalPage() throws Exception {
        String key = newKey();
        Path pdf = bornDigital();
        String id = uploadId(key, pdf);
        Map<String, Double> code = wordBox(pdf, 1, "SECRET-7731");
        JsonNode job = run(key, "redact", Map.of("file", id, "presets", List.of("email"), "patterns", List.of(IBAN),
                "areas", List.of(Map.of("page", 1, "x", code.get("x") - 1, "y", code.get("y") - 1, "width", code.get("width") + 2, "height", code.get("height") + 2))));
        Path out = downloadOutput(job, 0);
        List<String> gone = List.of("ada.lovelace@example.org", "billing@example.com", "DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432", "SECRET-7731");
        assertRedacted(out, gone);
        assertOtherWordsSurvive(pdf, out, List.of("ada.lovelace@example.org", "billing@example.com", "DE89", "3704", "0044", "0532", "0130", "00", "GB82WEST12345698765432", "SECRET-7731"));
        JsonNode data = job.at("/output/data");
        assertThat(data.get("redactions").asInt()).isEqualTo(5);
        assertThat(data.at("/pages/0/page").asInt()).isEqualTo(1);
        assertThat(data.at("/pages/0/boxes").size()).isEqualTo(5);
        assertThat(data.toString()).doesNotContain("example", "DE89", "SECRET");
        assertThat(data.at("/removed/annotations").asInt()).isEqualTo(1);
        assertThat(data.at("/removed/links").asInt()).isEqualTo(1);
        assertThat(data.at("/removed/metadata/0").asString()).isEqualTo("author");
        assertThat(data.at("/removed/bookmarks").asInt()).isEqualTo(1);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
    }

    @Test
    void theTwoColumnPapersEmailsAndATermInBothColumnsAreRemovedWithTheRestKept() throws Exception {
        String key = newKey();
        Path paper = corpus("pdf-text/two-column-paper-2p.pdf");
        JsonNode job = run(key, "redact", Map.of("file", uploadId(key, paper), "presets", List.of("email"), "text", List.of("bm25"), "ignore_case", true));
        Path out = downloadOutput(job, 0);
        assertRedacted(out, List.of("sewon@cs.washington.edu", "danqic@cs.princeton.edu", "BM25"));
        assertOtherWordsSurvive(paper, out, List.of("sewon@cs.washington.edu", "danqic@cs.princeton.edu", "BM25"));
        assertThat(job.at("/output/data/redactions").asInt()).isGreaterThan(4);
    }

    @Test
    void textOnARotatedPageAndAnAreaInAsSeenCoordinatesOfAPageTurned90DegreesAreRemoved() throws Exception {
        String key = newKey();
        Path rotated = corpus("pdf-text/rotated-page-90.pdf");
        JsonNode line = run(key, "redact", Map.of("file", uploadId(key, rotated), "text", List.of("Second line")));
        Path out = downloadOutput(line, 0);
        assertRedacted(out, List.of("Second line"));
        assertOtherWordsSurvive(rotated, out, List.of("Second", "line"));

        Path pages = corpus("pdf-text/rotated-pages-20p.pdf");
        String id = uploadId(key, pages);
        Map<String, Double> words = wordBox(pages, 4, "Original", "page", "4"); // page 4 has /Rotate 90: 792 × 612 as seen
        JsonNode area = run(key, "redact", Map.of("file", id, "areas", List.of(Map.of("page", 4,
                "x", words.get("x") - 2, "y", words.get("y") - 2, "width", words.get("width") + 4, "height", words.get("height") + 4))));
        Path areaOut = downloadOutput(area, 0);
        assertThat(Independent.pdftotext(areaOut, 4, 4)).doesNotContain("Original", "page");
        assertThat(Independent.pdftotext(areaOut, 3, 3)).contains("Original page 3");
        assertThat(mutoolText(areaOut)).contains("Original page 5").doesNotContain("Original page 4");

        Response outside = post(key, "/redact", Map.of("file", id, "areas", List.of(Map.of("page", 4, "x", 10, "y", 700, "width", 50, "height", 50))));
        assertThat(outside.status()).isEqualTo(400);
        assertThat(outside.body().at("/error/message").asString()).contains("page 4", "792.0 × 612.0");
        Response beyond = post(key, "/redact", Map.of("file", id, "areas", List.of(Map.of("page", 21, "x", 1, "y", 1, "width", 5, "height", 5))));
        assertThat(beyond.status()).isEqualTo(400);
        assertThat(beyond.body().at("/error/message").asString()).contains("page 21");
    }

    @Test
    void aWordOnAScanIsFoundInItsOcrAndBlackedOutInTheTextLayerAndThePicture() throws Exception {
        String key = newKey();
        Path scan = corpus("pdf-scanned/huckfinn-page-c02-22.pdf");
        String id = uploadId(key, scan);
        // the OCR the redaction reads is the one kept with the file: ocr returns it
        String before = Independent.pdftotext(downloadOutput(run(key, "ocr", Map.of("file", id, "wait", 300)), 0));
        assertThat(before).contains("kitchen");
        JsonNode job = run(key, "redact", Map.of("file", id, "text", List.of("kitchen"), "wait", 300));
        assertThat(job.at("/output/data/ocr_pages/0").asInt()).isEqualTo(1);
        assertThat(job.at("/output/data/pages/0/count").asInt()).isEqualTo(2);
        Path out = downloadOutput(job, 0);
        assertRedacted(out, List.of("kitchen"));
        List<String> expected = words(before, List.of("kitchen")), after = words(Independent.pdftotext(out), List.of());
        assertThat(similarity(expected, after)).as("word similarity; lost: %s", lost(expected, after)).isGreaterThanOrEqualTo(0.99);
        // the picture itself: its pixels under the word are gone, so OCR of the extracted image finds it no more
        Path images = Files.createTempDirectory(out.getParent(), "images-");
        assertThat(Independent.run("pdfimages", "-png", out.toString(), images.resolve("img").toString()).exit()).isZero();
        Independent.Run read = Independent.run("tesseract", images.resolve("img-000.png").toString(), "-", "-l", "eng");
        assertThat(read.output()).contains("garden").doesNotContainIgnoringCase("kitchen");
    }

    @Test
    void aBadPatternIsRefusedBeforeAnyJobAndABacktrackingOneFailsItsJobInBoundedTime() {
        String key = newKey();
        String id = uploadId(key, corpus("pdf-text/two-column-paper-2p.pdf"));
        Response bad = post(key, "/redact", Map.of("file", id, "patterns", List.of("(unclosed")));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.body().at("/error/message").asString()).contains("'patterns' item 1");
        Response none = post(key, "/redact", Map.of("file", id, "ignore_case", true));
        assertThat(none.status()).isEqualTo(400);
        Response hostile = post(key, "/redact", Map.of("file", id, "patterns", List.of("(?s)(.*a){20}#"), "wait", 120));
        assertThat(hostile.code()).isEqualTo("internal_error"); // spec §7: a job that ran and failed carries a 5xx code
        assertThat(hostile.body().at("/job/status").asString()).isEqualTo("failed");
        assertThat(hostile.body().at("/error/message").asString()).contains("(?s)(.*a){20}#", "page 1");
    }

    /** No reader finds any of {@code gone} in {@code pdf}. */
    private static void assertRedacted(Path pdf, List<String> gone) throws Exception {
        Map<String, String> readers = new LinkedHashMap<>();
        readers.put("pdftotext", Independent.pdftotext(pdf));
        readers.put("mutool", mutoolText(pdf));
        try (PDDocument doc = Independent.pdfbox(pdf)) {
            readers.put("PDFBox", new PDFTextStripper().getText(doc));
        }
        readers.put("qpdf --qdf", qdfText(pdf));
        for (Map.Entry<String, String> r : readers.entrySet()) {
            String text = r.getValue().replaceAll("\\s+", " ");
            for (String g : gone) assertThat(text).as(r.getKey()).doesNotContainIgnoringCase(g);
        }
    }

    /** Every word of {@code original}'s pdftotext text not part of {@code redacted} is in {@code out}'s (similarity >= 0.99). */
    private static void assertOtherWordsSurvive(Path original, Path out, List<String> redacted) throws Exception {
        List<String> expected = words(Independent.pdftotext(original), redacted);
        List<String> after = words(Independent.pdftotext(out), List.of());
        assertThat(expected).hasSizeGreaterThan(5);
        assertThat(similarity(expected, after)).as("word similarity; lost: %s", lost(expected, after)).isGreaterThanOrEqualTo(0.99);
    }

    /** The words of {@code text} (whitespace-separated), without those containing one of {@code redacted} or one of its words. */
    private static List<String> words(String text, List<String> redacted) {
        List<String> out = new ArrayList<>();
        for (String w : text.split("\\s+")) {
            if (w.isEmpty()) continue;
            String lw = w.toLowerCase(Locale.ROOT);
            if (redacted.stream().map(r -> r.toLowerCase(Locale.ROOT))
                    .anyMatch(r -> lw.contains(r) || List.of(r.split(" ")).contains(lw))) continue;
            out.add(w);
        }
        return out;
    }

    /** The share of {@code expected}'s words (as a multiset) found in {@code actual}, over the larger of the two. */
    private static double similarity(List<String> expected, List<String> actual) {
        Map<String, Integer> left = new HashMap<>();
        for (String w : actual) left.merge(w, 1, Integer::sum);
        int common = 0;
        for (String w : expected) {
            Integer n = left.get(w);
            if (n != null && n > 0) {
                common++;
                left.put(w, n - 1);
            }
        }
        return (double) common / Math.max(expected.size(), actual.size());
    }

    /** Up to 40 words of {@code expected} (as a multiset) that {@code actual} lacks. */
    private static List<String> lost(List<String> expected, List<String> actual) {
        List<String> left = new ArrayList<>(actual);
        return expected.stream().filter(w -> !left.remove(w)).limit(40).toList();
    }

    private static String mutoolText(Path pdf) throws Exception {
        Independent.Run r = Independent.run("mutool", "draw", "-q", "-F", "txt", "-o", "-", pdf.toString());
        assertThat(r.exit()).as(r.output()).isZero();
        return r.output();
    }

    /**
     * The file uncompressed by qpdf (QDF), with the pieces of kerned strings joined ({@code (Bill)-20(ing)} reads
     * {@code Billing}), as Latin-1.
     */
    private static String qdfText(Path pdf) throws Exception {
        Path qdf = pdf.resolveSibling(pdf.getFileName() + ".qdf");
        Independent.Run r = Independent.run("qpdf", "--qdf", "--object-streams=disable", pdf.toString(), qdf.toString());
        assertThat(r.exit()).as(r.output()).isIn(0, 3);
        String raw = new String(Files.readAllBytes(qdf), StandardCharsets.ISO_8859_1);
        return raw.replaceAll("\\)\\s*-?[0-9.]*\\s*\\(", "");
    }

    /** The union box (x, y, width, height from the top-left as seen) of the first run of {@code words} on page {@code page}, by pdftotext -bbox. */
    private static Map<String, Double> wordBox(Path pdf, int page, String... words) throws Exception {
        Independent.Run r = Independent.run("pdftotext", "-bbox", "-f", "" + page, "-l", "" + page, pdf.toString(), "-");
        Matcher m = Pattern.compile("<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" yMax=\"([0-9.]+)\">([^<]*)</word>").matcher(r.output());
        double x0 = Double.MAX_VALUE, y0 = Double.MAX_VALUE, x1 = 0, y1 = 0;
        int next = 0;
        while (m.find() && next < words.length) {
            if (!m.group(5).equals(words[next])) continue;
            next++;
            x0 = Math.min(x0, Double.parseDouble(m.group(1)));
            y0 = Math.min(y0, Double.parseDouble(m.group(2)));
            x1 = Math.max(x1, Double.parseDouble(m.group(3)));
            y1 = Math.max(y1, Double.parseDouble(m.group(4)));
        }
        assertThat(next).as("words found on page " + page).isEqualTo(words.length);
        return Map.of("x", x0, "y", y0, "width", x1 - x0, "height", y1 - y0);
    }

    /** A born-digital page in Helvetica (literal strings in its content stream) with contacts, IBANs and a code among ordinary prose. */
    private static Path bornDigital() throws Exception {
        Path pdf = Files.createTempDirectory(DATA_DIR, "redact-").resolve("invoice.pdf");
        List<String> lines = new ArrayList<>(List.of(
                "Invoice 2026-114 for the analytical engine",
                "Contact ada.lovelace@example.org or billing@example.com for questions.",
                "Pay to IBAN DE89 3704 0044 0532 0130 00 by Friday, or GB82WEST12345698765432.",
                "Internal reference SECRET-7731 stays in the archive."));
        String prose = "The engine weaves algebraical patterns just as the loom weaves flowers and leaves while the mill "
                + "turns numbers into tables that the printer sets without a single error of transcription";
        for (int i = 0; i < 14; i++) lines.add(prose.substring((i * 7) % 60, (i * 7) % 60 + 80).strip() + " " + (i + 1) + ".");
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(PDRectangle.A4);
            doc.addPage(page);
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.beginText();
                cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 11);
                cs.newLineAtOffset(56, 780);
                for (String l : lines) {
                    cs.showText(l);
                    cs.newLineAtOffset(0, -18);
                }
                cs.endText();
            }
            // the same data outside the page content: a note, a mailto link, the author and a bookmark
            PDAnnotationText note = new PDAnnotationText();
            note.setRectangle(new PDRectangle(20, 20, 20, 20));
            note.setContents("Ask billing@example.com");
            PDAnnotationLink link = new PDAnnotationLink();
            link.setRectangle(new PDRectangle(56, 740, 200, 14));
            PDActionURI uri = new PDActionURI();
            uri.setURI("mailto:ada.lovelace@example.org");
            link.setAction(uri);
            page.setAnnotations(List.of(note, link));
            doc.getDocumentInformation().setAuthor("ada.lovelace@example.org");
            PDDocumentOutline outline = new PDDocumentOutline();
            PDOutlineItem item = new PDOutlineItem();
            item.setTitle("Payments to billing@example.com");
            item.setDestination(page);
            outline.addLast(item);
            doc.getDocumentCatalog().setDocumentOutline(outline);
            doc.save(pdf.toFile());
        }
        return pdf;
    }
}
