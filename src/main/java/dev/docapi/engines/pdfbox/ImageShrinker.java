package dev.docapi.engines.pdfbox;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObject;
import org.apache.pdfbox.cos.COSObjectKey;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Makes a PDF smaller by its images alone (compress, issue 25): every image XObject (drawn on pages, in forms, in
 * annotations' appearances, or anywhere else) is downsampled to the wanted resolution and re-encoded
 * ({@link ImageRecoder}), identical images are stored once, and nothing else is touched: text, fonts, forms,
 * annotations, links, outlines and metadata are written back as they were read. Runs in process; decoding is bounded
 * by {@code DOCAPI_MAX_PIXELS}: a larger image is kept as it is, and the images being decoded at once, over all jobs,
 * never exceed that many pixels.
 */
@Component
public class ImageShrinker {
    /**
     * Image settings. Colour and grey images shown above {@code threshold} × {@code dpi} pixels per inch are
     * downsampled to {@code dpi} and written as JPEG at {@code jpegQuality} (0-1, ImageIO's scale); bi-level images
     * shown above {@code threshold} × {@code monoDpi} are subsampled towards {@code monoDpi} (CCITT G4).
     */
    public record Settings(double dpi, float jpegQuality, double monoDpi, double threshold) {
    }

    /** What was done: images found, re-encoded smaller, and duplicates stored once. */
    public record Report(int images, int recoded, int duplicates) {
    }

    private final long maxPixels;
    /** Kilopixels that may be decoded at once, over all jobs: bounds the heap a burst of huge scans can take. */
    private final Semaphore decoding;

    public ImageShrinker(@Value("${docapi.max-pixels:100000000}") long maxPixels) {
        this.maxPixels = maxPixels;
        this.decoding = new Semaphore((int) Math.min(Integer.MAX_VALUE, Math.max(1, maxPixels / 1000)));
    }

    /**
     * Writes {@code in} with its images re-encoded as {@code settings} say to {@code out} (PDFBox's writer, object
     * streams on). An image that cannot be decoded is kept as it is.
     *
     * @throws IOException when PDFBox cannot read or write the document (encrypted files included: re-encrypting
     *                     is not attempted)
     */
    public Report shrink(Path in, Settings settings, Path out) throws IOException, InterruptedException {
        try (PDDocument doc = Loader.loadPDF(in.toFile(), "", null, null, IOUtils.createTempFileOnlyStreamCache())) {
            if (doc.isEncrypted()) throw new IOException("encrypted documents are not rewritten");
            Map<COSStream, COSObject> images = imageStreams(doc);
            int duplicates = storeOnce(doc, images);
            Map<COSStream, Double> ppi = ImagePlacements.of(doc);
            Set<COSStream> masks = masks(images.keySet());
            int recoded = 0;
            for (COSStream stream : images.keySet()) {
                if (masks.contains(stream)) continue; // re-encoded with its image, to the image's size
                if (recode(doc, stream, ppi.get(stream), settings)) recoded++;
            }
            Path part = out.resolveSibling(out.getFileName() + ".part");
            doc.save(part.toFile());
            Files.move(part, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return new Report(images.size() - duplicates, recoded, duplicates);
        }
    }

    private boolean recode(PDDocument doc, COSStream stream, Double ppi, Settings s) throws InterruptedException {
        try {
            PDImageXObject image = new PDImageXObject(new org.apache.pdfbox.pdmodel.common.PDStream(stream), null);
            long pixels = (long) image.getWidth() * image.getHeight();
            if (pixels <= 0 || pixels > maxPixels) return false;
            int w = image.getWidth();
            int h = image.getHeight();
            // Unknown placement (a pattern, a glyph): re-encoded at its own size only.
            if (ppi != null && ppi > s.threshold() * s.dpi()) {
                double scale = s.dpi() / ppi;
                w = Math.max(1, (int) Math.round(w * scale));
                h = Math.max(1, (int) Math.round(h * scale));
            }
            int monoFactor = ppi == null || ppi <= s.threshold() * s.monoDpi() ? 1 : (int) Math.floor(ppi / s.monoDpi());
            COSDictionary softMask = stream.getCOSDictionary(COSName.SMASK);
            // A soft mask with /Matte must keep the image's size; such an image is re-encoded at its own size.
            if (softMask != null && softMask.containsKey(COSName.getPDFName("Matte"))) {
                w = image.getWidth();
                h = image.getHeight();
            }
            int permits = (int) Math.max(1, Math.min(Integer.MAX_VALUE, pixels / 1000));
            permits = Math.min(permits, Math.max(1, (int) Math.min(Integer.MAX_VALUE, maxPixels / 1000)));
            decoding.acquire(permits);
            try {
                ImageRecoder.Outcome o = ImageRecoder.recode(doc, image, w, h, monoFactor, s.jpegQuality());
                // (the image's dictionary now holds the new size: compare with the size it had)
                if (o == ImageRecoder.Outcome.RECODED && softMask instanceof COSStream mask && pixels > (long) w * h) {
                    ImageRecoder.shrinkSoftMask(new PDImageXObject(new org.apache.pdfbox.pdmodel.common.PDStream(mask), null), w, h);
                }
                return o == ImageRecoder.Outcome.RECODED;
            } finally {
                decoding.release(permits);
            }
        } catch (IOException | RuntimeException e) {
            return false; // an image PDFBox cannot decode (JBIG2, JPEG 2000 without a plugin, damaged data) stays as it was
        }
    }

    /** Every image XObject stream of the document, with the indirect object that holds it. */
    private static Map<COSStream, COSObject> imageStreams(PDDocument doc) {
        Map<COSStream, COSObject> images = new IdentityHashMap<>();
        for (COSObjectKey key : new ArrayList<>(doc.getDocument().getXrefTable().keySet())) {
            COSObject o = doc.getDocument().getObjectFromPool(key);
            if (o.getObject() instanceof COSStream s && COSName.IMAGE.equals(s.getCOSName(COSName.SUBTYPE))) images.putIfAbsent(s, o);
        }
        return images;
    }

    /** The streams used as another image's soft mask or stencil mask. */
    private static Set<COSStream> masks(Set<COSStream> images) {
        Set<COSStream> masks = Collections.newSetFromMap(new IdentityHashMap<>());
        for (COSStream s : images) {
            for (COSName key : List.of(COSName.SMASK, COSName.MASK)) {
                if (s.getDictionaryObject(key) instanceof COSStream m) masks.add(m);
            }
        }
        return masks;
    }

    /**
     * Points every reference to an image that duplicates another (same dictionary, same bytes) at the first one, so
     * the copies are no longer written; {@code images} keeps the ones still used. Returns how many were duplicates.
     */
    private static int storeOnce(PDDocument doc, Map<COSStream, COSObject> images) throws IOException {
        Map<String, COSObject> first = new HashMap<>();
        Map<COSStream, COSObject> replacement = new IdentityHashMap<>();
        for (var e : images.entrySet()) {
            String key = fingerprint(e.getKey());
            COSObject kept = first.putIfAbsent(key, e.getValue());
            if (kept != null) replacement.put(e.getKey(), kept);
        }
        if (replacement.isEmpty()) return 0;
        // Walk the whole object graph once: references to images sit in resources, masks, appearances and more.
        Deque<COSBase> todo = new ArrayDeque<>(List.of(doc.getDocument().getTrailer()));
        Set<COSBase> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        while (!todo.isEmpty()) {
            COSBase b = todo.pop();
            if (b instanceof COSObject o) b = o.getObject();
            if (b == null || !seen.add(b)) continue;
            if (b instanceof COSDictionary d) {
                for (COSName k : new ArrayList<>(d.keySet())) {
                    COSBase v = d.getItem(k);
                    COSObject to = replacement.get(deref(v));
                    if (to != null) d.setItem(k, to);
                    else todo.push(v);
                }
            } else if (b instanceof COSArray a) {
                for (int i = 0; i < a.size(); i++) {
                    COSObject to = replacement.get(deref(a.get(i)));
                    if (to != null) a.set(i, to);
                    else todo.push(a.get(i));
                }
            }
        }
        images.keySet().removeAll(replacement.keySet());
        return replacement.size();
    }

    private static COSBase deref(COSBase b) {
        return b instanceof COSObject o ? o.getObject() : b;
    }

    /** SHA-256 of the stream's dictionary (as written, Length aside) and its encoded bytes. */
    private static String fingerprint(COSStream s) throws IOException {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (var e : s.entrySet()) {
                if (e.getKey().equals(COSName.LENGTH)) continue;
                COSBase v = e.getValue();
                // an indirect value by its object number: the same mask object, not merely an equal-looking one
                String value = v instanceof COSObject o ? o.getObjectNumber() + " R" : String.valueOf(v);
                md.update((e.getKey().getName() + "=" + value + ";").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            try (InputStream in = s.createRawInputStream()) {
                byte[] buf = new byte[1 << 16];
                for (int n; (n = in.read(buf)) > 0; ) md.update(buf, 0, n);
            }
            return java.util.HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
