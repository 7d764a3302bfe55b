#!/usr/bin/env bash
# Installs the Debian packages DuetDB needs to build and test. Idempotent: it installs
# only what is missing, so it is cheap to call from run.sh and test.sh every time.
set -euo pipefail

PACKAGES=(
  g++-12 cmake ninja-build pkg-config
  llvm-19-dev libzstd-dev zlib1g-dev libedit-dev libffi-dev libxml2-dev libcurl4-openssl-dev
  libboost-dev libfmt-dev libcli11-dev catch2 libpqxx-dev libpq-dev
  libhowardhinnant-date-dev tzdata
  libpcre2-dev libssl-dev       # regular expressions (PCRE2), md5() (libcrypto)
  postgresql-15 postgresql-client-15 postgresql-contrib
  python3 python3-venv
  default-jdk-headless libpostgresql-jdbc-java
  clang-19 libclang-rt-19-dev   # libFuzzer (build-fuzz) and AddressSanitizer (build-asan)
  clang-format-19 ccache        # the format suite; cached rebuilds
  nodejs                        # the node suite (node-postgres, postgres.js)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup.sh: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The pgx suite needs Go 1.22 or later (Debian 12's golang-go is older: a machine without Go
# gets it, and the suite says what it lacks).
if ! command -v go >/dev/null && [ ! -x /usr/local/go/bin/go ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends golang-go >/dev/null
fi
# Debian's nodejs comes without npm, which NodeSource's bundles (and Debian's npm package
# would conflict with): installed only where there is none.
if ! command -v npm >/dev/null; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
