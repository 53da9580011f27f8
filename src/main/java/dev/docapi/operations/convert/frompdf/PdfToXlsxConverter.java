package dev.docapi.operations.convert.frompdf;

import dev.docapi.operations.convert.ConvertTarget;
import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.tabula.Tabula;
import dev.docapi.core.FileKind;
import dev.docapi.document.DocumentModel;
import dev.docapi.document.DocumentReader;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import dev.docapi.operations.convert.Converter;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.springframework.stereotype.Component;

/**
 * pdf → xlsx (spec §4.4): the document's tables as real cells, one sheet per table ({@code Page 3 table 1}),
 * numbers as numeric cells. Tables come from Tabula: ruled (lattice) tables, else whitespace-aligned (stream)
 * tables on pages without rulings; when it finds none, the document model's tables found by the alignment of their
 * text ({@link DocumentModel}). Scans are OCR'd first. A document without any table gives one sheet {@code Text} with its text as the model reads
 * it, one paragraph or line per row, so the output is never empty.
 */
@Component
public class PdfToXlsxConverter implements Converter {
    /** 1234, -12.5, 1,234,567.89, (no leading zeros: "007" is a code, not a number). */
    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9]\\d{0,2}(,\\d{3})+|[1-9]\\d*)(\\.\\d+)?");
    private final PdfSource source;
    private final Tabula tabula;
    private final DocumentReader documents;

    public PdfToXlsxConverter(PdfSource source, Tabula tabula, DocumentReader documents) {
        this.source = source;
        this.tabula = tabula;
        this.documents = documents;
    }

    /** A table to write: its page (from 1) and rows of cells. */
    private record Found(int page, List<List<String>> rows) {
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.PDF && to == ConvertTarget.XLSX;
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        int pages = source.pages(in);
        Path pdf = source.withText(in, pages, ctx).pdf();
        Tabula.Tables found;
        try {
            found = tabula.tables(pdf, true, page -> ctx.progress(page, pages, "pages"));
        } catch (EngineFailure e) {
            // named, its kind kept: the one place engine failures meet error codes is OperationService.failure
            throw new EngineFailure(e.kind(), "'" + in.file().name() + "': " + e.getMessage(), e);
        }
        ctx.note(found.note());
        List<Found> tables = new ArrayList<>();
        for (Tabula.PdfTable t : found.tables()) tables.add(new Found(t.page(), t.rows()));
        DocumentModel model = documents.read(in, ctx);
        if (tables.isEmpty()) {
            for (DocumentModel.Page page : model.pages()) {
                for (DocumentModel.Element e : page.elements()) if (e.table() != null) tables.add(new Found(page.number(), e.table().grid()));
            }
        }
        Path part = out.resolveSibling(out.getFileName() + ".part");
        try (XSSFWorkbook book = new XSSFWorkbook()) {
            if (tables.isEmpty()) {
                Sheet sheet = book.createSheet("Text");
                int r = 0;
                for (String line : String.join("\n", model.pageTexts()).split("\n")) {
                    if (line.isBlank()) continue;
                    sheet.createRow(r++).createCell(0).setCellValue(PdfToPptxConverter.clean(line.strip()));
                }
            }
            int n = 0, lastPage = 0;
            for (Found t : tables) {
                n = t.page() == lastPage ? n + 1 : 1;
                lastPage = t.page();
                Sheet sheet = book.createSheet("Page " + t.page() + " table " + n);
                for (int r = 0; r < t.rows().size(); r++) {
                    Row row = sheet.createRow(r);
                    List<String> cells = t.rows().get(r);
                    for (int c = 0; c < cells.size(); c++) {
                        String v = cells.get(c);
                        if (v.isEmpty()) continue;
                        if (NUMBER.matcher(v).matches()) row.createCell(c).setCellValue(new BigDecimal(v.replace(",", "")).doubleValue());
                        else row.createCell(c).setCellValue(PdfToPptxConverter.clean(v));
                    }
                }
                int cols = t.rows().getFirst().size();
                for (int c = 0; c < Math.min(cols, 50); c++) sheet.autoSizeColumn(c);
            }
            try (OutputStream os = Files.newOutputStream(part)) {
                book.write(os);
            }
        }
        Files.move(part, out, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return out;
    }
}
