package dev.docapi.management;

import dev.docapi.engines.Engine;
import dev.docapi.engines.EngineCheck;
import dev.docapi.engines.chromium.Chromium;
import dev.docapi.engines.libreoffice.OfficePool;
import dev.docapi.engines.process.Sandbox;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The engines of this node, one detail each (as Gotenberg's {@code /health} shows its modules): LibreOffice's pool,
 * Chromium, OCR, the PDF tools and the sandbox. Part of readiness (issue 24), always UP: a node takes work while its
 * LibreOffice pool is still warming (issue 41: readiness waits for what every job needs, the database and the blob
 * store, not for a warm-up only Office conversions need; such a conversion waits for the pool's start, as it would on
 * a cold pool, and every other operation runs at once); a missing engine does not make the node unready either (its
 * operations answer 503 at validation), but shows here.
 */
@Component("enginesHealthIndicator")
class EnginesHealth implements HealthIndicator {
    private final OfficePool office;
    private final Chromium chromium;
    private final Sandbox sandbox;

    EnginesHealth(OfficePool office, Chromium chromium, Sandbox sandbox) {
        this.office = office;
        this.chromium = chromium;
        this.sandbox = sandbox;
    }

    @Override
    public Health health() {
        Health.Builder h = Health.up();
        h.withDetail("libreoffice", !office.available() ? "not installed"
                : office.warming() ? "starting"
                : office.running() > 0 ? office.running() + " process(es) running, " + office.conversions() + " conversions"
                : "starts on first use");
        h.withDetail("chromium", !chromium.available() ? "not installed"
                : chromium.pid().isPresent() ? "running" : "starts on first use");
        for (Engine e : Engine.values()) {
            if (e == Engine.SOFFICE || e == Engine.CHROMIUM) continue; // shown above with their processes
            h.withDetail(e.executable(), EngineCheck.installed(e) ? "installed" : "not installed");
        }
        h.withDetail("sandbox", sandbox.enabled() ? "bubblewrap" : "off (DOCAPI_UNSANDBOXED)");
        return h.build();
    }
}
