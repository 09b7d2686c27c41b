#!/bin/sh
# One whole Atlantis turn as a GM runs it, each step a `realmsmith` process timed by
# /usr/bin/time -v's figures (wall, CPU, peak memory): docs/performance.md.
#   benchmarks/atlantis_turn.sh FOLDER FACTIONS [ROUNDS]
# Generates the game (engine.rulesets.atlantis.generate), then ROUNDS times (default 3):
# copy the fresh game, import every orders file, check them all, run the turn, export
# every report and orders template; then the same turn as one command (`run --orders
# --out`: import, run and export in one process). Run from a checkout with the venv's
# realmsmith on PATH (or REALMSMITH=... PYTHON=...). REALMSMITH_WORKERS=1 keeps every
# step in one process (no forked copies for reports and checks).
set -e
D=$1; N=$2; ROUNDS=${3:-3}
R=${REALMSMITH:-realmsmith}
PY=${PYTHON:-python3}
export PYTHONPYCACHEPREFIX="${PYTHONPYCACHEPREFIX:-/tmp/pyc-realmsmith}"
unset PYTHONDONTWRITEBYTECODE
rm -rf "$D"
$PY -m engine.rulesets.atlantis.generate "$D" --factions "$N" >/dev/null
cp "$D/game.db" "$D/fresh.db"
i=0
while [ "$i" -lt "$ROUNDS" ]; do
  i=$((i + 1)); cp "$D/fresh.db" "$D/game.db"; rm -rf "$D/out"
  for step in "import $D/game.db $D/orders" "check $D/game.db -q" "run $D/game.db -q" \
              "export $D/game.db --out $D/out"; do
    # check exits 1 when some orders have errors: that is a finding, not a failure here
    /usr/bin/time -f "round $i, $N factions, ${step%% *}: %e s wall, %U s user, %S s sys, max RSS %M kB" \
      $R $step >/dev/null || true
  done
  cp "$D/fresh.db" "$D/game.db"; rm -rf "$D/one"
  /usr/bin/time -f "round $i, $N factions, one command (run --orders --out): %e s wall, %U s user, %S s sys, max RSS %M kB" \
    $R run "$D/game.db" -q --orders "$D/orders" --out "$D/one" >/dev/null
  diff -rq "$D/out" "$D/one" >/dev/null || echo "round $i: the one command's files differ from the four steps'"
done
echo "reports: $(du -sh "$D/out" | cut -f1) in $(ls "$D/out" | wc -l) files"
