# Shell functions for a consortium on this machine (sourced by deploy/demo.sh
# and tests/bench/bench_daemons.sh): certificates and consortium file, a dealt
# key, configs, starting and stopping a coordinator and three parties.
# Needs: pplda, party_bin, coordinator_bin (paths), set by the caller.
#
# consortium_setup DIR BITS BASE_PORT VOCABULARY SPLIT WINDOW_WORDS MAX_TOKENS FOLDER...
#   three party folders: parties early, middle, modern on ports BASE+1..3,
#   the coordinator on BASE; metrics on BASE+10..13.
# consortium_start DIR     starts the daemons (logs in DIR/logs), waits until they listen
#                          (or, in relay mode, until they reached the coordinator)
# consortium_stop          SIGTERM to every daemon started, then waits for them
# Relay mode: set consortium_relay to the names of the parties that never
# listen and dial the coordinator instead (e.g. consortium_relay="middle"),
# before consortium_setup; every party then relays its MPC frames, sealed.
# Other hosts (tests/deploy/wan_namespaces_test.sh): consortium_hosts lists
# the addresses the consortium file gives the coordinator and the three
# parties (default 127.0.0.1 for all); with consortium_listen_shift N > 0 a
# daemon listens on 127.0.0.1:(its port + N) instead, behind something the
# caller puts on its advertised address; with consortium_listen_host H, on
# H:(its port) (e.g. 0.0.0.0 in a container). consortium_exec NAME CMD... starts
# a participant's daemon (always in the background; default: exec CMD); a
# caller may define it before sourcing this file, e.g. to enter a network
# namespace.
consortium_names=(early middle modern)
consortium_pids=()
consortium_relay=${consortium_relay:-}
if [ -z "${consortium_hosts+x}" ]; then
  consortium_hosts=(127.0.0.1 127.0.0.1 127.0.0.1 127.0.0.1)
fi
consortium_listen_shift=${consortium_listen_shift:-0}
consortium_listen_host=${consortium_listen_host:-}
declare -F consortium_exec > /dev/null || consortium_exec() { shift; exec "$@"; }

# consortium_listen INDEX PORT: the listen address of participant INDEX
# (0 coordinator, 1..3 the parties) whose advertised port is PORT.
consortium_listen() {
  if [ "$consortium_listen_shift" -gt 0 ]; then
    echo "127.0.0.1:$(($2 + consortium_listen_shift))"
  elif [ -n "$consortium_listen_host" ]; then
    echo "$consortium_listen_host:$2"
  else
    echo "${consortium_hosts[$1]}:$2"
  fi
}
# consortium_threads: worker threads per party daemon (0 = all cores).
consortium_threads=${consortium_threads:-0}

consortium_is_relay() {  # name
  [[ " $consortium_relay " == *" $1 "* ]]
}

consortium_setup() {
  local dir=$1 bits=$2 base=$3 vocabulary=$4 split=$5 window=$6 max_tokens=$7
  shift 7
  local folders=("$@")
  mkdir -p "$dir/logs"
  cp "$vocabulary" "$dir/vocabulary.txt"
  "$repo_root/deploy/make-certs.sh" --out "$dir/certs" --name local-consortium \
    --coordinator "coordinator=${consortium_hosts[0]}:$base" \
    $(for i in 0 1 2; do
        if consortium_is_relay "${consortium_names[$i]}"; then
          echo "--party ${consortium_names[$i]}=relay"
        else
          echo "--party ${consortium_names[$i]}=${consortium_hosts[$((i + 1))]}:$((base + 1 + i))"
        fi
      done) > "$dir/logs/make-certs.log"
  "$pplda" keys deal --party early --party middle --party modern --bits "$bits" \
    --out "$dir/keys" > "$dir/logs/keys.log"
  cat > "$dir/coordinator.toml" <<TOML
[coordinator]
name = "coordinator"
consortium = "certs/consortium.toml"
vocabulary = "vocabulary.txt"
public_key = "keys/public.key"
state_dir = "state/coordinator"
listen = "$(consortium_listen 0 "$base")"
metrics_listen = "127.0.0.1:$((base + 10))"
[tls]
ca = "certs/ca.crt"
cert = "certs/coordinator.crt"
key = "certs/coordinator.key"
TOML
  local i name listen
  for i in 0 1 2; do
    name=${consortium_names[$i]}
    listen="listen = \"$(consortium_listen $((i + 1)) $((base + 1 + i)))\""
    if consortium_is_relay "$name"; then listen="# relay mode: never listens"; fi
    cat > "$dir/$name.toml" <<TOML
[party]
name = "$name"
consortium = "certs/consortium.toml"
documents = "${folders[$i]}"
vocabulary = "vocabulary.txt"
key_share = "keys/$name.key"
state_dir = "state/$name"
$listen
box_key = "certs/$name.box"
metrics_listen = "127.0.0.1:$((base + 11 + i))"
threads = $consortium_threads
[input]
split = "$split"
window_words = $window
max_tokens = $max_tokens
[tls]
ca = "certs/ca.crt"
cert = "certs/$name.crt"
key = "certs/$name.key"
TOML
  done
}

consortium_start() {
  local dir=$1 name
  consortium_exec coordinator "$coordinator_bin" --config "$dir/coordinator.toml" \
    > "$dir/logs/coordinator.log" 2>&1 &
  consortium_pids+=($!)
  for name in "${consortium_names[@]}"; do
    consortium_exec "$name" "$party_bin" --config "$dir/$name.toml" > "$dir/logs/$name.log" 2>&1 &
    consortium_pids+=($!)
  done
  # Every daemon listens, except relay-mode parties; with any relay-mode
  # party, every party (direct ones too) also keeps a stream to the coordinator.
  local checks=("coordinator:listening on") check ready
  for name in "${consortium_names[@]}"; do
    if consortium_is_relay "$name"; then
      checks+=("$name:relay connected")
    else
      checks+=("$name:listening on")
      [ -z "$consortium_relay" ] || checks+=("$name:relay connected")
    fi
  done
  for check in "${checks[@]}"; do
    name=${check%%:*} ready=${check#*:}
    for _ in $(seq 1 300); do
      grep -q "$ready" "$dir/logs/$name.log" 2>/dev/null && break
      grep -q "error" "$dir/logs/$name.log" 2>/dev/null && break
      sleep 0.1
    done
    if ! grep -q "$ready" "$dir/logs/$name.log"; then
      echo "$name did not start:" >&2
      cat "$dir/logs/$name.log" >&2
      return 1
    fi
  done
}

consortium_stop() {
  local pid
  for pid in "${consortium_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${consortium_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  consortium_pids=()
}
