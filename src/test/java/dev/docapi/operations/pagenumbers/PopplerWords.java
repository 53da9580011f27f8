package dev.docapi.operations.pagenumbers;

import dev.docapi.support.Independent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Words and their boxes as poppler's {@code pdftotext -bbox} sees them: coordinates in points on the page as displayed
 * (after /Rotate), origin top-left, y downwards. An independent reader of where text appears.
 */
public record PopplerWords(List<Page> pages) {

    public record Word(String text, double xMin, double yMin, double xMax, double yMax) {
        public double width() {
            return xMax - xMin;
        }

        public double height() {
            return yMax - yMin;
        }
    }

    /** A page; poppler reports the unrotated size while word boxes are in displayed coordinates. */
    public record Page(double width, double height, List<Word> words) {

        /** The words whose centre lies in the box (points from the top-left), in poppler's order, space-separated. */
        public String textWithin(double x, double y, double width, double height) {
            StringBuilder sb = new StringBuilder();
            for (Word w : words) {
                double cx = (w.xMin() + w.xMax()) / 2, cy = (w.yMin() + w.yMax()) / 2;
                if (cx >= x && cx <= x + width && cy >= y && cy <= y + height) sb.append(sb.isEmpty() ? "" : " ").append(w.text());
            }
            return sb.toString();
        }

        /** This page with its size as displayed under {@code rotation} (the word boxes already are). */
        public Page shown(int rotation) {
            return rotation % 180 == 0 ? this : new Page(height, width, words);
        }
    }

    private static final Pattern PAGE = Pattern.compile("<page width=\"([\\d.]+)\" height=\"([\\d.]+)\">(.*?)</page>", Pattern.DOTALL);
    private static final Pattern WORD = Pattern.compile(
            "<word xMin=\"([\\d.-]+)\" yMin=\"([\\d.-]+)\" xMax=\"([\\d.-]+)\" yMax=\"([\\d.-]+)\">(.*?)</word>");

    public static PopplerWords of(Path pdf) throws Exception {
        Independent.Run r = Independent.run("pdftotext", "-enc", "UTF-8", "-bbox", pdf.toString(), "-");
        if (r.exit() != 0) throw new AssertionError("pdftotext -bbox failed: " + r.output());
        List<Page> pages = new ArrayList<>();
        Matcher pm = PAGE.matcher(r.output());
        while (pm.find()) {
            List<Word> words = new ArrayList<>();
            Matcher wm = WORD.matcher(pm.group(3));
            while (wm.find()) {
                words.add(new Word(wm.group(5), Double.parseDouble(wm.group(1)), Double.parseDouble(wm.group(2)),
                        Double.parseDouble(wm.group(3)), Double.parseDouble(wm.group(4))));
            }
            pages.add(new Page(Double.parseDouble(pm.group(1)), Double.parseDouble(pm.group(2)), words));
        }
        return new PopplerWords(pages);
    }
}
