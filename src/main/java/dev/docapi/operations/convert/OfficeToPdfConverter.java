package dev.docapi.operations.convert;

import dev.docapi.engines.EngineFailure;
import dev.docapi.engines.libreoffice.OfficePool;
import dev.docapi.core.FileKind;
import dev.docapi.contract.InputFile;
import dev.docapi.contract.OperationContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Word, Excel, PowerPoint and OpenDocument files → pdf through the warm LibreOffice pool. The input is linked into
 * the work directory under its canonical extension, because LibreOffice picks its import filter by extension.
 */
@Component
@Order(10)
public class OfficeToPdfConverter implements Converter {
    static final Set<String> EXTENSIONS = Set.of("docx", "xlsx", "pptx", "doc", "xls", "ppt", "odt", "ods", "odp");
    private final OfficePool office;

    public OfficeToPdfConverter(OfficePool office) {
        this.office = office;
    }

    @Override
    public boolean accepts(FileKind from, String extension, ConvertTarget to) {
        return from == FileKind.OFFICE && EXTENSIONS.contains(extension) && to == ConvertTarget.PDF;
    }

    @Override
    public boolean available() {
        return office.available();
    }

    @Override
    public Path convert(InputFile in, Path out, OperationContext<?> ctx) throws Exception {
        Path dir = ctx.tempDir("office");
        Path src = dir.resolve("document." + ConvertOperation.extension(in.file()));
        try {
            Files.createSymbolicLink(src, in.path().toAbsolutePath());
        } catch (UnsupportedOperationException | java.io.IOException e) {
            Files.copy(in.path(), src);
        }
        try {
            office.convert(src, dir.resolve("document.pdf"));
        } catch (EngineFailure e) {
            // named, its kind kept: the one place engine failures meet error codes is OperationService.failure
            throw new EngineFailure(e.kind(), "'" + in.file().name() + "': " + e.getMessage(), e);
        }
        Files.move(dir.resolve("document.pdf"), out);
        return out;
    }
}
