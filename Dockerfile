# syntax=docker/dockerfile:1
# docapi in a container (issue 15; README "Running more than one node").
#   docker build -t docapi .
#   docker run -p 8080:8080 -v docapi-data:/data --security-opt seccomp=unconfined \
#     --security-opt apparmor=unconfined --security-opt systempaths=unconfined docapi
# The engines run inside bubblewrap (engines/process/Sandbox.java: bwrap --unshare-all ... --proc /proc) as the
# unprivileged user below, which needs an unprivileged user namespace. Docker's defaults forbid what bwrap does:
#   seccomp=unconfined      the default seccomp profile refuses clone/unshare of new namespaces
#   apparmor=unconfined     the docker-default AppArmor profile refuses the mounts bwrap makes
#   systempaths=unconfined  Docker's masked /proc paths stop a user namespace from mounting a fresh /proc
# No cap_add is needed: bwrap gets its capabilities inside the new user namespace, not from the container. The host
# must allow unprivileged user namespaces (Debian 12: on by default; Ubuntu 24.04: sysctl
# kernel.apparmor_restrict_unprivileged_userns=0). Where none of this is possible, DOCAPI_UNSANDBOXED=true runs the
# engines without a sandbox: only for trusted documents.

FROM maven:3.9-eclipse-temurin-25 AS build
WORKDIR /src
# One Maven build: libs/tabula-shaded (Tabula with its PDFBox 2, relocated), then the service.
COPY pom.xml docapi.pom.xml ./
COPY libs/tabula-shaded/pom.xml libs/tabula-shaded/pom.xml
COPY src src
RUN --mount=type=cache,target=/root/.m2 mvn -q -B -DskipTests package

FROM debian:bookworm-slim
# Debian 12 has no JDK 25 package: the Temurin 25 runtime is copied where scripts/install-deps looks for it.
COPY --from=eclipse-temurin:25-jre /opt/java/openjdk /usr/lib/jvm/temurin-25-jre
ENV JAVA_HOME=/usr/lib/jvm/temurin-25-jre \
    PATH=/usr/lib/jvm/temurin-25-jre/bin:$PATH
COPY scripts/install-deps /tmp/install-deps
RUN /tmp/install-deps && rm -rf /var/lib/apt/lists/* /tmp/install-deps
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin docapi \
    && mkdir -p /data /opt/docapi && chown docapi:docapi /data
COPY --from=build /src/target/docapi.jar /opt/docapi/docapi.jar
USER docapi
ENV DOCAPI_DATA_DIR=/data \
    DOCAPI_PORT=8080
VOLUME /data
EXPOSE 8080
# Java as PID 1 handles SIGTERM (graceful shutdown, DOCAPI_SHUTDOWN_GRACE); run with an init (compose: init: true)
# so that the engines' orphaned children are reaped.
ENTRYPOINT ["java", "-XX:+UseZGC", "-XX:MaxRAMPercentage=60", "-jar", "/opt/docapi/docapi.jar"]
