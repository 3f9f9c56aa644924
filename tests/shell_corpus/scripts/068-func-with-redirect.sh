log() { echo "[log] $*" >> build.log; }
log starting
log step two
log done
cat build.log
