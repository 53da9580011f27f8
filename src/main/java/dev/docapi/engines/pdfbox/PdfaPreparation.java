package dev.docapi.engines.pdfbox;

import dev.docapi.engines.EngineFailure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDictionary;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.common.PDMetadata;
import org.apache.pdfbox.pdmodel.graphics.color.PDOutputIntent;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotation;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionGoTo;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationPopup;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDNamedDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDPageDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.destination.PDPageFitDestination;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDDocumentOutline;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineNode;
import org.apache.pdfbox.pdmodel.interactive.form.PDAcroForm;
import org.apache.xmpbox.XMPMetadata;
import org.apache.xmpbox.schema.AdobePDFSchema;
import org.apache.xmpbox.schema.DublinCoreSchema;
import org.apache.xmpbox.schema.XMPBasicSchema;
import org.apache.xmpbox.schema.PDFAIdentificationSchema;
import org.apache.xmpbox.xml.DomXmpParser;
import org.apache.xmpbox.xml.XmpParsingException;
import org.apache.xmpbox.xml.XmpSerializer;
import org.springframework.stereotype.Component;

/**
 * What PDF/A needs of a PDF before and after Ghostscript writes it (issue 27), done with PDFBox: before, the form
 * flattened into page content (Ghostscript's pdfwrite may drop widgets, and a form's field values must stay visible
 * and printable) and every annotation made printable and visible (Ghostscript drops non-printing annotations in
 * PDF/A mode, links included); after, the XMP's conformance level set to U when Unicode conformance is asked
 * (Ghostscript writes B).
 */
@Component
public class PdfaPreparation {
    private final PdfBox pdfBox;

    public PdfaPreparation(PdfBox pdfBox) {
        this.pdfBox = pdfBox;
    }

    /**
     * Writes {@code in} to {@code out} with its AcroForm flattened (appearances regenerated first, so every field shows
     * its value; the existing ones when a value cannot be drawn in its field's font) and its annotations printable; a PDF with only owner-password restrictions loses them (PDF/A forbids
     * encryption).
     *
     * Links to a named destination get the explicit page destination it names (Ghostscript's pdfwrite drops links to
     * named destinations: 39 of the corpus paper's 44); links to a name that names no page of the file go nowhere and
     * are removed.
     *
     * @throws EngineFailure {@code PASSWORD_NEEDED} or {@code FAILED} when the PDF cannot be read or written
     */
    public Prepared prepare(Path in, Path out, Path scratchDir) throws EngineFailure, InterruptedException {
        try (PDDocument doc = pdfBox.open(in, null, scratchDir)) {
            if (doc.isEncrypted()) doc.setAllSecurityToBeRemoved(true);
            int fields = 0;
            PDAcroForm form = doc.getDocumentCatalog().getAcroForm(null);
            if (form != null) {
                for (var ignored : form.getFieldTree()) fields++;
                form.setNeedAppearances(false);
                try {
                    form.flatten(form.getFields(), true);
                } catch (IllegalArgumentException noGlyph) {
                    // a value the field's own font cannot encode (a π in a WinAnsi font): its appearance, as the
                    // filling program drew it, is what PDF/A keeps
                    form.flatten(form.getFields(), false);
                }
                doc.getDocumentCatalog().setAcroForm(null);
            }
            int deadLinks = 0;
            for (PDPage page : doc.getPages()) {
                List<PDAnnotation> kept = new ArrayList<>();
                for (PDAnnotation a : page.getAnnotations()) {
                    if (a instanceof PDAnnotationLink link && !resolveNamedDestination(doc, link)) {
                        deadLinks++;
                        continue;
                    }
                    kept.add(a);
                    if (a instanceof PDAnnotationPopup) continue;
                    // PDF/A wants an appearance stream for every annotation but popups and links (6.3.3): PDFBox draws
                    // the standard kinds (text note, highlight, ink, shapes) from their dictionaries
                    if (!(a instanceof PDAnnotationLink) && (a.getAppearance() == null || a.getAppearance().getNormalAppearance() == null)) {
                        a.constructAppearances(doc);
                    }
                    a.setPrinted(true);
                    a.setHidden(false);
                    a.setInvisible(false);
                    a.setNoView(false);
                    a.setToggleNoView(false);
                }
                if (deadLinks > 0) page.setAnnotations(kept);
            }
            PdfBox.save(doc, out);
            return new Prepared(fields, deadLinks);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the PDF could not be prepared for PDF/A: " + e.getMessage(), e);
        }
    }

