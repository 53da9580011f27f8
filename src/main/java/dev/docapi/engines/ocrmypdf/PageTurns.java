package dev.docapi.engines.ocrmypdf;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.poppler.Poppler;
import dev.docapi.engines.qpdf.Qpdf;
import dev.docapi.engines.tesseract.Tesseract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pages OCRmyPDF left as they lie without knowing which way they face, and which of them to turn. OCRmyPDF's
 * {@code --rotate-pages} turns a page only when Tesseract's orientation guess is confident (14, its default), which
 * a page of a few lines never is: Docling's one-line OCR test page turned upside down or on its side is guessed right
 * at confidence 2.2-2.8, and was read as noise ("eseyoed 081012110102 UOISJIBAUOD") or as a column of letters; a
 * note of two lines gets no guess at all ("Too few characters", confidence 0). A lower threshold is no answer:
 * upright pages are guessed wrong at the same confidence (a page of Latin text with a picture, 180 at 1.87; a title
 * page, 90 at 2.48). So such a page, when it holds text, is read by Tesseract as it lies, and when that read is poor,
 * turned as guessed and then the other ways, and turned when a turned read is clearly better
 * ({@link Tesseract#uprightScore}: about 90 upright, 25-35 upside down, under 5 on its side).
 */
final class PageTurns {
    /** OCRmyPDF's log line for a guess too unsure to act on (OCRmyPDF 14, {@code describe_rotation}). */
    private static final Pattern UNSURE = Pattern.compile(
            "^\\s*(\\d+) (?:with existing rotation \\S+, )?page is facing (\\S+), confidence [0-9.]+ - (?:confidence too low to rotate|no change)\\s*$",
            Pattern.MULTILINE);
    /**
     * The facing arrows OCRmyPDF logs (the way the page's top points as shown, its /Rotate applied), as the clockwise
     * turn that sets the page upright: a top pointing right needs three quarters.
     */
    private static final Map<String, Integer> FACING = Map.of("⇧", 0, "⇨", 270, "⇩", 180, "⇦", 90);
    private static final List<Integer> TURNS = List.of(90, 180, 270);
    /** A read as the page lies at least this good is upright enough: the page is not tried turned. */
    private static final double UPRIGHT = 85;
    /** A turned read must beat the read as the page lies by this many points: upright and not are 55 or more apart. */
    private static final double CLEARLY_BETTER = 20;
    /** A page whose first read has fewer letters holds no text to turn (a blank page, a photograph). */
    private static final int FEWEST_LETTERS = 4;
    /**
     * The longer side, in pixels, of a page's image for the reads: about 145 dpi on a letter page, enough for body
     * text; a page of any size reads in about a second.
     */
    private static final int PIXELS = 1600;
    /** A page whose first read has more words is no page of a few lines: Tesseract's guess on it is its best. */
    private static final int MOST_WORDS = 150;
    /** At most this many pages of a document are tried (one to four reads each); the others stay as OCRmyPDF left them. */
    static final int MAX_TRIED = 16;
    private final Qpdf qpdf;
    private final Poppler poppler;
    private final Tesseract tesseract;

    PageTurns(Qpdf qpdf, Poppler poppler, Tesseract tesseract) {
        this.qpdf = qpdf;
        this.poppler = poppler;
        this.tesseract = tesseract;
    }

    /**
     * The pages (from 1) of an OCRmyPDF run's log whose orientation guess was too unsure to act on, each with the
     * clockwise turn (0, 90, 180, 270) the guess calls for, in page order; empty for a log without such lines.
     */
    static Map<Integer, Integer> unsure(String log) {
        Map<Integer, Integer> out = new TreeMap<>();
        Matcher m = UNSURE.matcher(log);
        while (m.find()) {
            Integer turn = FACING.get(m.group(2));
            if (turn != null) out.put(Integer.parseInt(m.group(1)), turn);
        }
        return out;
    }

    /**
     * Of the {@code unsure} pages of {@code pdf} (page → guessed clockwise turn) whose first read ({@code read}, index 0
     * = page 1; null for a page not OCR'd) holds a few lines of text (at least {@value #FEWEST_LETTERS} letters, at most
     * {@value #MOST_WORDS} words), the first {@value #MAX_TRIED}: those that read clearly better turned, with their turn.
     *
     * @param dir a writable folder for the turned copies and the pages' images
     */
    Map<Integer, Integer> better(Path pdf, Map<Integer, Integer> unsure, List<String> read, Path dir)
            throws EngineFailure, InterruptedException, IOException {
        Map<Integer, Integer> tried = new TreeMap<>();
        for (Map.Entry<Integer, Integer> e : unsure.entrySet()) {
            int page = e.getKey();
            String text = page <= read.size() ? read.get(page - 1) : null;
            if (tried.size() < MAX_TRIED && text != null && text.codePoints().filter(Character::isLetter).count() >= FEWEST_LETTERS
                    && text.strip().split("\\s+").length <= MOST_WORDS) {
                tried.put(page, e.getValue());
            }
        }
        Map<Integer, Path> turned = new TreeMap<>();
        Map<Integer, Integer> out = new TreeMap<>();
        for (Map.Entry<Integer, Integer> e : tried.entrySet()) {
            int page = e.getKey();
            double asItLies = score(pdf, page, dir);
            if (asItLies >= UPRIGHT) continue;
            // the guess first, taken when it reads upright; else the turn that reads best (a clean page upside
            // down can read 70, so not the first turn that beats the page as it lies)
            List<Integer> order = new ArrayList<>(TURNS);
            if (order.remove(e.getValue())) order.addFirst(e.getValue());
            int best = 0;
            double bestScore = asItLies + CLEARLY_BETTER;
            for (int turn : order) {
                if (!turned.containsKey(turn)) turned.put(turn, turned(pdf, turn, tried.keySet(), dir));
                double score = score(turned.get(turn), page, dir);
                if (score > bestScore) {
                    best = turn;
                    bestScore = score;
                }
                if (best != 0 && bestScore >= UPRIGHT) break;
            }
            if (best != 0) out.put(page, best);
        }
        return out;
    }

    /** {@code pdf} with each page of {@code turns} turned clockwise by its turn (its /Rotate), written in {@code dir}. */
    Path turn(Path pdf, Map<Integer, Integer> turns, Path dir) throws EngineFailure, InterruptedException, IOException {
        Path current = pdf;
        for (int angle : TURNS) {
            List<Integer> pages = turns.entrySet().stream().filter(e -> e.getValue() == angle).map(Map.Entry::getKey).toList();
            if (!pages.isEmpty()) current = turned(current, angle, pages, dir);
        }
        return current;
    }

    private Path turned(Path pdf, int angle, java.util.Collection<Integer> pages, Path dir) throws EngineFailure, InterruptedException, IOException {
        Path out = Files.createTempDirectory(dir, "turned-" + angle + "-").resolve("turned.pdf");
        qpdf.rotate(pdf, angle, List.copyOf(pages), out);
        return out;
    }

    private double score(Path pdf, int page, Path dir) throws EngineFailure, InterruptedException, IOException {
        Path work = Files.createTempDirectory(dir, "read-");
        Path image = poppler.renderFitted(pdf, page, PIXELS, work);
        return image == null ? 0 : tesseract.uprightScore(image, work);
    }
}
