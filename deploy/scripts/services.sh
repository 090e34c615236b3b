#!/usr/bin/env bash
# Makes sure Postgres and Redis answer on their local ports. When one does not,
# it is started from locally installed binaries if there are any; otherwise
# this prints exactly what to install or run, and fails.
#
# Only the default local addresses are managed: when PIXGATE_DATABASE_URL or
# PIXGATE_REDIS_URL point elsewhere, that service is left to its operator.
set -u

PG_HOST=127.0.0.1 PG_PORT=5432 REDIS_HOST=127.0.0.1 REDIS_PORT=6379

reachable() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_for() { # host port name
  for _ in $(seq 1 50); do reachable "$1" "$2" && return 0; sleep 0.2; done
  echo "services: $3 was started but does not answer on $1:$2" >&2
  return 1
}

manages() { # env-var-value default-host-port
  [ -z "$1" ] || [[ "$1" == *"127.0.0.1:$2"* ]] || [[ "$1" == *"localhost:$2"* ]]
}

missing=()

if manages "${PIXGATE_DATABASE_URL:-}" "$PG_PORT" && ! reachable "$PG_HOST" "$PG_PORT"; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "services: starting Postgres (pg_ctlcluster)"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start && wait_for "$PG_HOST" "$PG_PORT" Postgres || missing+=(postgres)
  elif command -v pg_ctl >/dev/null 2>&1 && [ -n "${PGDATA:-}" ]; then
    echo "services: starting Postgres (pg_ctl, PGDATA=$PGDATA)"
    pg_ctl -D "$PGDATA" -l "$PGDATA/server.log" start && wait_for "$PG_HOST" "$PG_PORT" Postgres || missing+=(postgres)
  else
    missing+=(postgres)
  fi
fi

if manages "${PIXGATE_REDIS_URL:-}" "$REDIS_PORT" && ! reachable "$REDIS_HOST" "$REDIS_PORT"; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "services: starting Redis (redis-server)"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no >/dev/null \
      && wait_for "$REDIS_HOST" "$REDIS_PORT" Redis || missing+=(redis)
  else
    missing+=(redis)
  fi
fi

if [ ${#missing[@]} -gt 0 ]; then
  {
    echo "services: not reachable and not startable here: ${missing[*]}"
    echo
    echo "PixGate needs Postgres (15 or newer) on 127.0.0.1:5432 and Redis (6.2 or newer)"
    echo "on 127.0.0.1:6379. Either:"
    echo
    echo "  * with Docker:        docker compose -f deploy/compose.services.yaml up -d"
    echo "  * on Debian/Ubuntu:   sudo apt-get install -y postgresql redis-server"
    echo "                        (then run this command again: it starts them)"
    echo "  * on macOS:           brew install postgresql@16 redis && brew services start postgresql@16 && brew services start redis"
    echo
    echo "or point PIXGATE_DATABASE_URL and PIXGATE_REDIS_URL at servers you already run."
    echo "Postgres must accept the user in the URL (default: postgres, no password)."
  } >&2
  exit 1
fi
exit 0
