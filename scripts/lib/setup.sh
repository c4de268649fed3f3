# Shared by scripts/demo, scripts/test and the other scripts: install what is missing, find the
# toolchain, wait for a local server.
# Sourced, not run.

# Debian packages the project needs: the server (embedded cluster), libpq headers and pkg-config
# (for the CLibPQ system library).
SCOREFEED_APT_PACKAGES=(postgresql libpq-dev pkg-config)

scorefeed_log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# ensure_packages [EXTRA...]: the project's packages and any extra ones (scripts/test adds chromium
# for the scoreboard's browser test).
ensure_packages() {
    local missing=()
    for pkg in "${SCOREFEED_APT_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    scorefeed_log "installing ${missing[*]} (apt)"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

ensure_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
            [ -x "$dir/swift" ] && export PATH="$dir:$PATH" && break
        done
    fi
    command -v swift >/dev/null 2>&1 || { echo "error: the Swift toolchain (swift) is not on PATH" >&2; exit 1; }
}

# await_env_file DIR LOG: waits up to 10 s for the env file a local server (`scorefeed apns-sandbox
# --dir DIR`, `fcm-sandbox --dir DIR`) writes once it listens; if none comes, prints LOG (the
# server's output) to stderr and fails.
await_env_file() {
    for _ in $(seq 100); do [ -s "$1/env" ] && return 0; sleep 0.1; done
    cat "$2" >&2
    return 1
}
