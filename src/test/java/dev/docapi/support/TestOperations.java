package dev.docapi.support;

import dev.docapi.core.ApiException;
import dev.docapi.core.ErrorCode;
import dev.docapi.operations.NoOptions;
import dev.docapi.operations.Operation;
import dev.docapi.contract.OperationContext;
import dev.docapi.contract.OperationFailure;
import dev.docapi.contract.OperationResult;
import dev.docapi.operations.OperationSpec;
import dev.docapi.operations.OptionField;
import dev.docapi.operations.OptionSchema;
import dev.docapi.operations.OutputMember;
import dev.docapi.operations.ValidationContext;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Operations that exist only in tests, to drive the job model deterministically: one that takes a while, one that
 * fails at run time (no real document makes a page operation fail after it passed validation), and one that blocks
 * until the test releases it, deaf to interrupts as in-JVM parsing is (DSS, PDFBox; issue 40).
 */
@TestConfiguration
public class TestOperations {
    /** Keys of {@code test-block} jobs released by the test; a job whose key is here ends. */
    private static final java.util.Set<String> RELEASED = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Per key, how many {@code test-block} jobs' work runs now. */
    private static final java.util.Map<String, Integer> BLOCKED = new java.util.concurrent.ConcurrentHashMap<>();

    /** Ends the {@code test-block} jobs started (or to be started) with {@code key}. */
    public static void release(String key) {
        RELEASED.add(key);
    }

    /** How many {@code test-block} works with {@code key} run now (including any their job abandoned). */
    public static int blocked(String key) {
        return BLOCKED.getOrDefault(key, 0);
    }

    record BlockOptions(String key, int seconds) {
    }

    /**
     * Blocks until {@link #release}d or {@code seconds} passed, ignoring interrupts as DSS and PDFBox do, then
     * succeeds. Progress is not reported, so nothing but the deadline's abandonment ends its job early.
     */
    @Bean
    Operation<BlockOptions> testBlock() {
        return new Operation<>() {
            public OperationSpec<BlockOptions> spec() {
                return OperationSpec.of("test-block", "test_block", "Test only: blocks until the test releases 'key' (at most 'seconds'), deaf to interrupts.")
                        .options(OptionSchema.of(BlockOptions.class, OptionField.string("key").required(),
                                OptionField.integer("seconds").min(1).max(120).required()))
                        .outputs(OutputMember.NOTE);
            }
            public OperationResult run(OperationContext<BlockOptions> ctx) {
                String key = ctx.options().key();
                long end = System.nanoTime() + ctx.options().seconds() * 1_000_000_000L;
                BLOCKED.merge(key, 1, Integer::sum);
                try {
                    while (!RELEASED.contains(key) && System.nanoTime() < end) {
                        Thread.interrupted(); // deaf to interrupts (and parkNanos would not wait with the flag set)
                        java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
                    }
                } finally {
                    BLOCKED.merge(key, -1, Integer::sum);
                }
                return OperationResult.ofNote(RELEASED.contains(key) ? "released" : "not released");
            }
        };
    }

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

    record ProcessOptions(int tag) {
    }

    /**
     * Runs {@code sleep 90.<tag>} through {@link dev.docapi.engines.process.ProcessRunner}, in the engine sandbox as
     * every engine runs: an external process a test can find by its command line (issue 40: killed at the deadline).
     */
    @Bean
    Operation<ProcessOptions> testProcess(dev.docapi.engines.process.ProcessRunner runner) {
        return new Operation<>() {
            public OperationSpec<ProcessOptions> spec() {
                return OperationSpec.of("test-process", "test_process", "Test only: runs 'sleep 90.<tag>' as an engine process.")
                        .options(OptionSchema.of(ProcessOptions.class, OptionField.integer("tag").min(1).max(999_999).required()))
                        .outputs(OutputMember.NOTE);
            }
            public OperationResult run(OperationContext<ProcessOptions> ctx) throws Exception {
                runner.run(java.util.List.of("/bin/sleep", "90." + ctx.options().tag()), java.time.Duration.ofMinutes(2),
                        dev.docapi.engines.process.ProcessRunner.Expect.ANY_EXIT);
                return OperationResult.ofNote("slept");
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
