package dev.docapi.support;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.operations.NoOptions;
import dev.docapi.operations.Operation;
import dev.docapi.operations.OperationContext;
import dev.docapi.operations.OperationFailure;
import dev.docapi.operations.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Operations that exist only in tests, to drive the job model deterministically: one that takes a while and one
 * that fails at run time (no real document makes a page operation fail after it passed validation).
 */
@TestConfiguration
public class TestOperations {

    record SleepOptions(int seconds) {
    }

    @Bean
    Operation<SleepOptions> testSleep() {
        return new Operation<>() {
            public OperationSpec<SleepOptions> spec() {
                return OperationSpec.of("test-sleep", "test_sleep", "Test only: waits 'seconds', reporting progress each second.")
                        .options(OptionSchema.of(SleepOptions.class, OptionField.integer("seconds").min(0).max(60).required()))
                        .outputs(OutputMember.NOTE);
            }
            public OperationResult run(OperationContext<SleepOptions> ctx) throws Exception {
                int seconds = ctx.options().seconds();
                for (int i = 0; i < seconds; i++) {
                    ctx.progress(i, seconds, "seconds");
                    Thread.sleep(1000);
                }
                return OperationResult.ofNote("slept " + seconds + " s");
            }
        };
    }

    @Bean
    Operation<NoOptions> testFail() {
        return new Operation<>() {
            public OperationSpec<NoOptions> spec() { return OperationSpec.of("test-fail", "test_fail", "Test only: fails at run time."); }
            public OperationResult run(OperationContext<NoOptions> ctx) throws Exception {
                throw new OperationFailure("the engine could not process page 1");
            }
        };
    }

    /** Test only: answers 503 at validation, as an AI operation does on a service without a model. */
    @Bean
    Operation<NoOptions> testUnavailable() {
        return new Operation<>() {
            public OperationSpec<NoOptions> spec() {
                return OperationSpec.of("test-unavailable", "test_unavailable", "Test only: 503 service_unavailable at validation.");
            }
            public void validate(ValidationContext<NoOptions> ctx) {
                throw new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "test-unavailable is never available");
            }
            public OperationResult run(OperationContext<NoOptions> ctx) {
                throw new IllegalStateException("validation refuses every request");
            }
        };
    }

    /** Test only (workflows): a data-only step, like {@code extract}: a text and a JSON result, no document out. */
    @Bean
    Operation<NoOptions> testPageCount() {
        return new Operation<>() {
            public OperationSpec<NoOptions> spec() {
                return OperationSpec.of("test-page-count", "test_page_count", "Test only: reports the page count as text and data, with a .json file.")
                        .traits(OperationSpec.Trait.DATA_ONLY_OUTPUT)
                        .outputs(OutputMember.TEXT, OutputMember.DATA);
            }
            public OperationResult run(OperationContext<NoOptions> ctx) throws Exception {
                int pages;
                try (var doc = org.apache.pdfbox.Loader.loadPDF(ctx.input().path().toFile())) {
                    pages = doc.getNumberOfPages();
                }
                java.nio.file.Files.writeString(ctx.output("pages", "json"), "{\"pages\":" + pages + "}");
                return OperationResult.ofText(pages + " pages").withData(tools.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("pages", pages));
            }
        };
    }
}
