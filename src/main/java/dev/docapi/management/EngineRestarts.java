package dev.docapi.management;

import dev.docapi.engines.chromium.Chromium;
import dev.docapi.engines.libreoffice.OfficePool;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

/**
 * {@code docapi_engine_restarts_total{engine}} (issue 24): restarts of the warm engines after a document crashed or
 * hung them — LibreOffice processes (JODConverter restarts the one that timed out or died) and the Chromium browser.
 * The runs themselves are {@code docapi_engine_run_seconds}.
 */
@Component
class EngineRestarts implements MeterBinder {
    private final OfficePool office;
    private final Chromium chromium;

    EngineRestarts(OfficePool office, Chromium chromium) {
        this.office = office;
        this.chromium = chromium;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("docapi.engine.restarts", office, OfficePool::restarts).tag("engine", "libreoffice")
                .description("Warm engine restarts after a crash or a hang").register(registry);
        FunctionCounter.builder("docapi.engine.restarts", chromium, Chromium::restarts).tag("engine", "chromium")
                .description("Warm engine restarts after a crash or a hang").register(registry);
    }
}
