package dev.docapi.operations.watermark;

import dev.docapi.engines.pdfbox.PageFrame;
import dev.docapi.engines.fonts.FontCatalog.FontFace;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.fontbox.ttf.TrueTypeCollection;
import org.apache.fontbox.ttf.TrueTypeFont;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSFloat;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSString;
import org.apache.pdfbox.pdfwriter.ContentStreamWriter;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.PDPageContentStream.AppendMode;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.common.PDStream;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType0Font;
import org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject;
import org.apache.pdfbox.pdmodel.graphics.state.PDExtendedGraphicsState;
import org.apache.pdfbox.util.Matrix;

/**
 * Draws one line of text diagonally across the middle of pages (from the visual bottom-left towards the top-right),
 * semi-transparent grey, upright as each page is shown.
 *
 * <p>The text is drawn once into a Form XObject shared by every page (so a 117-page book carries it once): the glyphs
 * in visual order, split into runs per font, each font embedded once as a subset (Type 0, Identity-H, with a
 * ToUnicode map). The drawing is a marked-content {@code /Span} whose inline {@code /ActualText} (ISO 32000-1
 * §14.9.4) is the Unicode of those glyphs in drawing order: without it, text extraction gets diagonal glyphs letter by
 * letter (poppler breaks non-axis text apart); with it, readers see one run of the same characters, as if drawn
 * horizontally, and apply their usual visual-to-logical reordering of right-to-left runs (poppler does, so logical
 * typed text there would come out reversed). The dictionary must be inline: poppler ignores a named property list,
 * and PDFBox's content stream only writes named ones, so the form's stream is written token by token.
 */
final class WatermarkStamper implements Closeable {
    /** Opacity of the watermark fill (ExtGState {@code /ca}). */
    static final float OPACITY = 0.3f;
    /** The font size the form is drawn at; pages scale it. */
    private static final float FORM_SIZE = 100f;

    private record Run(PDFont font, String text) {
    }

    private final PDFormXObject form;
    private final List<PDFont> fonts = new ArrayList<>();
    /** Font collections open until the fonts are subset. */
    private final List<TrueTypeCollection> collections = new ArrayList<>();
    /** Text width at size 1, in points. */
    private final float unitWidth;

    /**
     * @param visual the text shaped and in visual order: what is drawn, and its {@code /ActualText}
     * @param fonts  for each code point of {@code visual} (in order), the font face that draws it
     */
    WatermarkStamper(PDDocument doc, String visual, List<FontFace> fonts) throws IOException {
        try {
            List<Run> runs = runs(doc, visual, fonts);
            runs.stream().map(Run::font).distinct().forEach(this.fonts::add);
            float width = 0;
            for (Run r : runs) width += r.font().getStringWidth(r.text()) / 1000f;
            unitWidth = Math.max(width, 0.001f);
            form = form(doc, visual, runs);
        } catch (IOException | RuntimeException e) {
            close(); // nobody else can close what was opened so far
            throw e;
        }
    }

    private List<Run> runs(PDDocument doc, String visual, List<FontFace> fonts) throws IOException {
        Map<FontFace, PDFont> loaded = new HashMap<>();
        List<Run> runs = new ArrayList<>();
        int[] cps = visual.codePoints().toArray();
        StringBuilder current = new StringBuilder();
        PDFont currentFont = null;
        for (int i = 0; i < cps.length; i++) {
            FontFace face = fonts.get(i);
            PDFont font = loaded.get(face);
            if (font == null) {
                font = load(doc, face);
                loaded.put(face, font);
            }
            if (font != currentFont && !current.isEmpty()) {
                runs.add(new Run(currentFont, current.toString()));
                current.setLength(0);
            }
            currentFont = font;
            current.appendCodePoint(cps[i]);
        }
        if (!current.isEmpty()) runs.add(new Run(currentFont, current.toString()));
        return runs;
    }

