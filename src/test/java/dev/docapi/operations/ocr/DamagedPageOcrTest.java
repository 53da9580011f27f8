package dev.docapi.operations.ocr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.Independent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.filter.FilterFactory;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * OCRmyPDF refuses a PDF with a stream no reader can decode (exit 4 "LZWDecoder: bad code", or 2); the service OCRs the
 * pages that use it from a picture of them and says so (issue 16, "OCRmyPDF failures on a damaged page retry that
 * page rasterised"). Checked on the corpus's damaged-stream file and on a corpus PDF whose page 2 content stream
 * this test corrupts, with OCRmyPDF itself, qpdf, PDFBox and pdftotext as the independent readers.
 */
@Heavy
class DamagedPageOcrTest extends ApiTestBase {

    @Test
    void theCorpusFileWithABadLzwStreamIsOcrdWithItsPageRasterised() throws Exception {
        Path input = corpus("pdf-broken/damaged-stream.pdf");
        assertThat(rawOcrExit(input)).as("OCRmyPDF alone refuses it").isEqualTo(4);

        String key = newKey();
        JsonNode job = run(key, "ocr", Map.of("file", uploadId(key, input), "wait", 300));
        assertThat(job.get("status").asString()).isEqualTo("succeeded");
        assertThat(job.at("/output/note").asString()).contains("Repaired: page 1 ");
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).as("no undecodable stream left").isZero();
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(1);
        }
        assertThat(Independent.pdftotext(out)).contains("Potato");
    }

    @Test
    void aCorruptedContentStreamOnPageTwoIsOcrdFromItsPictureAndTheOtherPagesKeepTheirText() throws Exception {
        Path source = corpus("pdf-text/pdflatex-4-pages-objstm.pdf");
        Path input = Files.createTempDirectory(DATA_DIR, "lzw-").resolve("page-two-damaged.pdf");
        corruptContentStream(source, 2, 3, input);
        assertThat(Independent.qpdfCheck(input).exit()).as("qpdf sees the damage").isEqualTo(2);
        // exit 2 here: OCRmyPDF's own reading of the page fails ("InputFileError")
        assertThat(rawOcrExit(input)).as("OCRmyPDF alone refuses it").isEqualTo(2);
        String readable = Independent.pdftotext(input, 2, 2);
        assertThat(words(readable)).as("poppler still reads the start of page 2").hasSizeGreaterThan(100);

        String key = newKey();
        String id = uploadId(key, input);
        JsonNode job = run(key, "ocr", Map.of("file", id, "wait", 300));
        assertThat(job.get("status").asString()).isEqualTo("succeeded");
        assertThat(job.at("/output/note").asString()).contains("Repaired: page 2 ");
        Path out = downloadOutput(job, 0);
        assertThat(Independent.qpdfCheck(out).exit()).isIn(0, 3);
        try (PDDocument doc = Independent.pdfbox(out)) {
            assertThat(doc.getNumberOfPages()).isEqualTo(3);
        }
        for (int page : new int[]{1, 3}) {
            assertThat(Independent.pdftotext(out, page, page)).as("page " + page + " keeps its own text layer")
                    .isEqualTo(Independent.pdftotext(source, page, page));
        }
        assertThat(share(words(readable), words(Independent.pdftotext(out, 2, 2)))).as("page 2 read back by OCR")
                .isGreaterThan(0.8);

        JsonNode text = run(key, "extract-text", Map.of("file", id, "ocr", "always", "wait", 300));
        assertThat(text.get("status").asString()).isEqualTo("succeeded");
        String[] pages = text.at("/output/text").asString().split("\f");
        assertThat(pages).hasSize(3);
        assertThat(share(words(readable), words(pages[1]))).isGreaterThan(0.8);
    }

    /** The exit status of OCRmyPDF run directly on {@code pdf} as the service runs it. */
    private static int rawOcrExit(Path pdf) throws Exception {
        Path out = Files.createTempDirectory(DATA_DIR, "raw-ocr-").resolve("out.pdf");
        return Independent.run("ocrmypdf", "-l", "eng", "--output-type", "pdf", "--pdf-renderer", "sandwich",
                "--skip-text", "--quiet", pdf.toString(), out.toString()).exit();
    }

    /**
     * Writes the first {@code pages} pages of {@code source} with the content stream of {@code page} (from 1)
     * LZW-encoded and 8 bytes in its middle overwritten with 0xFF: a code beyond the decoder's table, so the first half
     * of the page still decodes. Three pages (a whole page before and after the damaged one) prove the stitching; each
     * more page is only more OCR time (issue 41).
     */
    static void corruptContentStream(Path source, int page, int pages, Path out) throws Exception {
        try (PDDocument doc = Loader.loadPDF(source.toFile())) {
            while (doc.getNumberOfPages() > pages) doc.removePage(pages);
            PDPage p = doc.getPage(page - 1);
            byte[] content;
            try (InputStream in = p.getContents()) {
                content = in.readAllBytes();
            }
            ByteArrayOutputStream lzw = new ByteArrayOutputStream();
            FilterFactory.INSTANCE.getFilter(COSName.LZW_DECODE).encode(new ByteArrayInputStream(content), lzw, new COSDictionary(), 0);
            byte[] bytes = lzw.toByteArray();
            Arrays.fill(bytes, bytes.length / 2, bytes.length / 2 + 8, (byte) 0xFF);
            COSStream damaged = doc.getDocument().createCOSStream();
            try (OutputStream o = damaged.createRawOutputStream()) {
                o.write(bytes);
            }
            damaged.setItem(COSName.FILTER, COSName.LZW_DECODE);
            p.getCOSObject().setItem(COSName.CONTENTS, damaged);
            doc.save(out.toFile());
        }
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.split("[^\\p{L}]+")).filter(w -> w.length() > 2).map(String::toLowerCase).toList();
    }

    /** The share of {@code expected}'s words found in {@code actual} (as a multiset). */
    private static double share(List<String> expected, List<String> actual) {
        Map<String, Integer> left = new java.util.HashMap<>();
        actual.forEach(w -> left.merge(w, 1, Integer::sum));
        long found = expected.stream().filter(w -> left.merge(w, -1, Integer::sum) >= 0).count();
        return expected.isEmpty() ? 0 : (double) found / expected.size();
    }
}
