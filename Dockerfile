# syntax=docker/dockerfile:1
# docapi in a container (README "Running more than one node"; docs/container.md; checked by scripts/check-container).
#   docker build -t docapi .
#   docker run --init -p 8080:8080 -v docapi-data:/data --security-opt seccomp=unconfined \
#     --security-opt apparmor=unconfined --security-opt systempaths=unconfined docapi
# Probes, metrics and the admin API answer on the management port 8081 (DOCAPI_MANAGEMENT_PORT); publish it only to
# the operator's network (e.g. -p 127.0.0.1:8081:8081), never next to 8080.
# The engines run inside bubblewrap (engines/process/Sandbox.java: bwrap --unshare-all ... --proc /proc) as the
# unprivileged user below, which needs an unprivileged user namespace. Docker's defaults forbid what bwrap does:
#   seccomp=unconfined      the default seccomp profile refuses clone/unshare of new namespaces
#   apparmor=unconfined     the docker-default AppArmor profile refuses the mounts bwrap makes
#   systempaths=unconfined  Docker's masked /proc paths stop a user namespace from mounting a fresh /proc
# No cap_add is needed: bwrap gets its capabilities inside the new user namespace, not from the container. The host
# must allow unprivileged user namespaces (Debian 12: on by default; Ubuntu 24.04: sysctl
# kernel.apparmor_restrict_unprivileged_userns=0). Where none of this is possible, DOCAPI_UNSANDBOXED=true runs the
# engines without a sandbox: only for trusted documents.

# ---- build: the jar, and a Java runtime cut to the modules the service uses ----
FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
# One Maven build: libs/tabula-shaded (Tabula with its PDFBox 2, relocated), then the service.
COPY pom.xml docapi.pom.xml ./
COPY libs/tabula-shaded/pom.xml libs/tabula-shaded/pom.xml
COPY src src
RUN --mount=type=cache,target=/root/.m2 mvn -q -B -DskipTests package
# The modules: jdeps --print-module-deps over the jar's classes and BOOT-INF/lib (unpacked flat: several libraries are
# modular jars whose optional requires make jdeps on the jars themselves give up), plus what jdeps cannot see:
# java.sql/java.naming/java.management (reached reflectively by Spring, Hikari, Flyway, JMX), jdk.crypto.ec,
# jdk.charsets (legacy encodings in documents and mails), jdk.zipfs, jdk.security.auth (PostgreSQL's GSS),
# jdk.jcmd (jcmd/jstack for an operator: thread and heap dumps), jdk.localedata for generate's number and date formats
# in the languages of --include-locales (`{{date due "d MMMM yyyy" locale="fr"}}`; 6 MB, all locales would be 26 MB;
# java.base alone knows English only and gives "26 Nov 2026" for any other). java.desktop is PDFBox's ImageIO/AWT
# (headless; Temurin bundles its libfreetype).
# --generate-cds-archive: the default class-data archive; the Tabula child JVM (engines/process/ChildJvm) runs with
# -Xshare:auto and trains a dynamic archive (-XX:ArchiveClassesAtExit), which needs this base archive. The child finds
# java through java.home, i.e. this runtime. Not compressed: the child's classes outside the archive load faster.
# --strip-java-debug-attributes, not --strip-debug: that also strips native symbols with objcopy, which the build
# image lacks (Temurin's native libraries come stripped already).
RUN jlink --output /jre --strip-java-debug-attributes --no-man-pages --no-header-files --generate-cds-archive --add-modules \
      java.base,java.compiler,java.desktop,java.instrument,java.management,java.naming,java.net.http,java.prefs,\
java.rmi,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.sql.rowset,java.xml.crypto,jdk.charsets,\
jdk.crypto.ec,jdk.jcmd,jdk.jfr,jdk.localedata,jdk.management,jdk.net,jdk.security.auth,jdk.unsupported,jdk.zipfs \
      --include-locales=en,ar,cs,da,de,el,es,fi,fr,he,hi,hu,id,it,ja,ko,nb,nl,pl,pt,ro,ru,sv,th,tr,uk,vi,zh \
      >/tmp/jlink.log 2>&1 || { cat /tmp/jlink.log; exit 1; }; \
    /jre/bin/java -Xshare:on -version

