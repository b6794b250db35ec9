#!/usr/bin/env bash
# How-to questions (issue 12 item 3, procedure answers) asked of the demo knowledge base with
# the offline reader, one after another; prints each question and what the chat would show
# (first 3 lines). Judged by reading: is each quoted sentence an instruction for the task?
# Figures in README "Evaluation" (How-to questions). Written for this check from the demo
# documents; not a case file and not a held-out set.
#
#   bench/howto_probe.sh > /tmp/howto.txt
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
export KBQA_DEBUG=${KBQA_DEBUG:-1}
export KBQA_DATA_DIR=${KBQA_DATA_DIR:-$(mktemp -d /tmp/kbqa-howto.XXXXXX)}
$PY manage.py migrate --verbosity 0
$PY manage.py ingest sources/demo/docs > /dev/null
while IFS= read -r q; do
  echo "== $q"
  $PY manage.py ask "$q" 2>/dev/null | grep -v '^Sources:\|^  \[\|^$\|^Trace' | head -3 || true
done < bench/howto_questions.txt
