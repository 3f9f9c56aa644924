mkdir -p bin
cat > bin/run.sh <<'EOF2'
#!/bin/bash
set -euo pipefail
echo "running ${1:-default}"
EOF2
head -n 2 bin/run.sh
source bin/run.sh custom 2>/dev/null || true
grep -c '\$' bin/run.sh
