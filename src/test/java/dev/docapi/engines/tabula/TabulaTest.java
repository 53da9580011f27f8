package dev.docapi.engines.tabula;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.support.Heavy;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.support.ApiTestBase;
import dev.docapi.support.TablePdf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Tabula in its sandboxed child JVM: the tables of ordinary pages come back as before, and a hostile page that sends
 * Tabula into an endless loop (a {@code cm} scale of about 3.4e38 and one oblique line) is stopped after the page timeout
 * and reported as unread, while the pages after it still give their tables; a page not asked about is not examined.
 */
@Heavy
class TabulaTest extends ApiTestBase {
    /** The largest float: Tabula's line clipping never ends on rulings scaled by it. */
    private static final String HUGE = "340282346638528859811704183484516925440";

    @Autowired
    ProcessRunner runner;

    @Test
    void aPageThatNeverEndsIsStoppedAndTheOtherPagesKeepTheirTables() throws Exception {
        Path pdf = Files.createTempFile("tabula-hostile-", ".pdf");
        try (PDDocument doc = new PDDocument()) {
            TablePdf.ruledTable(doc, "Maple Leafs", "13");
            hostilePage(doc);
            TablePdf.ruledTable(doc, "Canadiens", "24");
            doc.save(pdf.toFile());
        }
        // the child's class-data archive and font cache made first (once per service start), so that the bound below
        // only has to cover a page: page 1 ran past 8 s while they were being made in a CI run at half speed
        Path warm = Files.createTempFile("tabula-warm-", ".pdf");
        try (PDDocument doc = new PDDocument()) {
            TablePdf.ruledTable(doc, "Bruins", "6");
            doc.save(warm.toFile());
        }
        assertThat(new Tabula(runner, Duration.ofSeconds(120)).tables(warm, false).tables()).hasSize(1);
        Files.delete(warm);
        List<Integer> done = new ArrayList<>();
        long start = System.nanoTime();
        // 15 s: a normal page must never come near it
        Tabula.Tables found = new Tabula(runner, Duration.ofSeconds(15)).tables(pdf, false, done::add);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        // the hostile page alone would never end: any bound proves it was stopped; 120 s leaves room for the child JVM's
        // starts on a loaded machine (49.7 s was seen in a fresh-clone CI run)
        assertThat(took).isLessThan(Duration.ofSeconds(120));
        assertThat(found.unreadPages()).containsExactly(
                new Tabula.UnreadPage(2, "the table detector did not finish it within 15 s"));
        assertThat(found.note()).isEqualTo("Tables could not be detected on page 2 (the table detector did not finish it within 15 s).");
        assertThat(found.tables()).extracting(Tabula.PdfTable::page).containsExactly(1, 3);
        assertThat(found.tables().getFirst().rows()).containsExactly(List.of("Team", "Cups"), List.of("Maple Leafs", "13"));
        assertThat(found.tables().getLast().rows()).containsExactly(List.of("Team", "Cups"), List.of("Canadiens", "24"));
        assertThat(done).containsExactly(1, 2, 3);

        Files.delete(pdf);
    }

    /** A document of hostile pages costs at most {@link Tabula#MAX_STOPPED} page timeouts; the rest is not examined. */
    @Test
    void afterThreeStoppedPagesTheRestIsNotExamined() throws Exception {
        Path pdf = Files.createTempFile("tabula-hostile-", ".pdf");
        try (PDDocument doc = new PDDocument()) {
            for (int i = 0; i < 4; i++) hostilePage(doc);
            TablePdf.ruledTable(doc, "Canadiens", "24");
            doc.save(pdf.toFile());
        }
        Tabula.Tables found = new Tabula(runner, Duration.ofSeconds(2)).tables(pdf, false);
        String stopped = "the table detector did not finish it within 2 s";
        assertThat(found.unreadPages()).containsExactly(new Tabula.UnreadPage(1, stopped), new Tabula.UnreadPage(2, stopped),
                new Tabula.UnreadPage(3, stopped), new Tabula.UnreadPage(4, "not examined, nor any page after it: 3 pages ran past the table detector's limits"));
        assertThat(found.tables()).isEmpty();
        Files.delete(pdf);
    }

    @Test
    void aFileThatIsNotAPdfIsTheInputsFaultInOurWords() throws Exception {
        Path notPdf = Files.writeString(Files.createTempFile("tabula-", ".pdf"), "not a pdf");
        Tabula tabula = new Tabula(runner, Duration.ofSeconds(30));
        // PDFBox's own words ("End-of-File, expected line") stay in the log (issue 40)
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> tabula.tables(notPdf, false))
                .isInstanceOfSatisfying(dev.docapi.engines.EngineFailure.class,
                        f -> org.assertj.core.api.Assertions.assertThat(f.kind()).isEqualTo(dev.docapi.engines.EngineFailure.Kind.INVALID_INPUT))
                .hasMessage("the table detector could not open the PDF (its structure is damaged)");
        Files.delete(notPdf);
    }

    /** Some text, then a line drawn under a {@code cm} that scales by the largest float. */
    private static void hostilePage(PDDocument doc) throws IOException {
        PDPage page = new PDPage();
        doc.addPage(page);
        try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
            cs.beginText();
            cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 11);
            cs.newLineAtOffset(72, 700);
            cs.showText("A page whose rulings are out of all proportion");
            cs.endText();
            cs.saveGraphicsState();
            // one oblique line from far off the page to near its corner: Tabula's Cohen-Sutherland clipping of it
            // bounces between the page's edges forever (found by searching that algorithm's loop for such lines)
            cs.appendRawCommands(HUGE + " 0 0 " + HUGE + " 0 0 cm\n"
                    + "-0.433985736011608613793555377924349159002304077 0.5 m\n"
                    + "0.000000000000000000000000000000000002834420070 0.000000000000000000000000000000000001550341558 l S\n");
            cs.restoreGraphicsState();
        }
    }
}
