#!/usr/bin/env bash
# PostgreSQL and Redis on loopback, for the PostgreSQL + Redis test run (`make test-postgres`,
# `.ci/run`) and for trying the scale-out setup locally. Debian packages, no network listener.
#
#   .ci/services.sh start   install if missing (apt, as root), start both; creates no role
#                           or database, so restarting Redis after an outage changes nothing
#   .ci/services.sh setup   create the role and the database if missing (KBQA_PG_USER,
#                           KBQA_PG_PASSWORD, KBQA_PG_DB; each `kbqa` by default), saying which
#                           it created; `make services` and `.ci/run` run `start` then `setup`
#   .ci/services.sh stop    stop what `start` started
#   .ci/services.sh env     print the DATABASE_URL / KBQA_REDIS_URL lines to export, the user
#                           and password percent-encoded (README: Production, step 2)
#
# The role may create databases: pytest-django creates and drops `test_kbqa` with it.
set -euo pipefail

PG_USER=${KBQA_PG_USER:-kbqa}
PG_PASSWORD=${KBQA_PG_PASSWORD:-kbqa}
PG_DB=${KBQA_PG_DB:-kbqa}
PG_PORT=${KBQA_PG_PORT:-5432}
REDIS_PORT=${KBQA_REDIS_PORT:-6379}
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo

as_postgres() { $SUDO runuser -u postgres -- "$@"; }

install_missing() {
    command -v pg_lsclusters >/dev/null && command -v redis-server >/dev/null && return
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql redis-server
}

pg_cluster() {  # "VERSION NAME" of the first cluster, created if there is none
    local first
    first=$(pg_lsclusters -h | awk 'NR==1 {print $1, $2}')
    if [ -z "$first" ]; then
        local version
        version=$(ls /usr/lib/postgresql | sort -V | tail -1)
        $SUDO pg_createcluster "$version" main -p "$PG_PORT" >/dev/null
        first="$version main"
    fi
    echo "$first"
}

pg_start() {
    read -r version name < <(pg_cluster)
    if ! pg_isready -q -h 127.0.0.1 -p "$PG_PORT"; then
        # Loopback only, whatever postgresql.conf says.
        $SUDO pg_ctlcluster "$version" "$name" start \
            -- -o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT"
    fi
    for _ in $(seq 50); do pg_isready -q -h 127.0.0.1 -p "$PG_PORT" && break; sleep 0.2; done
    pg_isready -h 127.0.0.1 -p "$PG_PORT" >/dev/null
}

sql_literal() { local q="'"; printf "'%s'" "${1//$q/$q$q}"; }
sql_name() { printf '"%s"' "${1//\"/\"\"}"; }

pg_setup() {  # what it creates goes to stderr: stdout stays the `env` lines
    local has_role
    has_role=$(as_postgres psql -p "$PG_PORT" -tAc \
        "SELECT 1 FROM pg_roles WHERE rolname=$(sql_literal "$PG_USER")")
    if [ "$has_role" != "1" ]; then
        as_postgres psql -q -p "$PG_PORT" -v ON_ERROR_STOP=1 -c \
            "CREATE ROLE $(sql_name "$PG_USER") LOGIN CREATEDB PASSWORD $(sql_literal "$PG_PASSWORD")"
        echo "services.sh: created PostgreSQL role $PG_USER" >&2
    fi
    local has_db
    has_db=$(as_postgres psql -p "$PG_PORT" -tAc \
        "SELECT 1 FROM pg_database WHERE datname=$(sql_literal "$PG_DB")")
    if [ "$has_db" != "1" ]; then
        as_postgres createdb -p "$PG_PORT" -O "$PG_USER" "$PG_DB"
        echo "services.sh: created PostgreSQL database $PG_DB owned by $PG_USER" >&2
    fi
}

redis_start() {
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && return
    # No persistence: the channel layer holds only messages in flight.
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --protected-mode yes --daemonize yes \
        --save "" --appendonly no --logfile /tmp/kbqa-redis-"$REDIS_PORT".log \
        --pidfile /tmp/kbqa-redis-"$REDIS_PORT".pid
    for _ in $(seq 50); do redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null 2>&1 && break
        sleep 0.1; done
    redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping >/dev/null
}

# RFC 3986 percent-encoding of every byte but letters, digits and -._~, as Python's
# urllib.parse.quote(value, safe=""): `t4p@ss#1` written as is reads as password `t4p`.
percent_encode() {
    local LC_ALL=C value=$1 encoded="" char i
    for ((i = 0; i < ${#value}; i++)); do
        char=${value:i:1}
        case $char in
            [A-Za-z0-9._~-]) encoded+=$char ;;
            *) printf -v char '%%%02X' "'$char"; encoded+=$char ;;
        esac
    done
    printf '%s' "$encoded"
}

print_env() {
    local user password database
    user=$(percent_encode "$PG_USER")
    password=$(percent_encode "$PG_PASSWORD")
    database=$(percent_encode "$PG_DB")
    echo "export DATABASE_URL=postgres://$user:$password@127.0.0.1:$PG_PORT/$database"
    echo "export KBQA_REDIS_URL=redis://127.0.0.1:$REDIS_PORT/0"
}

case "${1:-start}" in
    start)
        install_missing
        pg_start
        redis_start
        print_env
        ;;
    setup)
        pg_setup
        ;;
    stop)
        read -r version name < <(pg_lsclusters -h | awk 'NR==1 {print $1, $2}')
        [ -z "${version:-}" ] || $SUDO pg_ctlcluster "$version" "$name" stop || true
        redis-cli -h 127.0.0.1 -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
        ;;
    env)
        print_env
        ;;
    *)
        echo "usage: $0 [start|setup|stop|env]" >&2
        exit 2
        ;;
esac
