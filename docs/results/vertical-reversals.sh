#!/usr/bin/env bash
# Sixteenth session: how often the planner reversed its vertical choice (climb <-> descend) in the 12 decisions (3 s)
# before a wire/branch strike, read from the strike attributions (--attribute-strikes) already committed in docs/results/.
# A reversal is a change between u and d in the decision string with the other manoeuvres left out ("cuucudddcccu" -> "uuuddd" -> 1;
# "dududucuucld" -> "ddududuud" ... counted on u/d only). Only the per-row "what the planner saw" blocks are read (the paired traces
# after them are not strikes of one row). Run from the repository root.
# It reads the attributions printed before the per-strike climb/descend counts were added (81d605e); node
# docs/results/strike-manoeuvres.js reads both formats (its "climb and descend" count equals "reversed >= 1" here on every
# file this script reads, checked in the thirty-ninth session).
set -euo pipefail
cd "$(dirname "$0")"
for f in $(grep -l "manoeuvres [cshudlr]*$" eval-*.txt | sort); do
  awk -v F="$f" '
    /^(nominal|perturbed):/ { cond = $1; row = "" }
    /what the planner saw/ { row = $1; next }
    /^paired / || /^$/ { row = "" }
    row != "" && /^- seed/ {
      m = $NF; v = m; gsub(/[^ud]/, "", v); rev = 0
      for (i = 2; i <= length(v); i++) if (substr(v, i, 1) != substr(v, i - 1, 1)) rev++
      key = cond " " row; n[key]++; if (rev >= 2) r2[key]++; if (rev >= 1) r1[key]++
    }
    END { for (k in n) printf "%-48s %-34s strikes %2d, u/d reversed >= 1: %2d, >= 2: %2d\n", F, k, n[k], r1[k] + 0, r2[k] + 0 }' "$f"
done | sort
