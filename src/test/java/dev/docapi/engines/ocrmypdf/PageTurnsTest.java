package dev.docapi.engines.ocrmypdf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.docapi.config.DocapiProperties;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.process.ProcessRunner;
import dev.docapi.engines.process.Sandbox;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.engines.tesseract.Tesseract;
import dev.docapi.support.ScanPdfs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PageTurns} on OCRmyPDF 14's own log lines, and its choice with the real Tesseract: a guess that a page of a
 * few lines faces down is taken when the page does, and not when it stands upright; without a guess each turn is tried (Tesseract guesses upright pages
 * of a few lines wrong at the confidence it guesses turned ones right, 1.9-2.8).
 */
class PageTurnsTest {
    private static final List<String> NOTE = List.of("Please return the signed form to the office", "before the end of next month.");

    @Test
    void theUnsureGuessesAreReadFromOcrmypdfsLog() {
        String log = """
                Start processing 2 pages concurrently
                    2 with existing rotation ⇩, page is facing ⇩, confidence 2.20 - confidence too low to rotate
                    1 page is facing ⇧, confidence 2.22 - no change
                    3 with existing rotation ⇨, page is facing ⇨, confidence 2.36 - confidence too low to rotate
                    4 with existing rotation ⇦, page is facing ⇦, confidence 2.52 - confidence too low to rotate
                    5 page is facing ⇨, confidence 18.00 - will rotate ⬑
                    6 page is facing ⇨, confidence 1.50 - confidence too low to rotate
                Output sent to stdout
                """;
        // the turn that sets each upright, clockwise: a top shown pointing right needs three quarters
        assertThat(PageTurns.unsure(log)).containsExactly(Map.entry(1, 0), Map.entry(2, 180), Map.entry(3, 270), Map.entry(4, 90),
                Map.entry(6, 270));
        assertThat(PageTurns.unsure("    1 page is facing ⇧, confidence 30.1 - rotation appears correct\n")).isEmpty();
    }

    @Test
    void aPageIsTurnedOnlyWhenItReadsClearlyBetterTurned(@TempDir Path data) throws Exception {
        DocapiProperties props = new DocapiProperties(0, data, null, null, null, null, 1, false, Duration.ofSeconds(1), 0, 0, null);
        ProcessRunner runner = new ProcessRunner(new Sandbox(props, false, 0, 0, 0));
        PageTurns turns = new PageTurns(new Qpdf(runner), new Poppler(runner), new Tesseract(runner));
        Path work = runner.sandbox().newScratchDir("turns-");
        Path pdf = work.resolve("note.pdf");
        ScanPdfs.imageOnlyPdf(List.of(ScanPdfs.fewLines(NOTE, 2), ScanPdfs.fewLines(NOTE, 0), ScanPdfs.fewLines(NOTE, 1)), pdf);

        // what OCRmyPDF's first read of each page gave: some letters (noise, for a turned page)
        List<String> read = List.of("eseyoed Aseo ue ul", "Please return the signed form", "P l e a s e r e t u r n");
        // page 1 faces down; page 2 stands upright (a wrong guess); page 3 lies on its right side
        assertThat(turns.better(pdf, Map.of(1, 180, 2, 180, 3, 270), read, work)).containsExactly(Map.entry(1, 180), Map.entry(3, 270));
        assertThat(turns.better(pdf, Map.of(2, 90), read, work)).as("an upright page guessed to lie on its side").isEmpty();
        // no guess (too few characters for one): each turn is tried
        assertThat(turns.better(pdf, Map.of(1, 0, 2, 0, 3, 0), read, work)).containsExactly(Map.entry(1, 180), Map.entry(3, 270));
        assertThat(turns.better(pdf, Map.of(1, 180), List.of("", "", ""), work)).as("a page without text is not tried").isEmpty();
    }
}
