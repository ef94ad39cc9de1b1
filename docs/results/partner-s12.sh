# Twelfth session: the five runs of docs/results/partner-soup-decision-rule.txt (10:16-10:41 UTC, two seeds at a time).
# out/photo-rowD holds the previous photo model: for f in fit.json teacher.model.json teacher.weights.bin; do git show c74e2bc:models/photo/student/$f > out/photo-rowD/$f; done
cd /work/main
run() { node bin/drone-harness.js transfer --real ../shared/fixtures/real/pld-dev --model photo --partner out/photo-rowD --folds 5 --curve all --steps 400 --scope all --flip --schedule cosine --tta flip --seed $1 > docs/results/transfer-real-partner-s$1.txt 2> out/partner-s$1.log; }
date -u; run 1 & run 2 & wait; date -u; run 3 & run 4 & wait; date -u; run 5; date -u
