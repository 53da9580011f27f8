package dev.docapi.web;

import dev.docapi.core.FileKind;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationRegistry;
import dev.docapi.operations.OperationSpec.Trait;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The page editor's document tools (issue 26 item 3): every operation that takes one PDF and gives one PDF and is a
 * workflow step (watermark, page-numbers, protect, compress, ocr, pdfa, redact, …), read from the operations'
 * declarations, so that a new operation of that shape appears in the editor by itself.
 */
@Component
class DocumentTools {
    private final List<Operation<?>> tools;

    DocumentTools(OperationRegistry registry) {
        tools = registry.all().stream()
                .filter(op -> !op.inputs().many() && op.inputs().kinds().contains(FileKind.PDF))
                .filter(op -> !op.has(Trait.DATA_ONLY_OUTPUT) && !op.has(Trait.NOT_A_STEP) && !op.has(Trait.NOT_ONE_PDF_OUT))
                .toList();
    }

    /** By name. */
    List<Operation<?>> all() {
        return tools;
    }

    /** @throws org.springframework.web.server.ResponseStatusException 404 for a name that is not one of them */
    Operation<?> get(String name) {
        return tools.stream().filter(op -> op.name().equals(name)).findFirst().orElseThrow(CurrentAccount::notFound);
    }
}
