# syntax=docker/dockerfile:1
# Hearth's container image: the release binary (Swift standard library linked in statically) on a
# slim Debian with what it reads at run time. Build: `docker build -t hearth .`; run: see compose.yaml
# and the README's "Self-hosting" section.

ARG SWIFT_VERSION=6.3
ARG DEBIAN_RELEASE=bookworm

# --- build: `make release` without the Makefile's package installation (this image has the toolchain)
FROM swift:${SWIFT_VERSION}-${DEBIAN_RELEASE} AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev libpq-dev libssl-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN swift build -c release --static-swift-stdlib --product hearth \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/hearth" /out/hearth

# --- run: the C libraries the binary links (SQLite, OpenSSL 3, zlib; libstdc++ for the Swift runtime
# linked in statically, already in the slim image, named to say so), the time zone database
# (/usr/share/zoneinfo, read for households' time zones) and the CA certificates outbound TLS
# trusts (SMTP, Web Push, FCM, Google and Apple keys, calendar feeds).
FROM debian:${DEBIAN_RELEASE}-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends tzdata ca-certificates libsqlite3-0 libpq5 libssl3 zlib1g libstdc++6 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 hearth \
    && useradd --system --uid 10001 --gid hearth --home-dir /data --shell /usr/sbin/nologin hearth \
    && install -d -o hearth -g hearth -m 0700 /data
COPY --from=build /out/hearth /usr/local/bin/hearth

# The database and, beside it, the key directory (/data/keys): the only state. Back up both,
# separately (see the README).
VOLUME ["/data"]
ENV HEARTH_HOST=0.0.0.0 \
    HEARTH_PORT=8080 \
    HEARTH_DATABASE=/data/hearth.sqlite
EXPOSE 8080
USER hearth:hearth
WORKDIR /data

# `hearth healthcheck` asks /readyz on loopback (HEARTH_HOST/HEARTH_PORT): no curl in the image.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["hearth", "healthcheck"]

# Exec form: hearth is PID 1 and receives SIGTERM itself (it starts no child processes, so it
# reaps none); it drains within --shutdown-grace (10 s) and exits, inside Docker's default
# 10 s stop timeout plus the second it allows itself (compose.yaml's stop_grace_period gives 20 s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["hearth"]
CMD ["serve"]
