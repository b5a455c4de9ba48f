# shellcheck shell=bash
# Sourced by scripts/start and scripts/test. Defines:
#   hearth_prepare   pnpm, dependencies, NATS (exports NATS_URL)
#   ensure_postgres  a Postgres with database hearth_test (exports DATABASE_URL)
# Servers that are missing are installed (apt-get, as root) and started in the
# background with their data under .data/; servers that already run are reused.
set -euo pipefail

HEARTH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HEARTH_DATA="${HEARTH_ROOT}/.data"
HEARTH_PNPM_VERSION="10.34.9"

hearth_log() { echo "[hearth] $*" >&2; }
hearth_die() { hearth_log "error: $*"; return 1; }

# Runs a command as root: directly when we are root, through passwordless sudo
# otherwise, else fails.
hearth_as_root() {
  if [[ "$(id -u)" == 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo -n "$@"
  else
    hearth_die "need root to run: $*"
  fi
}

hearth_apt_install() {
  hearth_log "installing $* with apt-get"
  hearth_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  hearth_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
}

# hearth_tcp_open HOST PORT: true when something accepts TCP connections there.
hearth_tcp_open() {
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null
}

# hearth_nats_answers HOST PORT: true when a NATS server greets with INFO there.
hearth_nats_answers() {
  # shellcheck disable=SC2016
  timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2" && IFS= read -r -t 2 line <&3 && [[ $line == INFO* ]]' \
    _ "$1" "$2" 2>/dev/null
}

# hearth_wait SECONDS DESCRIPTION COMMAND...: polls COMMAND every half second.
hearth_wait() {
  local seconds=$1 what=$2
  shift 2
  local tries=$((seconds * 2))
  while ((tries-- > 0)); do
    if "$@"; then return 0; fi
    sleep 0.5
  done
  hearth_die "$what did not come up within ${seconds}s"
}

ensure_pnpm() {
  if ! command -v pnpm >/dev/null 2>&1; then
    hearth_log "pnpm not found: npm i -g pnpm@${HEARTH_PNPM_VERSION}"
    npm i -g "pnpm@${HEARTH_PNPM_VERSION}"
  fi
}

install_deps() {
  if [[ "${HEARTH_SKIP_INSTALL:-}" == 1 ]]; then
    hearth_log "HEARTH_SKIP_INSTALL=1: not running pnpm install"
    return 0
  fi
  if [[ -f "${HEARTH_ROOT}/pnpm-lock.yaml" ]]; then
    hearth_log "pnpm install --frozen-lockfile"
    (cd "$HEARTH_ROOT" && pnpm install --frozen-lockfile)
  else
    hearth_log "no pnpm-lock.yaml: pnpm install"
    (cd "$HEARTH_ROOT" && pnpm install)
  fi
}

# Host and port of the first server in a NATS URL list such as
# "nats://user:pass@host:4222,nats://other:4222".
hearth_nats_host_port() {
  local url=${1%%,*}
  url=${url#*://}
  url=${url##*@}
  url=${url%%/*}
  local host=${url%:*} port=4222
  [[ "$url" == *:* ]] && port=${url##*:}
  [[ -n "$host" ]] || host=127.0.0.1
  echo "$host $port"
}

ensure_nats() {
  if [[ -n "${NATS_URL:-}" ]]; then
    local host port
    read -r host port < <(hearth_nats_host_port "$NATS_URL")
    if hearth_nats_answers "$host" "$port"; then
      hearth_log "NATS: using NATS_URL=${NATS_URL}"
      export NATS_URL
      return 0
    fi
    hearth_log "NATS: NATS_URL=${NATS_URL} does not answer; looking for a local server"
  fi
  if hearth_nats_answers 127.0.0.1 4222; then
    export NATS_URL=nats://127.0.0.1:4222
    hearth_log "NATS: using the server on ${NATS_URL}"
    return 0
  fi
  if hearth_tcp_open 127.0.0.1 4222; then
    hearth_die "127.0.0.1:4222 is taken by something that is not NATS"
  fi
  command -v nats-server >/dev/null 2>&1 || hearth_apt_install nats-server
  mkdir -p "${HEARTH_DATA}/nats"
  hearth_log "NATS: starting nats-server with JetStream in ${HEARTH_DATA}/nats (log: .data/nats.log)"
  nohup nats-server -a 127.0.0.1 -p 4222 -js -sd "${HEARTH_DATA}/nats" \
    >>"${HEARTH_DATA}/nats.log" 2>&1 </dev/null &
  echo $! >"${HEARTH_DATA}/nats.pid"
  disown || true
  hearth_wait 30 "nats-server (see .data/nats.log)" hearth_nats_answers 127.0.0.1 4222
  export NATS_URL=nats://127.0.0.1:4222
  hearth_log "NATS: started on ${NATS_URL} (pid $(cat "${HEARTH_DATA}/nats.pid"))"
}

hearth_prepare() {
  mkdir -p "$HEARTH_DATA"
  ensure_pnpm
  install_deps
  ensure_nats
}

hearth_pg_up() {
  hearth_tcp_open 127.0.0.1 5432 || return 1
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h 127.0.0.1 -p 5432
  fi
}

# The newest PostgreSQL major version installed (from /usr/lib/postgresql).
hearth_pg_version() {
  local v
  v="$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null | sort -n | tail -1)"
  [[ -n "$v" ]] || return 1
  echo "$v"
}

start_local_postgres() {
  if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! hearth_pg_version >/dev/null; then
    hearth_apt_install postgresql
  fi
  local version cluster=main
  # Prefer a version that already has a cluster.
  version="$(find /etc/postgresql -mindepth 1 -maxdepth 1 -type d -printf '%f\n' 2>/dev/null | sort -n | tail -1)"
  if [[ -n "$version" && -d "/etc/postgresql/${version}/${cluster}" ]]; then
    hearth_log "Postgres: starting cluster ${version}/${cluster}"
  else
    version="$(hearth_pg_version)" || hearth_die "no PostgreSQL binaries after installing postgresql"
    hearth_log "Postgres: creating cluster ${version}/${cluster} (trust auth, 127.0.0.1:5432)"
    # Explicit initdb auth options make pg_createcluster keep initdb's pg_hba.conf.
    hearth_as_root pg_createcluster --port 5432 "$version" "$cluster" -- --auth=trust
  fi
  hearth_as_root pg_ctlcluster "$version" "$cluster" start ||
    hearth_log "Postgres: pg_ctlcluster start failed (already running?)"
  hearth_wait 60 "PostgreSQL ${version}" hearth_pg_up
}

# Creates database $2 on the server at URL $1 (a maintenance database) if missing.
hearth_pg_createdb_node() {
  (cd "$HEARTH_ROOT" && node --input-type=module - "$1" "$2") <<'JS'
import pg from 'pg';
const [url, name] = process.argv.slice(2);
const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
await client.connect();
try {
  const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
} finally {
  await client.end();
}
JS
}

ensure_postgres() {
  if [[ -n "${DATABASE_URL:-}" ]]; then
    hearth_log "Postgres: using DATABASE_URL"
    export DATABASE_URL
    return 0
  fi
  if hearth_pg_up; then
    hearth_log "Postgres: using the server on 127.0.0.1:5432"
  else
    start_local_postgres
  fi
  local db=hearth_test user created=false
  # Trust auth over TCP as postgres, then as root; else peer auth over the socket.
  for user in postgres root; do
    if hearth_pg_createdb_node "postgres://${user}@127.0.0.1:5432/postgres" "$db" 2>/dev/null; then
      created=true
      break
    fi
  done
  if ! $created && command -v createdb >/dev/null 2>&1; then
    if [[ "$(id -u)" == 0 ]] && command -v runuser >/dev/null 2>&1; then
      runuser -u postgres -- createdb "$db" 2>/dev/null && created=true
    fi
    if ! $created && createdb -h 127.0.0.1 -U postgres "$db" 2>/dev/null; then created=true; fi
    # An "already exists" error above still leaves a usable database.
    if ! $created && psql -h 127.0.0.1 -U postgres -Atc "SELECT 1 FROM pg_database WHERE datname='${db}'" postgres 2>/dev/null | grep -q 1; then
      created=true
    fi
  fi
  $created || hearth_die "could not create database ${db} on 127.0.0.1:5432 (is trust auth enabled for postgres?)"
  export DATABASE_URL="postgres://postgres@127.0.0.1:5432/${db}"
  hearth_log "Postgres: DATABASE_URL=${DATABASE_URL}"
}