    /**
     * Writes {@code prepared} (a file {@link #prepare} wrote) to {@code out} as it is, claiming PDF/A-{@code part}
     * {@code conformance} ({@code B} or {@code U}): XMP metadata with the PDF/A identification and the document
     * information's title, author, subject, keywords, creator, producer and dates (PDF/A wants the two to agree), and
     * an output intent with the sRGB profile {@code icc} when the file has none. The page content, fonts and text are
     * not touched: this is the path for files whose fonts Ghostscript's PDF/A rewrite would re-encode (Type 3, CID
     * fonts without a Unicode map, invisible OCR text), where it would lose the text. Whether the result is PDF/A is
     * veraPDF's to say.
     *
     * @throws EngineFailure {@code FAILED} when the PDF cannot be read or written
     */
    public void claimAsIs(Path prepared, int part, String conformance, Path icc, Path out, Path scratchDir) throws EngineFailure, InterruptedException {
        try (PDDocument doc = pdfBox.open(prepared, null, scratchDir)) {
            if (doc.isEncrypted()) doc.setAllSecurityToBeRemoved(true);
            if (part == 1 && doc.getVersion() > 1.4f) doc.setVersion(1.4f);
            PDDocumentInformation info = doc.getDocumentInformation();
            XMPMetadata xmp = XMPMetadata.createXMPMetadata();
            PDFAIdentificationSchema id = xmp.createAndAddPDFAIdentificationSchema();
            id.setPart(part);
            id.setConformance(conformance);
            DublinCoreSchema dc = xmp.createAndAddDublinCoreSchema();
            if (info.getTitle() != null) dc.setTitle(info.getTitle());
            if (info.getAuthor() != null) dc.addCreator(info.getAuthor());
            if (info.getSubject() != null) dc.addDescription(null, info.getSubject());
            AdobePDFSchema pdf = xmp.createAndAddAdobePDFSchema();
            if (info.getProducer() != null) pdf.setProducer(info.getProducer());
            if (info.getKeywords() != null) pdf.setKeywords(info.getKeywords());
            XMPBasicSchema basic = xmp.createAndAddXMPBasicSchema();
            if (info.getCreator() != null) basic.setCreatorTool(info.getCreator());
            if (info.getCreationDate() != null) basic.setCreateDate(info.getCreationDate());
            if (info.getModificationDate() != null) basic.setModifyDate(info.getModificationDate());
            // an entry PDF/A would need mirrored in XMP that XMP does not carry here: dropped from the dictionary
            info.setTrapped(null);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            new XmpSerializer().serialize(xmp, bytes, true);
            PDMetadata metadata = new PDMetadata(doc);
            metadata.importXMPMetadata(bytes.toByteArray());
            doc.getDocumentCatalog().setMetadata(metadata);
            repairResources(doc);
            if (doc.getDocumentCatalog().getOutputIntents().isEmpty()) {
                try (InputStream profile = java.nio.file.Files.newInputStream(icc)) {
                    PDOutputIntent intent = new PDOutputIntent(doc, profile);
                    intent.setInfo("sRGB IEC61966-2.1");
                    intent.setOutputCondition("sRGB IEC61966-2.1");
                    intent.setOutputConditionIdentifier("sRGB IEC61966-2.1");
                    intent.setRegistryName("http://www.color.org");
                    doc.getDocumentCatalog().addOutputIntent(intent);
                }
            }
            PdfBox.save(doc, out);
        } catch (IOException | javax.xml.transform.TransformerException | org.apache.xmpbox.type.BadFieldValueException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the PDF could not be marked as PDF/A: " + e.getMessage(), e);
        }
    }