    private PDFont load(PDDocument doc, FontFace face) throws IOException {
        if (face.name() == null) return PDType0Font.load(doc, face.file().toFile());
        TrueTypeCollection collection = new TrueTypeCollection(face.file().toFile());
        collections.add(collection);
        TrueTypeFont ttf = collection.getFontByName(face.name());
        if (ttf == null) throw new IOException("font " + face.name() + " is no longer in " + face.file());
        return PDType0Font.load(doc, ttf, true);
    }

    /** The text centred on the origin at {@link #FORM_SIZE}, baseline a third of the size below it (mid x-height). */
    private PDFormXObject form(PDDocument doc, String visual, List<Run> runs) throws IOException {
        PDFormXObject xo = new PDFormXObject(doc);
        PDResources res = new PDResources();
        xo.setResources(res);
        float half = unitWidth * FORM_SIZE / 2;
        xo.setBBox(new PDRectangle(-half - FORM_SIZE, -FORM_SIZE, 2 * half + 2 * FORM_SIZE, 2 * FORM_SIZE));
        PDExtendedGraphicsState gs = new PDExtendedGraphicsState();
        gs.setNonStrokingAlphaConstant(OPACITY);
        gs.setStrokingAlphaConstant(OPACITY);
        COSDictionary span = new COSDictionary();
        span.setString(COSName.ACTUAL_TEXT, visual);

        List<Object> t = new ArrayList<>();
        t.add(res.add(gs));
        t.add(Operator.getOperator("gs"));
        t.add(new COSFloat(0.5f));
        t.add(Operator.getOperator("g"));
        t.add(COSName.getPDFName("Span"));
        t.add(span);
        t.add(Operator.getOperator("BDC"));
        t.add(Operator.getOperator("BT"));
        t.add(new COSFloat(-half));
        t.add(new COSFloat(-FORM_SIZE / 3));
        t.add(Operator.getOperator("Td"));
        for (Run r : runs) {
            t.add(res.add(r.font()));
            t.add(new COSFloat(FORM_SIZE));
            t.add(Operator.getOperator("Tf"));
            r.text().codePoints().forEach(cp -> r.font().addToSubset(cp));
            t.add(new COSString(r.font().encode(r.text())));
            t.add(Operator.getOperator("Tj"));
        }
        t.add(Operator.getOperator("ET"));
        t.add(Operator.getOperator("EMC"));
        PDStream stream = xo.getContentStream();
        try (OutputStream out = stream.createOutputStream(COSName.FLATE_DECODE)) {
            new ContentStreamWriter(out).writeTokens(t);
        }
        return xo;
    }

    /**
     * Embeds the glyphs used as font subsets; call once, after the last {@link #stamp}, before saving. (PDFBox only
     * subsets fonts on save when they were set through its content stream class, which the form does not use.)
     */
    void finish() throws IOException {
        for (PDFont f : fonts) f.subset();
    }

    /** Closes the font collections read for subsetting. */
    @Override
    public void close() throws IOException {
        for (TrueTypeCollection c : collections) c.close();
        collections.clear();
    }

    /** Stamps the watermark on {@code page}, over its content; the existing content is wrapped so its state cannot leak. */
    void stamp(PDDocument doc, PDPage page) throws IOException {
        PageFrame frame = PageFrame.of(page);
        float w = frame.width(), h = frame.height();
        double angle = Math.atan2(h, w);
        // As large as fits 75% of the diagonal, but never taller than a fifth of the shorter side.
        float size = (float) Math.min(Math.hypot(w, h) * 0.75 / unitWidth, Math.min(w, h) / 5.0);
        try (PDPageContentStream cs = new PDPageContentStream(doc, page, AppendMode.APPEND, true, true)) {
            cs.transform(frame.toUser());
            cs.transform(Matrix.getTranslateInstance(w / 2, h / 2));
            cs.transform(Matrix.getRotateInstance(angle, 0, 0));
            cs.transform(Matrix.getScaleInstance(size / FORM_SIZE, size / FORM_SIZE));
            cs.drawForm(form);
        }
    }
}