# ---- runtime: Debian, the engines, the runtime above, the jar; no JDK, Maven, Node or browser driver ----
FROM debian:bookworm-slim
COPY scripts/install-deps /tmp/install-deps
# tini: PID 1 that reaps the engines' orphaned children even when the container is run without --init (-s: also as a
# subreaper when --init / init: true puts docker-init in front of it). Only the service gets the signals (no -g):
# LibreOffice and Chromium must not be stopped by the SIGTERM that starts the drain.
# Left out of every package (dpkg path-exclude; -360 MB): documentation but its copyright files, manuals and message
# translations, and Mesa's OpenGL drivers with the LLVM they JIT with (a dependency of Chromium's packages; the service
# runs Chromium with --disable-gpu, so it never loads them), and Chromium's Vulkan validation layer (23 MB, a debugging
# aid loaded only when Vulkan validation is asked for).
RUN printf '%s\n' 'path-exclude=/usr/share/doc/*' 'path-include=/usr/share/doc/*/copyright' 'path-exclude=/usr/share/man/*' \
      'path-exclude=/usr/share/info/*' 'path-exclude=/usr/share/locale/*' 'path-include=/usr/share/locale/locale.alias' \
      'path-exclude=/usr/lib/*/dri/*' 'path-exclude=/usr/lib/*/libLLVM-*.so*' 'path-exclude=/usr/lib/*/libz3.so*' \
      'path-exclude=/usr/lib/chromium/libVkLayer_khronos_validation.so' \
      >/etc/dpkg/dpkg.cfg.d/docapi-slim \
    && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tini >/dev/null \
    && /tmp/install-deps --runtime \
    && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/debconf/*-old /var/log/apt /var/log/dpkg.log /tmp/install-deps
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin docapi \
    && mkdir -p /data /opt/docapi && chown docapi:docapi /data
COPY --from=build /jre /opt/java
# The service as the jar extracted into /opt/docapi/start (its docapi.jar + lib/; also what `java -jar
# /opt/docapi/start/docapi.jar admin ...` runs) with a JDK AOT cache (issue 41; scripts/aot-cache) trained by one start
# of the service in this very image (same runtime, same paths, the entrypoint's GC): a container answers in about a
# third of the time of `java -jar`. The packed jar is only mounted for this step, not kept (it would add 150 MB). The
# training starts the service on a throw-away H2 with LibreOffice's warm-up off and without the sandbox (a build has
# no user namespaces; no engine runs in it); nothing of it stays but the cache. A failed training only leaves the
# cache out: java then warns once and starts as before.
RUN --mount=type=bind,from=build,source=/src/target/docapi.jar,target=/tmp/docapi.jar \
    --mount=type=bind,source=scripts/aot-cache,target=/tmp/aot-cache \
    JAVA_HOME=/opt/java DOCAPI_UNSANDBOXED=true /tmp/aot-cache /tmp/docapi.jar /opt/docapi/start -XX:+UseG1GC \
    && rm -f /opt/docapi/start.lock /opt/docapi/start/training.log
USER docapi
# LANG: file names are bytes in UTF-8 (the JVM's sun.jnu.encoding follows the locale; POSIX would mangle non-ASCII)
ENV JAVA_HOME=/opt/java \
    PATH=/opt/java/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 \
    DOCAPI_DATA_DIR=/data \
    DOCAPI_PORT=8080 \
    DOCAPI_MANAGEMENT_PORT=8081
VOLUME /data
EXPOSE 8080 8081
# Readiness (DOWN while the database or blob store is unreachable, and from the first moment of a stop): "healthy"
# means "give it traffic". start-period covers the start (a few seconds with the start cache; more on a cold, busy host).
HEALTHCHECK --interval=10s --timeout=3s --start-period=90s --retries=3 \
    CMD curl -fsS -o /dev/null -m 3 "http://127.0.0.1:${DOCAPI_MANAGEMENT_PORT}/actuator/health/readiness" || exit 1
# The service handles SIGTERM itself: readiness DOWN, running jobs get DOCAPI_SHUTDOWN_GRACE (120 s) to finish; give
# the container more than that to stop (docker stop -t 150; compose: stop_grace_period: 150s).
ENTRYPOINT ["/usr/bin/tini", "-s", "--", "java", "-XX:+UseG1GC", "-XX:MaxRAMPercentage=60", "-XX:AOTCache=/opt/docapi/start/docapi.aot", \
    "-jar", "/opt/docapi/start/docapi.jar"]