    /**
     * Replaces the outline of {@code converted} (Ghostscript's rewrite of {@code prepared}, same pages in the same order)
     * with {@code prepared}'s, item for item: titles, open state and each item's page (a fit-page destination); an item
     * whose destination names no page keeps its title without one. Ghostscript drops items whose destination it cannot
     * resolve in a repaired file, with their children.
     *
     * @throws EngineFailure {@code FAILED} when either PDF cannot be read or written
     */
    public void copyOutline(Path prepared, Path converted, Path scratchDir) throws EngineFailure, InterruptedException {
        try (PDDocument from = pdfBox.open(prepared, null, scratchDir); PDDocument to = Loader.loadPDF(converted.toFile())) {
            PDDocumentOutline source = from.getDocumentCatalog().getDocumentOutline();
            if (source == null) return;
            PDDocumentOutline outline = new PDDocumentOutline();
            copyItems(source, outline, from, to);
            to.getDocumentCatalog().setDocumentOutline(outline);
            Path tmp = scratchDir.resolve("outline.pdf");
            to.save(tmp.toFile());
            java.nio.file.Files.move(tmp, converted, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the outline could not be copied: " + e.getMessage(), e);
        }
    }

    private static void copyItems(PDOutlineNode source, PDOutlineNode target, PDDocument from, PDDocument to) throws IOException {
        for (PDOutlineItem child : source.children()) {
            PDOutlineItem item = new PDOutlineItem();
            item.setTitle(child.getTitle());
            PDPage page = child.findDestinationPage(from);
            int index = page == null ? -1 : from.getPages().indexOf(page);
            if (index >= 0 && index < to.getNumberOfPages()) {
                PDPageFitDestination destination = new PDPageFitDestination();
                destination.setPage(to.getPage(index));
                item.setDestination(destination);
            }
            target.addLast(item);
            copyItems(child, item, from, to);
            if (child.isNodeOpen()) item.openNode();
        }
    }

    /** A CMYK profile for {@code /DefaultCMYK}: Ghostscript's, installed with it. */
    private static final Path CMYK_PROFILE = Path.of("/usr/share/color/icc/ghostscript/default_cmyk.icc");

    /**
     * What PDF/A forbids in the resources of the pages, their form XObjects and the annotations' appearances, fixed
     * without changing what is drawn: images' {@code /Interpolate} set false (6.2.8: a hint viewers may ignore);
     * a TrueType CID font's missing {@code /CIDToGIDMap} given {@code /Identity}, the default it stood for (6.2.11.3.2);
     * and, when a CMYK profile is installed, {@code /DefaultCMYK} so DeviceCMYK colours are device-independent beside
     * the sRGB output intent (6.2.4.3).
     */
    private static void repairResources(PDDocument doc) throws IOException {
        COSArray defaultCmyk = null;
        if (java.nio.file.Files.isReadable(CMYK_PROFILE)) {
            org.apache.pdfbox.pdmodel.common.PDStream profile = new org.apache.pdfbox.pdmodel.common.PDStream(doc,
                    java.nio.file.Files.newInputStream(CMYK_PROFILE), COSName.FLATE_DECODE);
            profile.getCOSObject().setInt(COSName.N, 4);
            profile.getCOSObject().setItem(COSName.ALTERNATE, COSName.DEVICECMYK);
            defaultCmyk = new COSArray(List.of(COSName.ICCBASED, profile.getCOSObject()));
        }
        java.util.Set<COSDictionary> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (PDPage page : doc.getPages()) {
            repair(page.getCOSObject().getCOSDictionary(COSName.RESOURCES), defaultCmyk, seen);
            for (PDAnnotation a : page.getAnnotations()) {
                if (a.getAppearance() == null) continue;
                for (COSName key : List.of(COSName.N, COSName.R, COSName.D)) {
                    COSBase entry = a.getAppearance().getCOSObject().getDictionaryObject(key);
                    if (entry instanceof COSStream stream) repair(stream.getCOSDictionary(COSName.RESOURCES), defaultCmyk, seen);
                    else if (entry instanceof COSDictionary states) {
                        for (COSName state : states.keySet()) {
                            if (states.getDictionaryObject(state) instanceof COSStream stream) repair(stream.getCOSDictionary(COSName.RESOURCES), defaultCmyk, seen);
                        }
                    }
                }
            }
        }
    }

    private static void repair(COSDictionary resources, COSArray defaultCmyk, java.util.Set<COSDictionary> seen) {
        if (resources == null || !seen.add(resources)) return;
        if (defaultCmyk != null) {
            COSDictionary spaces = resources.getCOSDictionary(COSName.COLORSPACE);
            if (spaces == null) {
                spaces = new COSDictionary();
                resources.setItem(COSName.COLORSPACE, spaces);
            }
            if (!spaces.containsKey(COSName.getPDFName("DefaultCMYK"))) spaces.setItem(COSName.getPDFName("DefaultCMYK"), defaultCmyk);
        }
        COSDictionary fonts = resources.getCOSDictionary(COSName.FONT);
        if (fonts != null) {
            for (COSName name : fonts.keySet()) {
                if (!(fonts.getDictionaryObject(name) instanceof COSDictionary font) || !(font.getDictionaryObject(COSName.DESCENDANT_FONTS) instanceof COSArray d)
                        || d.size() == 0 || !(d.getObject(0) instanceof COSDictionary cid)) continue;
                if (COSName.CID_FONT_TYPE2.equals(cid.getCOSName(COSName.SUBTYPE)) && !cid.containsKey(COSName.CID_TO_GID_MAP)) {
                    cid.setItem(COSName.CID_TO_GID_MAP, COSName.IDENTITY);
                }
            }
        }
        COSDictionary xobjects = resources.getCOSDictionary(COSName.XOBJECT);
        if (xobjects == null) return;
        for (COSName name : xobjects.keySet()) {
            if (!(xobjects.getDictionaryObject(name) instanceof COSStream x)) continue;
            if (COSName.IMAGE.equals(x.getCOSName(COSName.SUBTYPE))) {
                if (x.getBoolean(COSName.INTERPOLATE, false)) x.setBoolean(COSName.INTERPOLATE, false);
                if (x.getDictionaryObject(COSName.SMASK) instanceof COSStream mask && mask.getBoolean(COSName.INTERPOLATE, false)) {
                    mask.setBoolean(COSName.INTERPOLATE, false);
                }
            } else {
                repair(x.getCOSDictionary(COSName.RESOURCES), defaultCmyk, seen);
            }
        }
    }

    /**
     * What {@link #prepare} changed.
     *
     * @param fields    the form fields flattened into the page
     * @param deadLinks the links removed because their named destination names no page of the file
     */
    public record Prepared(int fields, int deadLinks) {
    }

    /**
     * Replaces {@code link}'s named destination (its {@code /Dest} or its GoTo action's {@code /D}) with the page
     * destination the name stands for; false when the name stands for no page of {@code doc} (a dead link).
     */
    private static boolean resolveNamedDestination(PDDocument doc, PDAnnotationLink link) throws IOException {
        COSDictionary target = link.getCOSObject();
        COSName key = COSName.DEST;
        PDDestination dest = link.getDestination();
        if (dest == null && link.getAction() instanceof PDActionGoTo goTo) {
            target = goTo.getCOSObject();
            key = COSName.D;
            dest = goTo.getDestination();
        }
        if (!(dest instanceof PDNamedDestination named)) return true;
        PDPageDestination page = doc.getDocumentCatalog().findNamedDestinationPage(named);
        if (page == null || !(page.getCOSObject().getObject(0) instanceof COSDictionary pageDict)
                || doc.getPages().indexOf(new PDPage(pageDict)) < 0) {
            return false;
        }
        target.setItem(key, page);
        return true;
    }

    /**
     * Sets the PDF/A conformance level its XMP metadata claims ({@code pdfaid:conformance}) to {@code level}
     * ({@code U} or {@code B}), in place.
     *
     * @throws EngineFailure {@code FAILED} when the PDF has no readable XMP metadata or cannot be written
     */
    public void claimConformance(Path pdf, String level, Path scratchDir) throws EngineFailure, InterruptedException {
        try (PDDocument doc = Loader.loadPDF(pdf.toFile())) {
            PDMetadata metadata = doc.getDocumentCatalog().getMetadata();
            if (metadata == null) throw new IOException("it has no XMP metadata");
            XMPMetadata xmp;
            try (InputStream s = metadata.exportXMPMetadata()) {
                DomXmpParser parser = new DomXmpParser();
                parser.setStrictParsing(false);
                xmp = parser.parse(s);
            }
            PDFAIdentificationSchema id = xmp.getPDFAIdentificationSchema();
            if (id == null) throw new IOException("its XMP metadata has no PDF/A identification");
            id.setConformance(level);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            new XmpSerializer().serialize(xmp, bytes, true);
            PDMetadata updated = new PDMetadata(doc);
            updated.importXMPMetadata(bytes.toByteArray());
            doc.getDocumentCatalog().setMetadata(updated);
            Path tmp = scratchDir.resolve("conformance.pdf");
            doc.save(tmp.toFile());
            java.nio.file.Files.move(tmp, pdf, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | XmpParsingException | org.apache.xmpbox.type.BadFieldValueException | javax.xml.transform.TransformerException e) {
            throw new EngineFailure(EngineFailure.Kind.FAILED, "the PDF/A conformance level could not be set: " + e.getMessage(), e);
        }
    }
}
