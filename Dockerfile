# The tdd-sandbox tool itself, as compose.yaml runs it: it drives the host's Docker engine
# through its socket and needs no privileges of its own.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}

ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv git ca-certificates \
 && rm -rf /var/lib/apt/lists/*

COPY pyproject.toml README.md /src/
COPY tdd_sandbox /src/tdd_sandbox
COPY katas /src/katas
RUN python3 -m venv /opt/tdd \
 && /opt/tdd/bin/pip install --no-cache-dir --disable-pip-version-check /src

# Each language pack carries its image definition, installed with the package.
ENV PATH=/opt/tdd/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
WORKDIR /workspace
ENTRYPOINT ["tdd-sandbox"]
CMD ["--help"]
