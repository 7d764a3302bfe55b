#!/usr/bin/env bash
# JDBC against a server: tests/clients/JdbcTest.java run as a single-file program with
# Debian's pgjdbc (libpostgresql-jdbc-java, installed by scripts/setup.sh).
# Usage: jdbc_test.sh HOST PORT
set -uo pipefail
HOST=${1:?usage: jdbc_test.sh HOST PORT}
PORT=${2:?usage: jdbc_test.sh HOST PORT}
exec java -cp /usr/share/java/postgresql.jar "$(dirname "$0")/JdbcTest.java" "$HOST" "$PORT"
