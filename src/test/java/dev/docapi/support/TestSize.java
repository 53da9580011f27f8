package dev.docapi.support;

/**
 * How large the load tests run (issue 41): CI runs them at a size that still crosses the limit under test (more
 * requests than database connections, jobs running on a node when it is killed); the nightly profile
 * ({@code bin/docapi test -Pnightly}, which sets {@code docapi.test.size=nightly}) runs them at full size.
 */
public final class TestSize {
    private TestSize() {
    }

    /** True under the nightly profile. */
    public static boolean nightly() {
        return "nightly".equals(System.getProperty("docapi.test.size"));
    }

    /** {@code ci} in CI and a developer's run, {@code nightly} under the nightly profile. */
    public static int of(int ci, int nightly) {
        return nightly() ? nightly : ci;
    }
}
